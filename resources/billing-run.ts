import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text } from "../src/framework/declare.ts";

/**
 * The term billing run (issue 39): not an entity but a screen (src/pages/finance/billingRun) over the server's
 * billing-run calls; the table names what it makes for Refine: payment advices.
 */
export const billingRun = defineResource({
  table: "payment_advices",
  name: "billing_run",
  label: "Billing Run",
  menu: "finance",
  routes: { list: "/finance/billing-run" },
  deletable: false,
  exportable: false,
  fields: { id: text("Id") },
  pages: { list: lazyPage(() => import("../src/pages/finance/billingRun/BillingRunPage.tsx")) },
});
