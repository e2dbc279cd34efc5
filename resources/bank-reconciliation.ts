import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text } from "../src/framework/declare.ts";

/**
 * Bank statement reconciliation (issue 35): not an entity but a screen (src/pages/finance/bankReconciliation)
 * over the server's statement lines; the table names what it makes for Refine: receipts.
 */
export const bankReconciliation = defineResource({
  table: "receipts",
  name: "bank_reconciliation",
  label: "Bank Reconciliation",
  menu: "finance",
  routes: { list: "/finance/bank-reconciliation" },
  deletable: false,
  exportable: false,
  fields: { id: text("Id") },
  pages: { list: lazyPage(() => import("../src/pages/finance/bankReconciliation/BankReconciliationPage.tsx")) },
});
