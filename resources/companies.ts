import { BankOutlined } from "@ant-design/icons";
import { defineResource, text, longText, boolean, richText, image } from "../src/framework/declare.ts";
import { phoneNumber } from "../src/domain/validators.ts";
import { colourCodeProblem, gstRegNoProblem, payNowUenProblem, uenProblem } from "../src/domain/companies.ts";

/** A company of the group: its legal details, GST registration, colour and payment-advice notes; saved through the spec's REST calls. */
export const companies = defineResource({
  table: "companies",
  label: "Companies",
  singular: "Company",
  icon: BankOutlined,
  menu: "companies",
  routes: { list: "/company", create: "/company/create", edit: "/company/:companyId/update" },
  softDelete: true,
  restWrites: { create: "/companies", update: "/companies/:id" },
  fields: {
    logoUrl: image("Logo", { folder: "companies" }),
    name: text("Company Name", { required: true, filter: true }),
    shortName: text("Short Name", { required: true, filter: true }),
    uen: text("UEN", { required: true, filter: true, rules: [uenProblem] }),
    payNowUen: text("PayNow UEN", { list: false, rules: [payNowUenProblem], help: "The UEN parents pay into by PayNow, when it is not the company's UEN. Leave blank to use the UEN." }),
    address: longText("Address", { list: false }),
    telNo: text("Telephone No.", { rules: [phoneNumber] }),
    hasGstNo: boolean("GST Registered", { filter: true }),
    gstRefNo: text("GST Reg. No.", { rules: [gstRegNoProblem], help: "Required when the company is GST registered." }),
    colorCode: text("Colour Code", { placeholder: "#1677ff", list: false, rules: [colourCodeProblem] }),
    paNotes: richText("PA Notes"),
  },
});
