import { GiftOutlined } from "@ant-design/icons";
import { defineResource, text, enumOf, relation, date } from "../src/framework/declare.ts";
import { STUDENTS_ONLY } from "./users.ts";

/** Spec part 2 §3 shows the column only (referralStattus, spelt so); these are the demo data's values. */
export const REFERRAL_STATUSES = { pending: "Pending", successful: "Successful", rewarded: "Rewarded", cancelled: "Cancelled" } as const;

/** A referral: the referrer, the referee, the subject, the status and the registration date. */
export const referrals = defineResource({
  table: "referrals",
  label: "Referral",
  singular: "Referral",
  icon: GiftOutlined,
  menu: "rewards",
  routes: { list: "/reward/referral", create: "/reward/referral/create", edit: "/reward/referral/:id/update" },
  softDelete: true,
  recordLabel: "referralCode",
  fields: {
    referralCode: text("Referral Code", { filter: true }),
    // A student refers another student (the demo data's referrals are between students).
    referrerId: relation("Referrer", "users", { required: true, labelField: "fullName", filter: true, where: STUDENTS_ONLY }),
    referreeId: relation("Referee", "users", { required: true, labelField: "fullName", filter: true, where: STUDENTS_ONLY }),
    subjectId: relation("Subject", "subjects", { filter: true }),
    companyId: relation("Company", "companies", { filter: true }),
    registrationDate: date("Registration Date", { filter: true }),
    referralStattus: enumOf("Status", REFERRAL_STATUSES, { required: true, filter: true, defaultValue: "pending" }),
  },
});
