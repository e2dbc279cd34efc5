/**
 * The money calls of FINANCE.md §1 "Idempotent.": every POST, PATCH or PUT under /finances, /credit-notes
 * and /refund (payments, invoices, receipts, payment advices, credit notes incl. suspensions, refunds incl.
 * withdrawals). The browser sends an Idempotency-Key on these and the server keeps their answers
 * (server/api/idempotency.ts): one list for both sides.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** The longest key the server accepts (Stripe's limit); a UUID is 36 characters. */
export const IDEMPOTENCY_KEY_MAX = 255;

const MONEY_METHODS = new Set(["POST", "PATCH", "PUT"]);
const MONEY_PATH = /^\/(finances|credit-notes|refund)(\/|$|\?)/;

/** Whether a call is a money call; `path` is the API path without /api/v2 (a route pattern or a URL). */
export function isMoneyCall(method: string, path: string): boolean {
  return MONEY_METHODS.has(method.toUpperCase()) && MONEY_PATH.test(path);
}
