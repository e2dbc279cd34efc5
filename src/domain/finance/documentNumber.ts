/**
 * Document numbers (FINANCE.md §2): `<PREFIX>-<company shortName>-<YYYY>-<00001>`, gap-free per company,
 * calendar year and document type. A draft has none and shows "Draft".
 */
export const DOCUMENT_PREFIXES = {
  payment_advice: "PA",
  invoice: "INV",
  receipt: "RC",
  credit_note: "CN",
  refund: "RF",
  deposit: "DEP",
} as const;
export type DocumentType = keyof typeof DOCUMENT_PREFIXES;

export const DRAFT_NUMBER_LABEL = "Draft";
const DIGITS = 5;

export function formatDocumentNumber(type: DocumentType, companyShortName: string, year: number, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Not a document sequence number: ${n}`);
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`Not a year: ${year}`);
  return `${DOCUMENT_PREFIXES[type]}-${companyShortName}-${year}-${String(n).padStart(DIGITS, "0")}`;
}

/** "PA-BM-2026-00012" → its parts; null when not a document number. Short names may contain "-". */
export function parseDocumentNumber(name: string): { prefix: string; shortName: string; year: number; n: number } | null {
  const m = /^([A-Z]+)-(.+)-(\d{4})-(\d{5,})$/.exec(name);
  return m ? { prefix: m[1]!, shortName: m[2]!, year: Number(m[3]), n: Number(m[4]) } : null;
}

/** What the PA reference shows: its number, or "Draft". */
export function documentNumberLabel(name: string | null | undefined): string {
  return name || DRAFT_NUMBER_LABEL;
}
