/**
 * The one label table of stored enum values (issue 37, item 16: "every enum shown through one label table"):
 * per table and column, the label a person reads. The browser's `enumLabel` (src/framework) answers from a
 * resource's declaration first, then from here; the server's reports read it here. A value nobody labelled
 * is not here, and the caller words it.
 */
import { ATTENDANCE_LABELS, CATEGORY_LABELS, CLASS_STATUS_LABELS, ENROLMENT_ACTION_LABELS, ENROLMENT_STATUS_LABELS, GANTRY_DIRECTION_LABELS } from "./attendance.ts";
import { CARD_TYPE_LABELS, DEPOSIT_STATUS_LABELS, INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS, RECEIPT_STATUS_LABELS } from "./finance/invoice.ts";
import { RATING_LABELS, REFUND_METHOD_LABELS, type RefundStatus } from "./finance/refund.ts";
import { CREDIT_NOTE_TYPE_LABELS, type CreditNoteStatus } from "./finance/creditNote.ts";
import type { PaStatus } from "./finance/paymentAdviceStatus.ts";
import { REQUEST_STATUS_LABELS } from "./finance/workflow.ts";

type Labels = Readonly<Record<string, string>>;

/** Spec part 2 §4 pill labels; overdue is derived from the due date, never stored, and shown as any other. */
const PA_STATUS: Record<PaStatus, string> = {
  draft: "Draft",
  overdue: "OverDue",
  paid: "Paid",
  unpaid: "UnPaid",
  voided: "Voided",
  overpaid: "OverPaid",
  withdrawn: "Withdrawn",
};
/** Spec part 2 §4: the credit note's seven labels. */
const CREDIT_NOTE_STATUS: Record<CreditNoteStatus, string> = {
  awaiting_front_desk_action: "Awaiting Front Desk Action",
  awaiting_finance_action: "Awaiting Finance Action",
  awaiting_finance_approval: "Awaiting Finance Approval",
  issued: "Issued",
  rejected: "Rejected",
  voided: "Voided",
  used: "Used",
};
const REFUND_STATUS: Record<RefundStatus, string> = {
  awaiting_front_desk_action: "Awaiting Front Desk Action",
  awaiting_sale_action: "Awaiting Sale Action",
  awaiting_finance_approval: "Awaiting Finance Approval",
  rejected_by_sale: "Rejected By Sale",
  rejected_by_finance: "Rejected By Finance",
  refunded: "Refunded",
};
/** Spec part 1 §3 user statuses (staff and students alike); deleted is soft deletion, never offered. */
const USER_STATUS: Labels = {
  active: "Active",
  locked: "Locked",
  pending: "Pending",
  disabled: "Disabled",
  inactive: "Inactive",
  draft: "Draft",
};

export const ENUM_LABELS: Readonly<Record<string, Readonly<Record<string, Labels>>>> = {
  student_classes: { status: ENROLMENT_STATUS_LABELS, type: ENROLMENT_STATUS_LABELS, action: ENROLMENT_ACTION_LABELS },
  lessons_students: { type: ENROLMENT_STATUS_LABELS, status: ATTENDANCE_LABELS },
  gantry_records: { direction: GANTRY_DIRECTION_LABELS },
  classes: { classStatus: CLASS_STATUS_LABELS, classType: CATEGORY_LABELS, lessonType: CATEGORY_LABELS },
  request_transfer_classes: { transferClassStatus: REQUEST_STATUS_LABELS },
  suspensions: { suspensionStatus: REQUEST_STATUS_LABELS },
  withdrawals: { withdrawalStatus: REQUEST_STATUS_LABELS },
  payment_advices: { paymentStatus: PA_STATUS },
  invoices: { invoiceStatus: INVOICE_STATUS_LABELS },
  receipts: { paymentMethod: PAYMENT_METHOD_LABELS, cardType: CARD_TYPE_LABELS, status: RECEIPT_STATUS_LABELS },
  invoice_payments: { paymentMethod: PAYMENT_METHOD_LABELS, cardType: CARD_TYPE_LABELS },
  deposits: { depositStatus: DEPOSIT_STATUS_LABELS },
  credit_notes: { creditNoteStatus: CREDIT_NOTE_STATUS, type: CREDIT_NOTE_TYPE_LABELS },
  refunds: { refundStatus: REFUND_STATUS, refundMethod: REFUND_METHOD_LABELS, rating: RATING_LABELS },
  users: { status: USER_STATUS },
};

/** "shortName" → "Short Name", "uen" → "Uen", "gstRefNo" → "Gst Ref No": a name nobody labelled, in words. */
export function humanize(name: string): string {
  const words = name.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" ").filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
}

/** A column's labels, value → words, in the table's order (a filter's or a form's options); empty when it has none. */
export const labelsOf = (table: string, column: string): Labels => ENUM_LABELS[table]?.[column] ?? {};

/** The label of a stored value, or undefined when the table does not label that column's value. */
export function storedValueLabel(table: string, column: string, value: unknown): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  return ENUM_LABELS[table]?.[column]?.[String(value)];
}

/** The label of a stored value the table labels, else the value itself (a report or paper prints one of the two). */
export const valueLabel = (table: string, column: string, value: string | null): string => storedValueLabel(table, column, value) ?? value ?? "";
