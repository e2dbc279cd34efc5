/**
 * The bounds of FINANCE.md §1: an amount has at most two decimals (refused, never cut); a line is at most
 * S$1,000,000.00 and a document (or one payment) at most S$10,000,000.00 — well inside numeric(12,2), so a
 * figure never overflows a column; a payment is dated between the PA's issue date minus one year and today;
 * an issued class card bills at least one lesson at a price above zero.
 * One module for the server's schemas, its services and the browser's forms.
 */
import { formatMoney, type Cents } from "../money.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT, parseCalendarDay, DATE_FORMAT } from "../dates.ts";

export const MAX_LINE_CENTS: Cents = 100_000_000;
export const MAX_DOCUMENT_CENTS: Cents = 1_000_000_000;

export const BOUND_MESSAGES = {
  decimals: "Amounts have at most two decimals.",
  line: `A line may be at most ${formatMoney(MAX_LINE_CENTS)}.`,
  document: `A document may total at most ${formatMoney(MAX_DOCUMENT_CENTS)}.`,
  payment: `A payment may be at most ${formatMoney(MAX_DOCUMENT_CENTS)}.`,
  paymentDate: (from: string) => `The payment date must lie between ${formatCalendarDay(from, DISPLAY_DATE_FORMAT)} and today.`,
  classPrice: (className: string) => `The class "${className}" has no price per lesson; set its price before billing it.`,
  classLessons: (className: string) => `The class "${className}" bills no lesson; choose its terms or additional lessons.`,
} as const;

export type AmountParse = { ok: true; cents: Cents } | { ok: false; message: "invalid" | typeof BOUND_MESSAGES.decimals };

/**
 * A typed or sent amount (a decimal string such as "1,234.56" is not accepted: digits, one point, a sign;
 * or a JSON number) → integer cents. More than two decimals is refused, even when the extra digits are
 * zeros ("12.340"), so what is stored is exactly what was sent.
 */
export function parseAmount(value: string | number): AmountParse {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return { ok: false, message: "invalid" };
  if ((match[3] ?? "").length > 2) return { ok: false, message: BOUND_MESSAGES.decimals };
  const cents = Number(match[2] || "0") * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return { ok: false, message: "invalid" };
  return { ok: true, cents: match[1] === "-" && cents !== 0 ? -cents : cents };
}

/** The message when a line's amount is beyond the line maximum, else null. */
export const lineBoundError = (cents: Cents): string | null => (Math.abs(cents) > MAX_LINE_CENTS ? BOUND_MESSAGES.line : null);

/** The message when a document figure is beyond the document maximum, else null. */
export const documentBoundError = (cents: Cents): string | null => (Math.abs(cents) > MAX_DOCUMENT_CENTS ? BOUND_MESSAGES.document : null);

/** The days a payment on a PA issued on `issueDate` may carry: from one year before the issue date to today. */
export function paymentDateWindow(issueDate: string | null, today: string): { from: string; to: string } {
  const base = parseCalendarDay(issueDate) ?? parseCalendarDay(today)!;
  return { from: base.subtract(1, "year").format(DATE_FORMAT), to: today };
}

/** The message when `paymentDate` ("YYYY-MM-DD") lies outside the window, else null. */
export function paymentDateError(paymentDate: string, issueDate: string | null, today: string): string | null {
  const { from, to } = paymentDateWindow(issueDate, today);
  return paymentDate < from || paymentDate > to ? BOUND_MESSAGES.paymentDate(from) : null;
}
