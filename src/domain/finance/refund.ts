/**
 * Refunds (FINANCE.md §4 "Refund", spec part 2 §3–4): the per-class and total figures, the statuses with
 * labels and colours, the workflow moves with the right each needs, refund methods and ratings.
 */
import type { Cents } from "../money.ts";
import { percentOfCents } from "./rounding.ts";
import type { GstPercent } from "./summary.ts";

export interface RefundClassInput {
  unitPrice: Cents;
  leftLessonNo: number;
  oweLessonNo: number;
  deduction: Cents;
  otherPayments: readonly { name: string; amount: Cents }[];
  /** The originating PA's GST rate. */
  gstPercent: GstPercent;
}

export interface RefundClassFigures {
  leftLessonAmount: Cents;
  oweAmount: Cents;
  gst: Cents;
  otherPayments: Cents;
  amount: Cents;
}

/**
 * leftLessonAmount = leftLessonNo × unitPrice; GST at the PA's rate on (leftLessonAmount − owed lessons);
 * amount = leftLessonAmount − oweLessonNo × unitPrice − deduction + Σ otherPayments + that GST.
 */
export function refundClassFigures(c: RefundClassInput): RefundClassFigures {
  const leftLessonAmount = c.leftLessonNo * c.unitPrice;
  const oweAmount = c.oweLessonNo * c.unitPrice;
  const gst = percentOfCents(leftLessonAmount - oweAmount, c.gstPercent * 100);
  const otherPayments = c.otherPayments.reduce((s, p) => s + p.amount, 0);
  return { leftLessonAmount, oweAmount, gst, otherPayments, amount: leftLessonAmount - oweAmount - c.deduction + otherPayments + gst };
}

/** Refund total = Σ class amounts + Σ what is left of the included issued credit notes + Σ included paid deposits. */
export function refundTotals(classes: readonly RefundClassInput[], creditNotes: readonly Cents[], deposits: readonly Cents[]) {
  const classAmount = classes.reduce((s, c) => s + refundClassFigures(c).amount, 0);
  const creditNoteAmount = creditNotes.reduce((s, a) => s + a, 0);
  const depositAmount = deposits.reduce((s, a) => s + a, 0);
  return { classAmount, creditNoteAmount, depositAmount, total: classAmount + creditNoteAmount + depositAmount };
}

