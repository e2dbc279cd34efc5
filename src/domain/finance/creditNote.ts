/**
 * Credit notes (FINANCE.md §4 "Credit note", spec part 2 §3–5, §9): the figures, the statuses with their
 * labels and colours, the workflow moves and the right each needs, and the spec's messages.
 */
import type { Cents } from "../money.ts";
import { percentOfCents } from "./rounding.ts";
import type { GstPercent } from "./summary.ts";
import { actionableAt } from "./workflow.ts";

export type CreditNoteBase = { numberOfLesson: number; unitPriceOfClass: Cents } | { overpaidAmount: Cents };

/** The base is numberOfLesson × unitPriceOfClass for a suspension, or the overpaid amount; GST at the originating PA's rate, half up. */
export function creditNoteTotals(base: CreditNoteBase, gstPercent: GstPercent): { subTotal: Cents; gst: Cents; total: Cents } {
  const subTotal = "overpaidAmount" in base ? base.overpaidAmount : base.numberOfLesson * base.unitPriceOfClass;
  const gst = percentOfCents(subTotal, gstPercent * 100);
  return { subTotal, gst, total: subTotal + gst };
}

/**
 * The overpaid amount of a credit note for `cash` overpaid: net of GST (cash ÷ (1 + rate), to the cent), so
 * that the credit note's total equals the cash; where no cent gives exactly that total, the largest whose
 * total stays below it (money out never exceeds money in).
 */
export function overpaidNetOfGst(cash: Cents, gstPercent: GstPercent): Cents {
  if (cash <= 0) return 0;
  let net = Math.round((cash * 100) / (100 + gstPercent));
  const total = (n: Cents) => creditNoteTotals({ overpaidAmount: n }, gstPercent).total;
  while (net > 0 && total(net) > cash) net -= 1;
  while (total(net + 1) <= cash) net += 1;
  return net;
}

export const CREDIT_NOTE_TYPES = ["suspension", "overpaid"] as const;
export type CreditNoteType = (typeof CREDIT_NOTE_TYPES)[number];
export const CREDIT_NOTE_TYPE_LABELS: Record<CreditNoteType, string> = { suspension: "Suspension", overpaid: "Overpaid" };

export const CREDIT_NOTE_STATUSES = [
  "awaiting_front_desk_action",
  "awaiting_finance_action",
  "awaiting_finance_approval",
  "issued",
  "rejected",
  "voided",
  "used",
] as const;
export type CreditNoteStatus = (typeof CREDIT_NOTE_STATUSES)[number];

/** Spec part 2 §4 colours (light purple, pink, blue, blue, red, grey, orange) as antd tag colours. */
export const CREDIT_NOTE_STATUS_COLOURS: Record<CreditNoteStatus, string> = {
  awaiting_front_desk_action: "purple",
  awaiting_finance_action: "magenta",
  awaiting_finance_approval: "blue",
  issued: "blue",
  rejected: "red",
  voided: "default",
  used: "orange",
};

/** The action rights of FINANCE.md §5 a credit-note call may ask (api:/actions/credit-note/<right>). */
export const CREDIT_NOTE_RIGHTS = ["complete-front-desk", "fill-fees", "duplicate", "create-overpaid", "approve", "reject", "void"] as const;
export type CreditNoteRight = (typeof CREDIT_NOTE_RIGHTS)[number];

/**
 * The moves of the workflow through `PATCH /credit-notes/change-status-credit-note/{id}`, each with the right
 * it needs. `used` is reached only by a payment; a new note starts where its type says (suspension: front desk).
 */
export const CREDIT_NOTE_MOVES: ReadonlyArray<{ from: CreditNoteStatus; to: CreditNoteStatus; right: CreditNoteRight; label: string }> = [
  { from: "awaiting_front_desk_action", to: "awaiting_finance_action", right: "complete-front-desk", label: "Send to Finance" },
  { from: "awaiting_finance_action", to: "awaiting_finance_approval", right: "fill-fees", label: "Submit for Approval" },
  { from: "awaiting_finance_approval", to: "awaiting_finance_action", right: "reject", label: "Return to Finance" },
  { from: "awaiting_finance_approval", to: "issued", right: "approve", label: "Approve" },
  { from: "awaiting_finance_approval", to: "rejected", right: "reject", label: "Reject" },
  { from: "issued", to: "voided", right: "void", label: "Void" },
];

