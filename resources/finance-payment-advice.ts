import { lazy } from "react";
import { defineResource, text, enumOf, relation, date } from "../src/framework/declare.ts";
import { labelsOf } from "../src/domain/enumLabels.ts";

/**
 * Payment advices (issue 14): every screen is hand-written — the list (also at /finance), the builder
 * (create, edit), the printable paper and a log row's detail page. Figures and statuses change only
 * through the server's finance calls; the fields here name what the list filters and shows.
 */
export const paymentAdvices = defineResource({
  table: "payment_advices",
  label: "Payment Advice",
  singular: "Payment Advice",
  menu: "finance",
  routes: { list: "/finance/payment-advice", create: "/finance/payment-advice/create", edit: "/finance/payment-advice/edit/:id", show: "/finance/payment-advice/paper/:id" },
  softDelete: true,
  fields: {
    name: text("PA No."),
    paymentStatus: enumOf("Status", labelsOf("payment_advices", "paymentStatus")),
    companyId: relation("Company", "companies"),
    branchId: relation("Branch", "branches"),
    studentId: relation("Student", "users", { labelField: "fullName" }),
    issueDate: date("Issue Date"),
    dueDate: date("Due Date"),
  },
  pages: {
    list: lazy(() => import("../src/pages/finance/PaymentAdviceListPage.tsx")),
    create: lazy(() => import("../src/pages/finance/PaymentAdviceBuilderPage.tsx")),
    edit: lazy(() => import("../src/pages/finance/PaymentAdviceBuilderPage.tsx")),
    show: lazy(() => import("../src/pages/finance/PaymentAdvicePaperPage.tsx")),
  },
  morePages: {
    "/finance": lazy(() => import("../src/pages/finance/PaymentAdviceListPage.tsx")),
    "/finance/payment-advice/logs/:id": lazy(() => import("../src/pages/finance/PaymentAdviceLogPage.tsx")),
  },
});
