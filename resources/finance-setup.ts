import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text, longText, number, enumOf, relation, date, money } from "../src/framework/declare.ts";

/** Spec part 2 §3 discount types, labelled. */
export const DISCOUNT_TYPES = {
  referral_discount: "Referral Discount",
  sibling_discount: "Sibling Discount",
  we_chat: "WeChat",
  power_pack: "Power Pack",
  exclusive_principal: "Exclusive Principal",
  full_annual_payment: "Full Annual Payment",
  semi_annual_payment: "Semi Annual Payment",
  off_subsequence_subject: "Off Subsequence Subject",
  super_early_bird_sign_up: "Super Early Bird Sign Up",
  early_bird_sign_up: "Early Bird Sign Up",
  make_the_switch: "Make The Switch",
} as const;

/**
 * A payment discount: type, amount and unit (S$ or %), validity dates, order, company. Created at
 * /finance/payment-discount/create/{order} (the order from the path); edited in a dialog on the list,
 * where the spec's update mutation changes the amount (and its unit), the dates and the description.
 */
export const discounts = defineResource({
  table: "discounts",
  label: "Payment Discount",
  singular: "Payment Discount",
  menu: "finance",
  routes: { list: "/finance/payment-discount", create: "/finance/payment-discount/create/:order" },
  nextNumberParam: "order",
  dialogs: ["edit"],
  softDelete: true,
  defaultSort: { field: "order", order: "asc" },
  fields: {
    order: number("Order", { required: true, min: 0, fromParam: "order", readOnly: true }),
    name: text("Discount Name", { required: true, filter: true, readOnly: true }),
    code: text("Code", { filter: true, readOnly: true }),
    type: enumOf("Discount Type", DISCOUNT_TYPES, { required: true, filter: true, readOnly: true }),
    amount: number("Amount", { required: true, min: 0, integer: false, unitField: "unit" }),
    unit: enumOf("Unit", { amount: "S$", percent: "%" }, { required: true, defaultValue: "amount" }),
    startDate: date("Start Date", { required: true, filter: true }),
    endDate: date("End Date", { required: true, notBefore: "startDate" }),
    companyId: relation("Company", "companies", { required: true, filter: true, readOnly: true }),
    description: longText("Description"),
  },
});

/** Price per lesson by academic calendar, programme type and company; edited in place on /finance/pricing. */
export const academicProgramTypePricings = defineResource({
  table: "academic_program_type_pricings",
  label: "Pricing",
  singular: "Pricing",
  menu: "finance",
  routes: { list: "/finance/pricing" },
  softDelete: true,
  deletable: false,
  fields: {
    academicCalendarId: relation("Academic Calendar", "academic_calendars", { filter: true }),
    programTypeId: relation("Programme Type", "program_types", { filter: true }),
    companyId: relation("Company", "companies", { filter: true }),
    pricePerLesson: money("Price per Lesson"),
  },
  pages: { list: lazyPage(() => import("../src/pages/finance-setup/PricingPage.tsx")) },
});

/** Price per student of a special class, by student type; edited in place on /finance/pricing. */
export const specialClassPricings = defineResource({
  table: "special_class_pricings",
  label: "Special Class Pricing",
  singular: "Special Class Pricing",
  menu: null,
  routes: {},
  softDelete: true,
  deletable: false,
  fields: {
    classId: relation("Class", "classes"),
    programId: relation("Programme", "programs"),
    companyId: relation("Company", "companies"),
    studentType: text("Student Type"),
    pricePerStudent: money("Price per Student"),
  },
});

/** System settings by type (fee, deposit, gst, payment), incl. the registration-fee waiver period. */
export const systemSettings = defineResource({
  table: "system_settings",
  label: "Payment Setting",
  singular: "Payment Setting",
  menu: "finance",
  routes: { list: "/finance/payment-setting" },
  softDelete: true,
  deletable: false,
  recordLabel: "key",
  fields: {
    key: text("Key"),
    type: text("Type"),
    companyId: relation("Company", "companies"),
  },
  pages: { list: lazyPage(() => import("../src/pages/finance-setup/PaymentSettingPage.tsx")) },
});