export function creditNoteMove(from: string, to: string) {
  return CREDIT_NOTE_MOVES.find((m) => m.from === from && m.to === to) ?? null;
}

/** The moves open from a status (the buttons, before the caller's rights filter them). */
export function creditNoteMovesFrom(from: string) {
  return CREDIT_NOTE_MOVES.filter((m) => m.from === from);
}

/** A credit note's screen offers the user an action: a move, or Duplicate of a rejected or voided note (the server's `canDuplicate`). */
export function creditNoteActionable(status: string, rights: ReadonlySet<CreditNoteRight>): boolean {
  return actionableAt(CREDIT_NOTE_MOVES, status, rights) || (rights.has("duplicate") && (status === "rejected" || status === "voided"));
}

/**
 * Why an issued credit note may not be voided, or null where it may (FINANCE.md §4): what was used of it stays
 * used; an overpaid note holds money the student paid; a note whose PA was voided since holds the student's credit
 * (that void already took its lessons out of the sale). The server refuses a void with this message, and the
 * screen, from the moves the server answers, offers no Void.
 */
export function creditNoteVoidRefusal(n: { type: CreditNoteType; usedAmount: Cents; paymentAdviceStatus: string | null }): string | null {
  if (n.usedAmount > 0) return CREDIT_NOTE_MESSAGES.moveNotAllowed;
  if (n.type === "overpaid") return CREDIT_NOTE_MESSAGES.overpaidNotVoided;
  if (n.paymentAdviceStatus === "voided") return CREDIT_NOTE_MESSAGES.paVoidedNotVoided;
  return null;
}

/** Who edits what, by status: front desk the class and period, finance the fees; nothing once it left finance. */
export function creditNoteEditStep(status: string): "front-desk" | "finance" | null {
  if (status === "awaiting_front_desk_action") return "front-desk";
  if (status === "awaiting_finance_action") return "finance";
  return null;
}

/** Which role waits on a status: the "waiting for me" filter and the menu counts. */
export const CREDIT_NOTE_WAITING_ON: Partial<Record<CreditNoteStatus, CreditNoteRight>> = {
  awaiting_front_desk_action: "complete-front-desk",
  awaiting_finance_action: "fill-fees",
  awaiting_finance_approval: "approve",
};

/** Spec part 2 §5 (credit note required fields) and the messages of our calls. */
export const CREDIT_NOTE_MESSAGES = {
  student: "Please select student!",
  class: "Please select class!",
  suspensionPeriod: "Please select suspension period!",
  termName: "Please select termName!",
  startDate: "Please select start date!",
  endDate: "Please select end date!",
  lessonIds: "Please select start date!",
  receipt: "Please select receipt no.!",
  overpaidAmount: "Please fill in overpaid amount!",
  numberOfLesson: "Please fill in no. of lesson!",
  reason: "Please fill in reason!",
  notOverpaid: "This receipt's invoice is not overpaid.",
  alreadyCredited: "An overpaid credit note was already made from this invoice.",
  notFound: "Credit note not found.",
  notEditable: "This credit note can no longer be edited.",
  moveNotAllowed: "This credit note cannot move to that status.",
  overpaidNotVoided: "An overpaid credit note holds money the student paid: it cannot be voided. Use it as payment or refund it.",
  paVoidedNotVoided: "The payment advice this credit note credits was voided: its credit is the student's money, so it cannot be voided. Use it as payment or refund it.",
  notEnrolled: "The student is not enrolled in this class.",
  noLessons: "The student has no lessons to suspend in this period.",
  alreadySuspended: "The student is already suspended in this class for part of this period.",
  receiptNotOfStudent: "This receipt is not one of the student's.",
  numberOfLessonTooMany: "The number of lessons cannot be more than the lessons suspended.",
  overpaidTooMuch: "The overpaid amount cannot be more than the receipt's amount.",
  duplicateTooEarly: "A credit note can be duplicated once front desk has completed it.",
  duplicateLive: "Only a rejected or voided credit note can be duplicated: this suspension already has a live credit note for the class.",
  alreadyLive: "This suspension already has another live credit note for the class: approve one only.",
  fourEyes: "You filled in this credit note's fees: another finance manager must approve it (four eyes).",
  stale: "This record was changed by someone else. Reload to see the latest.",
} as const;


