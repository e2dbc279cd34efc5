import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text } from "../src/framework/declare.ts";

/**
 * Issue 39: screens over the ledger and the payment advices, not entities (the table names what Refine is told):
 * the overdue reminders of tomorrow with their Hold toggle, the ledger's export to accounting, and a student's or
 * family's statement (opened from the student's view).
 */
export const paymentReminders = defineResource({
  table: "payment_advices",
  name: "payment_reminders",
  label: "Payment Reminders",
  menu: "finance",
  routes: { list: "/finance/reminders" },
  deletable: false,
  exportable: false,
  fields: { id: text("Id") },
  pages: { list: lazyPage(() => import("../src/pages/finance/statements/RemindersPage.tsx")) },
  morePages: { "/finance/statement/:studentId": lazyPage(() => import("../src/pages/finance/statements/StatementPage.tsx")) },
});

export const ledgerExport = defineResource({
  table: "payment_advices",
  name: "ledger_export",
  label: "Accounting Export",
  menu: "finance",
  routes: { list: "/finance/ledger-export" },
  deletable: false,
  exportable: false,
  fields: { id: text("Id") },
  pages: { list: lazyPage(() => import("../src/pages/finance/statements/LedgerExportPage.tsx")) },
});
