/**
 * The PayNow QR of a payment advice (issue 35): an SGQR payload in EMVCo's merchant-presented format, which
 * every Singapore banking app reads. Written here rather than taken from the `paynowqr` package, whose output
 * is the same for the same input but which takes the amount as a float, does not fix it to two decimals and
 * does not bound the merchant name to the format's 25 characters (docs/DECISIONS.md, "PayNow QR").
 *
 * Layout (ID, two-digit length, value):
 *   00 "01" payload format · 01 "12" dynamic (one payment) ·
 *   26 PayNow account: 00 "SG.PAYNOW", 01 "2" (proxy type UEN), 02 UEN, 03 "0" (amount not editable), 04 expiry YYYYMMDD ·
 *   52 "0000" · 53 "702" (SGD) · 54 amount · 58 "SG" · 59 merchant name · 60 merchant city ·
 *   62 additional data: 01 bill reference · 63 CRC-16/CCITT-FALSE over everything before it, "6304" included.
 */
import type { Cents } from "../money.ts";
import { centsToNumeric } from "../money.ts";

export interface PayNowRequest {
  /** The UEN paid into (the company's, or the PayNow UEN set on the company). */
  uen: string;
  /** What the payer pays; they cannot change it. */
  amount: Cents;
  /** The last day the QR is accepted (YYYY-MM-DD), or null for none. */
  expiry: string | null;
  /** What the payer's bank passes on to ours: the PA number. */
  reference: string;
  merchantName: string;
  merchantCity?: string;
}

/** EMVCo's bounds on the values we set. */
export const PAYNOW_LIMITS = { uen: 20, amount: 13, reference: 25, merchantName: 25, merchantCity: 15 } as const;

const field = (id: string, value: string): string => {
  if (value.length > 99) throw new RangeError(`EMVCo field ${id} is longer than 99 characters.`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
};

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as four upper-case hex digits. */
export function crc16Ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** EMVCo allows only printable ASCII in these fields: accents are taken off (é → e), anything else dropped, never sent garbled. */
const ascii = (text: string, max: number) =>
  text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "").trim().slice(0, max);

/** The payload text to encode in the QR; throws RangeError on an amount or UEN the format cannot carry. */
export function payNowPayload(request: PayNowRequest): string {
  const uen = request.uen.trim().toUpperCase();
  if (!/^[0-9A-Z]{1,20}$/.test(uen)) throw new RangeError(`Not a UEN PayNow can carry: ${request.uen}`);
  if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw new RangeError(`A PayNow amount must be above zero: ${request.amount}`);
  const amount = centsToNumeric(request.amount);
  if (amount.length > PAYNOW_LIMITS.amount) throw new RangeError(`Amount too large for PayNow: ${amount}`);
  const expiry = request.expiry ? request.expiry.replace(/-/g, "") : null;
  if (expiry !== null && !/^\d{8}$/.test(expiry)) throw new RangeError(`Not a calendar day: ${request.expiry}`);
  const account = [field("00", "SG.PAYNOW"), field("01", "2"), field("02", uen), field("03", "0"), ...(expiry ? [field("04", expiry)] : [])].join("");
  const body = [
    field("00", "01"),
    field("01", "12"),
    field("26", account),
    field("52", "0000"),
    field("53", "702"),
    field("54", amount),
    field("58", "SG"),
    field("59", ascii(request.merchantName, PAYNOW_LIMITS.merchantName) || "NA"),
    field("60", ascii(request.merchantCity ?? "Singapore", PAYNOW_LIMITS.merchantCity) || "Singapore"),
    field("62", field("01", ascii(request.reference, PAYNOW_LIMITS.reference))),
    "6304",
  ].join("");
  return body + crc16Ccitt(body);
}

/** What a PA's paper needs to decide on its PayNow QR. */
export interface PayNowPaInput {
  name: string | null;
  paymentStatus: string;
  totalPayable: Cents;
  amountReceived: Cents;
  qrExpiryDate: string | null;
}

/**
 * The PayNow request printed on a PA, or null when there is nothing to pay by QR: a draft (no number yet),
 * a paid, overpaid, voided or withdrawn PA, a PA with nothing left to pay, one whose QR expiry date has passed
 * (banks refuse an expired QR), or a company with no UEN that PayNow can carry.
 * The amount is the balance due: what is left after the payments already received.
 */
export function payNowRequestFor(pa: PayNowPaInput, company: { name: string; uen: string | null; payNowUen: string | null }, today: string): PayNowRequest | null {
  if (pa.paymentStatus !== "unpaid" || !pa.name) return null;
  const amount = pa.totalPayable - pa.amountReceived;
  if (amount <= 0) return null;
  if (pa.qrExpiryDate && pa.qrExpiryDate < today) return null;
  const uen = (company.payNowUen || company.uen || "").trim().toUpperCase();
  if (!/^[0-9A-Z]{1,20}$/.test(uen)) return null;
  return { uen, amount, expiry: pa.qrExpiryDate, reference: pa.name, merchantName: company.name };
}
