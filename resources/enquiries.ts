import { MessageOutlined } from "@ant-design/icons";
import { defineResource, text, longText, email, enumOf, relation } from "../src/framework/declare.ts";
import { phoneNumber } from "../src/domain/validators.ts";

/** An enquiry from a prospective parent or student, followed up until closed. */
export const enquiries = defineResource({
  table: "enquiries",
  label: "Enquiry",
  singular: "Enquiry",
  icon: MessageOutlined,
  menu: "enquiry",
  routes: { list: "/enquiry", create: "/enquiry/create", edit: "/enquiry/:id/update" },
  softDelete: true,
  fields: {
    name: text("Name", { required: true, filter: true }),
    email: email("Email", { filter: true }),
    phoneNumber: text("Phone Number", { filter: true, rules: [phoneNumber] }),
    type: text("Type", { filter: true }),
    message: longText("Message"),
    companyId: relation("Company", "companies"),
    status: enumOf("Status", { new: "New", in_progress: "In Progress", closed: "Closed" }, { filter: true, defaultValue: "new", required: true }),
  },
});
