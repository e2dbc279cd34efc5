import { BankOutlined } from "@ant-design/icons";
import { defineResource, text, longText, boolean, richText, image } from "../src/framework/declare.ts";

/** A company of the group: its legal details, GST registration, colour and payment-advice notes. */
export const companies = defineResource({
  table: "companies",
  label: "Companies",
  singular: "Company",
  icon: BankOutlined,
  menu: "companies",
  routes: { list: "/company", create: "/company/create", edit: "/company/:companyId/update" },
  softDelete: true,
  fields: {
    logoUrl: image("Logo", { folder: "companies" }),
    name: text("Company Name", { required: true, filter: true }),
    shortName: text("Short Name", { required: true, filter: true }),
    uen: text("UEN", { required: true, filter: true }),
    address: longText("Address", { list: false }),
    telNo: text("Telephone No."),
    hasGstNo: boolean("GST Registered", { filter: true }),
    gstRefNo: text("GST Reg. No."),
    colorCode: text("Colour Code", { placeholder: "#1677ff", list: false }),
    paNotes: richText("PA Notes"),
  },
});
