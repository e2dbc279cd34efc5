import { lazyPage } from "../src/framework/routes.tsx";
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
    list: lazyPage(() => import("../src/pages/finance/PaymentAdviceListPage.tsx")),
    create: lazyPage(() => import("../src/pages/finance/PaymentAdviceBuilderPage.tsx")),
    edit: lazyPage(() => import("../src/pages/finance/PaymentAdviceBuilderPage.tsx")),
    show: lazyPage(() => import("../src/pages/finance/PaymentAdvicePaperPage.tsx")),
  },
  morePages: {
    "/finance": lazyPage(() => import("../src/pages/finance/PaymentAdviceListPage.tsx")),
    "/finance/payment-advice/logs/:id": lazyPage(() => import("../src/pages/finance/PaymentAdviceLogPage.tsx")),
  },
});
