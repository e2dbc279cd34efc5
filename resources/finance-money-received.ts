import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text, money, date, enumOf, relation } from "../src/framework/declare.ts";
import { CARD_TYPE_LABELS, DEPOSIT_STATUS_LABELS, INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS, RECEIPT_STATUS_LABELS } from "../src/domain/finance/invoice.ts";

/**
 * Invoices (issue 15): one per issued payment advice, paid by payments that each carry a receipt. Lists are
 * generated; the invoice page (payments, record payment, void) is hand-written. Money and statuses change
 * only through the server's finance calls — nothing here is editable.
 */
export const invoices = defineResource({
  table: "invoices",
  label: "Invoice",
  singular: "Invoice",
  menu: "finance",
  routes: { list: "/finance/invoice", show: "/finance/invoice/:id/:invoiceId" },
  routeFields: { id: "paymentAdviceId" },
  softDelete: true,
  deletable: false,
  dense: true,
  defaultSort: { field: "invoiceDate", order: "desc" },
  fields: {
    name: text("Invoice No.", { filter: true }),
    invoiceDate: date("Invoice Date", { filter: true, sortable: true }),
    paymentAdviceId: relation("Payment Advice", "payment_advices", { labelField: "name" }),
    studentId: relation("Student", "users", { labelField: "fullName" }),
    total: money("Total"),
    paidAmount: money("Amount Received"),
    invoiceStatus: enumOf("Status", INVOICE_STATUS_LABELS, { filter: true }),
    companyId: relation("Company", "companies", { filter: true }),
  },
  pages: { show: lazyPage(() => import("../src/pages/finance/invoices/InvoicePage.tsx")) },
});

/** Receipts: one per payment; printable, with a PDF. Voided ones stay listed with their status. */
export const receipts = defineResource({
  table: "receipts",
  label: "Receipt",
  singular: "Receipt",
  menu: "finance",
  routes: { list: "/finance/receipt", show: "/finance/receipt/:id/:receiptId" },
  routeFields: { id: "invoiceId" },
  softDelete: true,
  deletable: false,
  dense: true,
  defaultSort: { field: "receiptDate", order: "desc" },
  fields: {
    name: text("Receipt No.", { filter: true }),
    receiptDate: date("Receipt Date", { filter: true, sortable: true }),
    amount: money("Amount"),
    paymentMethod: enumOf("Payment Method", PAYMENT_METHOD_LABELS, { filter: true }),
    cardType: enumOf("Card Type", CARD_TYPE_LABELS),
    invoiceId: relation("Invoice", "invoices", { labelField: "name" }),
    studentId: relation("Student", "users", { labelField: "fullName" }),
    status: enumOf("Status", RECEIPT_STATUS_LABELS, { filter: true }),
    companyId: relation("Company", "companies", { filter: true }),
    branchId: relation("Branch", "branches", { filter: true }),
  },
  pages: { show: lazyPage(() => import("../src/pages/finance/invoices/ReceiptPaperPage.tsx")) },
});

/**
 * Deposits (issue 15 §3): every deposit a PA raised — issued with the PA, paid with it, used when deducted on a
 * later PA or refunded. Finance's list; the deposit report (/report/deposit) sums the same table.
 */
export const deposits = defineResource({
  table: "deposits",
  label: "Deposit",
  singular: "Deposit",
  menu: "finance",
  routes: { list: "/finance/deposit" },
  softDelete: true,
  deletable: false,
  dense: true,
  fields: {
    name: text("Deposit No.", { filter: true }),
    studentId: relation("Student", "users", { labelField: "fullName", filter: true, where: { type: { _eq: "student" } } }),
    paymentAdviceId: relation("Payment Advice", "payment_advices", { labelField: "name" }),
    classId: relation("Class", "classes"),
    amount: money("Amount"),
    depositStatus: enumOf("Status", DEPOSIT_STATUS_LABELS, { filter: true }),
    companyId: relation("Company", "companies", { filter: true }),
  },
});
