/**
 * Payment advice statuses (spec part 2 §3–4, FINANCE.md §4): stored statuses, the derived Overdue, the
 * pill labels and colours, and the allowed transitions with the action that makes each.
 */
import { singaporeWallTimeToIso, type DateInput } from "../dates.ts";

export const PA_STATUSES = ["draft", "overdue", "paid", "unpaid", "voided", "overpaid", "withdrawn"] as const;
export type PaStatus = (typeof PA_STATUSES)[number];
/** Statuses the finance service stores; `overdue` is only ever shown (derived from the due date). */
export type StoredPaStatus = Exclude<PaStatus, "overdue">;

/** Pill colours (spec part 2 §4); overpaid is not named by the spec and shows as paid (money received). */
export const PA_STATUS_COLOURS: Record<PaStatus, "warning" | "brown" | "success" | "danger" | "primary"> = {
  draft: "warning",
  overdue: "brown",
  voided: "brown",
  paid: "success",
  overpaid: "success",
  unpaid: "danger",
  withdrawn: "primary",
};

/** The instant an unpaid PA becomes Overdue: 23:59:59 Asia/Singapore of its due day. */
export function overdueFrom(dueDate: string): string | null {
  return singaporeWallTimeToIso(dueDate, "23:59:59");
}

/** The status shown: an unpaid PA is Overdue from 23:59:59 (Singapore) of its due day on. */
export function displayPaStatus(paymentStatus: string, dueDate: string | null | undefined, now: DateInput = new Date()): PaStatus {
  const status = (PA_STATUSES as readonly string[]).includes(paymentStatus) ? (paymentStatus as PaStatus) : "draft";
  if (status !== "unpaid" || !dueDate) return status;
  const from = overdueFrom(dueDate);
  if (!from) return status;
  const at = now instanceof Date ? now.getTime() : typeof now === "number" ? now : new Date(typeof now === "string" ? now : now.toISOString()).getTime();
  return at >= Date.parse(from) ? "overdue" : "unpaid";
}

/** The actions that move a PA from one stored status to another. */
export type PaAction = "issue" | "record_payment" | "void_unpaid" | "void_paid" | "withdraw";

export const PA_TRANSITIONS: ReadonlyArray<{ from: StoredPaStatus; to: StoredPaStatus; action: PaAction }> = [
  { from: "draft", to: "unpaid", action: "issue" },
  { from: "unpaid", to: "paid", action: "record_payment" },
  { from: "unpaid", to: "overpaid", action: "record_payment" },
  { from: "paid", to: "overpaid", action: "record_payment" },
  { from: "unpaid", to: "voided", action: "void_unpaid" },
  { from: "paid", to: "voided", action: "void_paid" },
  { from: "overpaid", to: "voided", action: "void_paid" },
  { from: "unpaid", to: "withdrawn", action: "withdraw" },
];

export function canTransition(from: string, to: string, action?: PaAction): boolean {
  return PA_TRANSITIONS.some((t) => t.from === from && t.to === to && (action === undefined || t.action === action));
}

/** The status an action leads to from `from`, or null when the action is not allowed there. */
export function transitionTarget(from: string, action: Exclude<PaAction, "record_payment">): StoredPaStatus | null {
  return PA_TRANSITIONS.find((t) => t.from === from && t.action === action)?.to ?? null;
}

/**
 * The void a PA allows, as the server decides it (server/finance/paymentAdvices.ts): an unpaid PA with no money
 * received is voided as unpaid; a paid or overpaid one as paid; an unpaid PA with part payments by neither
 * (issue 37: the button is not offered where the server would refuse).
 */
export function paVoidAction(paymentStatus: string, amountReceived: number): "void_unpaid" | "void_paid" | null {
  if (transitionTarget(paymentStatus, "void_unpaid")) return amountReceived === 0 ? "void_unpaid" : null;
  return transitionTarget(paymentStatus, "void_paid") ? "void_paid" : null;
}

/** A draft is edited freely; an unpaid PA only while no payment was received on it. Nothing else is edited. */
export function isPaEditable(paymentStatus: string, amountReceived: number): boolean {
  return paymentStatus === "draft" || (paymentStatus === "unpaid" && amountReceived === 0);
}

/** Only drafts are deleted (soft delete). */
export function isPaDeletable(paymentStatus: string): boolean {
  return paymentStatus === "draft";
}

/** Messages of refused PA actions. */
export const PA_MESSAGES = {
  stale: "This record was changed by someone else. Reload to see the latest.",
  notFound: "Payment advice not found.",
  notEditable: "Only a draft, or an unpaid payment advice without payments, can be edited.",
  hasPayments: "This payment advice has payments and can no longer be edited: void it and issue a new one.",
  notDeletable: "Only a draft payment advice can be deleted.",
  notIssuable: "Only a draft payment advice can be issued.",
  notVoidableUnpaid: "Only an unpaid payment advice can be voided here.",
  notVoidablePaid: "Only a paid or overpaid payment advice can be voided here.",
  creditPending: "A credit note or refund from this payment advice's receipts is awaiting a decision: approve or reject it before voiding the payment advice.",
  reasonRequired: "Please fill in reason!",
  noClass: "Please add at least one class.",
  negativeTotal: "The total payable cannot be negative.",
} as const;
