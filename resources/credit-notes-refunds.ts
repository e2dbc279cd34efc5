import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text, date, enumOf, money, relation } from "../src/framework/declare.ts";
import { CREDIT_NOTE_STATUS_COLOURS, CREDIT_NOTE_TYPE_LABELS } from "../src/domain/finance/creditNote.ts";
import { REFUND_STATUS_COLOURS } from "../src/domain/finance/refund.ts";
import { labelsOf } from "../src/domain/enumLabels.ts";
import { REQUEST_STATUS_LABELS } from "../src/domain/finance/workflow.ts";

/**
 * Suspensions, withdrawals, credit notes and refunds (issue 16): the lists are generated; every page that
 * changes something is hand-written and goes through the workflow's calls (POST /credit-notes, POST /refund,
 * their PUT/PATCH and change-status calls). Nothing here is editable over GraphQL.
 */
export const suspensions = defineResource({
  table: "suspensions",
  label: "Suspension",
  singular: "Suspension",
  menu: "students",
  routes: { list: "/suspension", show: "/suspension/detail/:id/view" },
  softDelete: true,
  deletable: false,
  fields: {
    studentId: relation("Student", "users", { labelField: "fullName", filter: true, where: { type: { _eq: "student" } } }),
    classId: relation("Class", "classes", { filter: true }),
    startDate: date("Start Date", { sortable: true }),
    endDate: date("End Date", { sortable: true }),
    reason: text("Reason"),
    suspensionStatus: enumOf("Status", REQUEST_STATUS_LABELS, { filter: true }),
  },
  pages: {
    list: lazyPage(() => import("../src/pages/workflows/SuspensionListPage.tsx")),
    show: lazyPage(() => import("../src/pages/workflows/SuspensionDetailPage.tsx")),
  },
  // a new suspension for a student (and one of their enrolments): made by POST /credit-notes, not a generated form
  morePages: {
    "/suspension/:id": lazyPage(() => import("../src/pages/workflows/SuspensionCreatePage.tsx")),
    "/suspension/:id/:studentInfoId": lazyPage(() => import("../src/pages/workflows/SuspensionCreatePage.tsx")),
  },
});

export const withdrawals = defineResource({
  table: "withdrawals",
  label: "Withdrawal",
  singular: "Withdrawal",
  menu: "students",
  routes: { list: "/withdrawal", show: "/withdrawal/view-withdrawal/:withdrawalId/detail" },
  softDelete: true,
  deletable: false,
  fields: {
    studentId: relation("Student", "users", { labelField: "fullName", filter: true, where: { type: { _eq: "student" } } }),
    classId: relation("Class", "classes", { filter: true }),
    withdrawalDate: date("Notice Date", { sortable: true }),
    lastLessonDate: date("Last Lesson Date", { sortable: true }),
    reason: text("Reason"),
    withdrawalStatus: enumOf("Status", REQUEST_STATUS_LABELS, { filter: true }),
  },
  pages: {
    list: lazyPage(() => import("../src/pages/workflows/WithdrawalListPage.tsx")),
    show: lazyPage(() => import("../src/pages/workflows/WithdrawalDetailPage.tsx")),
  },
  // a new withdrawal for a student (and one of their enrolments): made by POST /refund, not a generated form
  morePages: {
    "/withdrawal/:withdrawalId": lazyPage(() => import("../src/pages/workflows/WithdrawalCreatePage.tsx")),
    "/withdrawal/:withdrawalId/:studentInfoId": lazyPage(() => import("../src/pages/workflows/WithdrawalCreatePage.tsx")),
  },
});

export const creditNotes = defineResource({
  table: "credit_notes",
  label: "Credit Note",
  singular: "Credit Note",
  menu: "finance",
  routes: { list: "/finance/credit-note", edit: "/finance/credit-note/update/:creditNoteId", show: "/finance/credit-note/detail/:id" },
  softDelete: true,
  deletable: false,
  dense: true,
  fields: {
    name: text("Credit Note No.", { filter: true, whenEmpty: "Draft" }),
    type: enumOf("Type", CREDIT_NOTE_TYPE_LABELS, { filter: true }),
    studentId: relation("Student", "users", { labelField: "fullName", filter: true, where: { type: { _eq: "student" } } }),
    creditNoteStatus: enumOf("Status", labelsOf("credit_notes", "creditNoteStatus"), { filter: true, colours: CREDIT_NOTE_STATUS_COLOURS }),
    total: money("Total", { sortable: true }),
    reason: text("Reason"),
    companyId: relation("Company", "companies", { filter: true }),
  },
  pages: {
    list: lazyPage(() => import("../src/pages/workflows/CreditNoteListPage.tsx")),
    edit: lazyPage(() => import("../src/pages/workflows/CreditNotePage.tsx")),
    show: lazyPage(() => import("../src/pages/workflows/CreditNotePage.tsx")),
  },
  morePages: {
    "/finance/credit-note/update/sus/:id": lazyPage(() => import("../src/pages/workflows/CreditNotePage.tsx")),
    "/finance/credit-note/logs/:id": lazyPage(() => import("../src/pages/workflows/CreditNoteLogPage.tsx")),
  },
});

export const refunds = defineResource({
  table: "refunds",
  label: "Refund",
  singular: "Refund",
  menu: "finance",
  routes: { list: "/finance/refund", edit: "/finance/refund/:id" },
  softDelete: true,
  deletable: false,
  dense: true,
  fields: {
    name: text("Refund No.", { filter: true, whenEmpty: "Draft" }),
    studentId: relation("Student", "users", { labelField: "fullName", filter: true, where: { type: { _eq: "student" } } }),
    noticeDate: date("Notice Date", { sortable: true }),
    refundStatus: enumOf("Status", labelsOf("refunds", "refundStatus"), { filter: true, colours: REFUND_STATUS_COLOURS }),
    total: money("Total", { sortable: true }),
    reason: text("Reason"),
    companyId: relation("Company", "companies", { filter: true }),
  },
  pages: { list: lazyPage(() => import("../src/pages/workflows/RefundListPage.tsx")), edit: lazyPage(() => import("../src/pages/workflows/RefundPage.tsx")) },
  morePages: {
    "/finance/refund/refunded/:id": lazyPage(() => import("../src/pages/workflows/RefundVoucherPage.tsx")),
    "/finance/refund/logs/:id": lazyPage(() => import("../src/pages/workflows/RefundLogPage.tsx")),
  },
});
