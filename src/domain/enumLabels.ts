/**
 * The one label table of stored enum values (issue 37, item 16: "every enum shown through one label table"):
 * per table and column, the label a person reads. The browser's `enumLabel` (src/framework) answers from a
 * resource's declaration first, then from here; the server's reports read it here. A value nobody labelled
 * is not here, and the caller words it.
 */
import { ATTENDANCE_LABELS, CATEGORY_LABELS, CLASS_STATUS_LABELS, ENROLMENT_ACTION_LABELS, ENROLMENT_STATUS_LABELS, GANTRY_DIRECTION_LABELS } from "./attendance.ts";
import { CARD_TYPE_LABELS, DEPOSIT_STATUS_LABELS, INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS, RECEIPT_STATUS_LABELS } from "./finance/invoice.ts";
import { RATING_LABELS, REFUND_METHOD_LABELS, REFUND_STATUS_LABELS } from "./finance/refund.ts";
import { CREDIT_NOTE_STATUS_LABELS, CREDIT_NOTE_TYPE_LABELS } from "./finance/creditNote.ts";
import { PA_STATUS_LABELS } from "./finance/paymentAdviceStatus.ts";
import { REQUEST_STATUS_LABELS } from "./finance/workflow.ts";

type Labels = Readonly<Record<string, string>>;

export const ENUM_LABELS: Readonly<Record<string, Readonly<Record<string, Labels>>>> = {
  student_classes: { status: ENROLMENT_STATUS_LABELS, type: ENROLMENT_STATUS_LABELS, action: ENROLMENT_ACTION_LABELS },
  lessons_students: { type: ENROLMENT_STATUS_LABELS, status: ATTENDANCE_LABELS },
  gantry_records: { direction: GANTRY_DIRECTION_LABELS },
  classes: { classStatus: CLASS_STATUS_LABELS, classType: CATEGORY_LABELS, lessonType: CATEGORY_LABELS },
  request_transfer_classes: { transferClassStatus: REQUEST_STATUS_LABELS },
  suspensions: { suspensionStatus: REQUEST_STATUS_LABELS },
  withdrawals: { withdrawalStatus: REQUEST_STATUS_LABELS },
  payment_advices: { paymentStatus: PA_STATUS_LABELS },
  invoices: { invoiceStatus: INVOICE_STATUS_LABELS },
  receipts: { paymentMethod: PAYMENT_METHOD_LABELS, cardType: CARD_TYPE_LABELS, status: RECEIPT_STATUS_LABELS },
  invoice_payments: { paymentMethod: PAYMENT_METHOD_LABELS, cardType: CARD_TYPE_LABELS },
  deposits: { depositStatus: DEPOSIT_STATUS_LABELS },
  credit_notes: { creditNoteStatus: CREDIT_NOTE_STATUS_LABELS, type: CREDIT_NOTE_TYPE_LABELS },
  refunds: { refundStatus: REFUND_STATUS_LABELS, refundMethod: REFUND_METHOD_LABELS, rating: RATING_LABELS },
};

/** The label of a stored value, or undefined when the table does not label that column's value. */
export function storedValueLabel(table: string, column: string, value: unknown): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  return ENUM_LABELS[table]?.[column]?.[String(value)];
}