/** `GET /credit-notes/{id}`: the credit-note screen's data in one read (moves: what the caller may do next). */
/** What a credit note's move checks (server and page alike); `lessonCount` undefined: not known yet (the page). */
export interface CreditNoteMoveFields {
  type: CreditNoteType;
  classId?: string | null;
  termName?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  lessonCount?: number;
  receiptId?: string | null;
  numberOfLesson?: number | null;
  overpaidAmount?: Cents | null;
  reason?: string | null;
}

/**
 * What a move needs filled in before it is made (spec part 2 §5 messages), by field. The page checks the same
 * before it asks to confirm the step; the server checks again on the saved note.
 */
export function creditNoteMoveErrors(n: CreditNoteMoveFields, to: CreditNoteStatus): Record<string, string> {
  const e: Record<string, string> = {};
  if (to === "awaiting_finance_action" && n.type === "suspension") {
    if (!n.classId) e.classId = CREDIT_NOTE_MESSAGES.class;
    if (!n.termName) e.termName = CREDIT_NOTE_MESSAGES.termName;
    if (!n.startDate) e.startDate = CREDIT_NOTE_MESSAGES.startDate;
    if (!n.endDate) e.endDate = CREDIT_NOTE_MESSAGES.endDate;
    if (n.lessonCount === 0) e.lessonIds = CREDIT_NOTE_MESSAGES.lessonIds;
  }
  if (to === "awaiting_finance_approval") {
    if (!n.receiptId) e.receiptId = CREDIT_NOTE_MESSAGES.receipt;
    if (n.type === "suspension" && !((n.numberOfLesson ?? 0) >= 1)) e.numberOfLesson = CREDIT_NOTE_MESSAGES.numberOfLesson;
    if (n.type === "overpaid" && !((n.overpaidAmount ?? 0) > 0)) e.overpaidAmount = CREDIT_NOTE_MESSAGES.overpaidAmount;
    if (!n.reason?.trim()) e.reason = CREDIT_NOTE_MESSAGES.reason;
  }
  return e;
}

export interface CreditNoteDetail {
  id: string;
  name: string | null;
  type: CreditNoteType;
  creditNoteStatus: CreditNoteStatus;
  reason: string | null;
  remarks: string | null;
  gst: GstPercent;
  summary: { subTotal: string; gst: string; total: string } | null;
  usedAmount: string;
  approvedAt: string | null;
  approver: { id: string; fullName: string | null } | null;
  student: { id: string; fullName: string | null; username: string | null } | null;
  companyId: string;
  paymentAdviceId: string | null;
  suspensionId: string | null;
  creditNoteClass: { classId: string | null; className: string | null; termId: string | null; termName: string | null; startDate: string | null; endDate: string | null; lessonIds: string[] } | null;
  creditNoteFee: { numberOfLesson: number | null; overpaidAmount: string | null; unitPriceOfClass: string | null; receiptId: string | null; receiptName: string | null } | null;
  /** Receipts offered by the receipt select: the class's (suspension) or all the student's (overpaid). */
  receipts: Array<{ id: string; name: string; amount: string; receiptDate: string }>;
  /** The student's issued credit notes (spec: credit note list, name and amount). */
  issuedCreditNotes: Array<{ id: string; name: string; amount: string }>;
  /** The student's latest transfer request touching the class (the transfer information card). */
  transfer: { fromClassName: string | null; toClassName: string | null; transferClassStatus: string; lessonStartDate: string | null } | null;
  moves: Array<{ to: CreditNoteStatus; label: string }>;
  editStep: "front-desk" | "finance" | null;
  /** The caller may duplicate it (finance; not before front desk completed it). */
  canDuplicate: boolean;
  createdAt: string;
  updatedAt: string;
}

/** `GET /credit-notes/get-class-information-for-credit-note`: the class block's choices for a student, class and period. */
export interface CreditNoteClassInformation {
  className: string;
  terms: Array<{ id: string; name: string; startDate: string; endDate: string }>;
  termId: string | null;
  termName: string | null;
  startDate: string | null;
  endDate: string | null;
  lessons: Array<{ id: string; date: string }>;
  lessonIds: string[];
  numberOfLesson: number;
  unitPrice: string;
  gst: GstPercent;
}
