import { ShopOutlined } from "@ant-design/icons";
import { defineResource, text, longText, number, relation } from "../src/framework/declare.ts";
import { numericOnly } from "../src/domain/validators.ts";

/** A branch (outlet) of a company; its detail page lists its classrooms. */
export const branches = defineResource({
  table: "branches",
  label: "Branches",
  singular: "Branch",
  icon: ShopOutlined,
  menu: "branches",
  routes: { list: "/branch", create: "/branch/create", edit: "/branch/:branchId/edit", show: "/branch/:branchId/detail" },
  softDelete: true,
  inlines: ["classrooms"],
  fields: {
    name: text("Branch Name", { required: true, filter: true }),
    abbreviation: text("Abbreviation", { required: true, filter: true }),
    companyId: relation("Company", "companies", { required: true, filter: true }),
    address: longText("Address", { required: true }),
    city: text("City", { list: false }),
    country: text("Country", { list: false }),
    postalCode: text("Postal Code", { rules: [numericOnly()] }),
  },
});

/** A classroom of a branch, with its seating capacity; managed from the branch's detail page. */
export const classrooms = defineResource({
  table: "classrooms",
  label: "Classrooms",
  singular: "Classroom",
  menu: null,
  parent: { table: "branches", field: "branchId", param: "branchId" },
  routes: { create: "/branch/:branchId/detail/class-room/add-new", edit: "/branch/:branchId/detail/class-room/:id/edit" },
  softDelete: true,
  exportable: false,
  fields: {
    name: text("Classroom Name", { required: true }),
    capacity: number("Capacity", { required: true, min: 0, defaultValue: 20 }),
  },
});