export const REFUND_STATUSES = ["awaiting_front_desk_action", "awaiting_sale_action", "awaiting_finance_approval", "rejected_by_sale", "rejected_by_finance", "refunded"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/** Colours are not given by the spec: the credit note's tones for the same steps (docs/DECISIONS.md). */
export const REFUND_STATUS_COLOURS: Record<RefundStatus, string> = {
  awaiting_front_desk_action: "purple",
  awaiting_sale_action: "gold",
  awaiting_finance_approval: "blue",
  rejected_by_sale: "red",
  rejected_by_finance: "red",
  refunded: "green",
};

/** Spec part 2 §3 refund method labels (stored as written) and ratings. */
export const REFUND_METHODS = ["pay now", "cheque", "interbank transfer", "no refund fee"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
/** The spec's labels, word for word (part 2 §3). */
export const REFUND_METHOD_LABELS: Record<RefundMethod, string> = { "pay now": "pay now", cheque: "cheque", "interbank transfer": "interbank transfer", "no refund fee": "no refund fee" };
export const RATINGS = ["great", "good", "average", "not good"] as const;
export type Rating = (typeof RATINGS)[number];
/** The spec lists the ratings as stored values, not labels (unlike the refund methods): they read as words. */
export const RATING_LABELS: Record<Rating, string> = { great: "Great", good: "Good", average: "Average", "not good": "Not Good" };

export const REFUND_RIGHTS = ["complete-front-desk", "sales-step", "approve", "reject"] as const;
export type RefundRight = (typeof REFUND_RIGHTS)[number];

/** The moves of `PATCH /refund/{id}/change-refund-status`, each with its right (FINANCE.md §4–5). */
export const REFUND_MOVES: ReadonlyArray<{ from: RefundStatus; to: RefundStatus; right: RefundRight; label: string }> = [
  { from: "awaiting_front_desk_action", to: "awaiting_sale_action", right: "complete-front-desk", label: "Send to Sales" },
  { from: "awaiting_sale_action", to: "awaiting_finance_approval", right: "sales-step", label: "Send to Finance" },
  { from: "awaiting_sale_action", to: "rejected_by_sale", right: "sales-step", label: "Reject" },
  { from: "awaiting_finance_approval", to: "refunded", right: "approve", label: "Approve & Refund" },
  { from: "awaiting_finance_approval", to: "rejected_by_finance", right: "reject", label: "Reject" },
];

export function refundMove(from: string, to: string) {
  return REFUND_MOVES.find((m) => m.from === from && m.to === to) ?? null;
}
export function refundMovesFrom(from: string) {
  return REFUND_MOVES.filter((m) => m.from === from);
}

/** What may be edited, by status: front desk the classes and dates, sales the feedback, finance the payee. */
export function refundEditStep(status: string): RefundRight | null {
  if (status === "awaiting_front_desk_action") return "complete-front-desk";
  if (status === "awaiting_sale_action") return "sales-step";
  if (status === "awaiting_finance_approval") return "approve";
  return null;
}

export const REFUND_MESSAGES = {
  student: "Please select student!",
  class: "Please select class!",
  lastLessonDate: "Please select the last lesson date!",
  noticeDate: "Please select the notice date!",
  reason: "Please fill in reason!",
  notEnrolled: "The student is not enrolled in this class.",
  alreadyWithdrawn: "The student already has a withdrawal for this class.",
  notFound: "Refund not found.",
  notEditable: "This refund cannot be changed at this step.",
  moveNotAllowed: "This refund cannot move to that status.",
  feedbackRequired: "Please record the student's feedback and rating first.",
  payeeRequired: "Please fill in the payee details and the refund method.",
  reasonRejectRequired: "Please fill in the reason for rejecting.",
  creditNoteUnknown: "Only the student's issued credit notes can be included.",
  depositUnknown: "Only the student's paid deposits can be included.",
  negative: "The refund total cannot be negative.",
  fourEyes: "You filled in this refund's fees: another finance manager must approve it (four eyes).",
  stale: "This record was changed by someone else. Reload to see the latest.",
} as const;

/** What a refund's move checks (server and page alike); `total` undefined: not known yet (the page). */
export interface RefundMoveFields {
  noticeDate?: string | null;
  /** Each class's last lesson date. */
  lastLessonDates: ReadonlyArray<string | null | undefined>;
  reason?: string | null;
  feedback?: string | null;
  rating?: string | null;
  reasonReject?: string | null;
  payeeName?: string | null;
  refundMethod?: string | null;
  total?: Cents;
}

/**
 * What a move needs filled in before it is made, by field. The page checks the same before it asks to confirm
 * the step; the server checks again on the saved refund.
 */
export function refundMoveErrors(r: RefundMoveFields, to: RefundStatus): Record<string, string> {
  const e: Record<string, string> = {};
  if (to === "awaiting_sale_action") {
    if (!r.noticeDate) e.noticeDate = REFUND_MESSAGES.noticeDate;
    if (!r.lastLessonDates.length || r.lastLessonDates.some((d) => !d)) e.lastLessonDate = REFUND_MESSAGES.lastLessonDate;
    if (!r.reason?.trim()) e.reason = REFUND_MESSAGES.reason;
  }
  if (to === "awaiting_finance_approval" && (!r.feedback?.trim() || !r.rating)) e.studentFeedback = REFUND_MESSAGES.feedbackRequired;
  if ((to === "rejected_by_sale" || to === "rejected_by_finance") && !r.reasonReject?.trim()) e.reasonReject = REFUND_MESSAGES.reasonRejectRequired;
  if (to === "refunded") {
    if (!r.payeeName?.trim() || !r.refundMethod) e.payeeDetails = REFUND_MESSAGES.payeeRequired;
    if (r.total !== undefined && r.total < 0) e.total = REFUND_MESSAGES.negative;
  }
  return e;
}

export interface RefundClassRecord {
  id: string;
  classId: string | null;
  className: string | null;
  receiptId: string | null;
  receiptName: string | null;
  unitPrice: string;
  lastLessonDate: string | null;
  leftLessonNo: number;
  leftLessonAmount: string;
  oweLessonNo: number;
  deduction: string;
  otherPayments: Array<{ name: string; amount: string }>;
  gstPercent: GstPercent;
  gst: string;
  amount: string;
  receipts: Array<{ id: string; name: string; amount: string; receiptDate: string }>;
}

/** `GET /refund/{id}`: the refund screen's data in one read (moves and editStep: what the caller may do). */
export interface RefundDetail {
  id: string;
  name: string | null;
  type: "withdrawal";
  refundStatus: RefundStatus;
  refundMethod: RefundMethod | null;
  rating: Rating | null;
  reason: string | null;
  reasonReject: string | null;
  noticeDate: string | null;
  issuedBy: { id: string; fullName: string | null } | null;
  payeeDetails: { name?: string; bankName?: string; accountNo?: string; contact?: string } | null;
  studentFeedback: { feedback?: string } | null;
  summary: { classAmount: string; creditNoteAmount: string; depositAmount: string; total: string } | null;
  student: { id: string; fullName: string | null; username: string | null } | null;
  companyId: string;
  withdrawalId: string | null;
  classes: RefundClassRecord[];
  creditNoteIds: string[];
  depositIds: string[];
  /** The student's issued credit notes and paid deposits that may be included (and those already included). */
  creditNoteChoices: Array<{ id: string; name: string; amount: string }>;
  depositChoices: Array<{ id: string; name: string; amount: string }>;
  moves: Array<{ to: RefundStatus; label: string }>;
  editStep: RefundRight | null;
  updatedAt: string;
  createdAt: string;
}

/** Which right each open step waits on: the "waiting for me" filter. */
export const REFUND_WAITING_ON: Partial<Record<RefundStatus, RefundRight>> = {
  awaiting_front_desk_action: "complete-front-desk",
  awaiting_sale_action: "sales-step",
  awaiting_finance_approval: "approve",
};
