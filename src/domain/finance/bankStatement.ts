/**
 * Bank statement reconciliation (issue 35): reading a statement line's date and credit amount as banks write
 * them, finding the PA numbers a payer's bank passed on in the reference or description, and how a credit
 * matches the PA it names — exact, partial, over, unknown, or a PA of another company (never matched).
 * Pure: the server reads the files and the PAs, the screen shows the same labels.
 */
import type { Cents } from "../money.ts";
import { parseMoneyInput } from "../money.ts";

export const BANK_OUTCOMES = ["exact", "partial", "over", "unknown", "wrong_company"] as const;
export type BankLineOutcome = (typeof BANK_OUTCOMES)[number];

export const BANK_OUTCOME_LABELS: Record<BankLineOutcome | "recorded", string> = {
  exact: "Exact",
  partial: "Partial",
  over: "Over",
  unknown: "Unknown",
  wrong_company: "Other company",
  recorded: "Recorded",
};

/** The columns a statement is read by; date and credit amount are required. */
export const BANK_MAPPING_FIELDS = ["dateColumn", "descriptionColumn", "referenceColumn", "creditColumn"] as const;
export type BankMapping = { dateColumn: string; descriptionColumn: string | null; referenceColumn: string | null; creditColumn: string };

export const BANK_MESSAGES = {
  bank: "Please input the bank!",
  company: "Please select a company!",
  file: "Please upload a bank statement (CSV or Excel).",
  fileType: "The bank statement must be a CSV or Excel (.xlsx) file.",
  fileUnreadable: "The bank statement could not be read. Please upload the CSV or Excel file as the bank exported it.",
  noHeader: "No column headings were found in the bank statement.",
  dateColumn: "Please select the date column!",
  creditColumn: "Please select the credit amount column!",
  columnMissing: (column: string) => `The bank statement has no column "${column}".`,
  badDate: (row: number, value: string) => `Row ${row}: "${value}" is not a date (use DD/MM/YYYY or YYYY-MM-DD).`,
  badAmount: (row: number, value: string) => `Row ${row}: "${value}" is not an amount with at most two decimals.`,
  tooManyLines: (max: number) => `A bank statement may hold at most ${max} lines. Please split the file.`,
  noCredits: "The bank statement has no credit lines.",
  lineNotFound: "This bank line was not found.",
  lineRecorded: "A payment was already recorded for this bank line.",
  paNotFound: "Payment advice not found.",
  paNotUnpaid: "Only an unpaid payment advice can be paid from a bank line.",
  paOtherCompany: "The payment advice belongs to another company than the bank statement.",
  selectLines: "Please select at least one bank line with a payment advice.",
} as const;

/** At most this many lines per file (a month of a busy centre's account is a few hundred). */
export const MAX_STATEMENT_LINES = 5000;

const MONTHS: Record<string, string> = { JAN: "01", FEB: "02", MAR: "03", APR: "04", MAY: "05", JUN: "06", JUL: "07", AUG: "08", SEP: "09", OCT: "10", NOV: "11", DEC: "12" };

const validDay = (y: string, m: string, d: string): string | null => {
  const day = `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  const t = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === day ? day : null;
};

/**
 * A statement date → YYYY-MM-DD, or null. Singapore banks write the day first: DD/MM/YYYY, DD-MM-YYYY,
 * DD MMM YYYY, DD-MMM-YY; ISO YYYY-MM-DD (with or without a time) is read too.
 */
export function parseStatementDate(text: string): string | null {
  const t = text.trim().toUpperCase();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s].*)?$/.exec(t);
  if (m) return validDay(m[1]!, m[2]!, m[3]!);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(t);
  if (m) return validDay(m[3]!.length === 2 ? `20${m[3]}` : m[3]!, m[2]!, m[1]!);
  m = /^(\d{1,2})[\s-]([A-Z]{3})[A-Z]*[\s-](\d{2}|\d{4})$/.exec(t);
  if (m && MONTHS[m[2]!]) return validDay(m[3]!.length === 2 ? `20${m[3]}` : m[3]!, MONTHS[m[2]!]!, m[1]!);
  return null;
}

/**
 * A credit cell → cents; null for a blank cell or a debit (a minus sign, brackets or DR: the money went out);
 * "bad" for anything else, a third decimal included (refused, never cut). "S$", "SGD", "$", thousands commas
 * and a trailing "CR" are allowed.
 */
export function parseStatementAmount(text: string): Cents | null | "bad" {
  let t = text.trim().toUpperCase().replace(/^(S\$|SGD|\$)\s*/, "").replace(/\s*CR$/, "").replace(/\s/g, "");
  if (t === "" || t === "-") return null;
  if (/^\(.*\)$/.test(t) || t.startsWith("-") || t.endsWith("DR")) return null;
  t = t.replace(/^(S\$|SGD|\$)/, "");
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(t)) return "bad";
  const cents = parseMoneyInput(t);
  return cents === null ? "bad" : cents === 0 ? null : cents;
}

/**
 * The PA numbers (PA-<company short name>-<year>-<5 digits>) in a reference or description, as the finance
 * service writes them. Payers' banks often drop the dashes or add spaces (PABME202600012, PA BME 2026 00012):
 * both are read.
 */
export function paNumbersIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.toUpperCase().matchAll(/(?<![A-Z0-9])PA[-\s]?([A-Z][A-Z0-9]{0,9}?)[-\s]?(\d{4})[-\s]?(\d{5})(?!\d)/g)) {
    found.add(`PA-${m[1]}-${m[2]}-${m[3]}`);
  }
  return [...found];
}

/** A PA a line may pay, as the server read it. */
export interface BankPaCandidate {
  id: string;
  name: string;
  companyId: string;
  paymentStatus: string;
  /** totalPayable − what was received so far. */
  balanceDue: Cents;
}

export interface BankLineMatch {
  outcome: BankLineOutcome;
  pa: BankPaCandidate | null;
  /** Why a line is not matched (unknown, other company). */
  reason: string | null;
}

/** How a credit compares with what the PA still asks for. */
export function amountOutcome(amount: Cents, balanceDue: Cents): "exact" | "partial" | "over" {
  return amount === balanceDue ? "exact" : amount < balanceDue ? "partial" : "over";
}

/**
 * Matches a credit line of a company's statement to the PA it names. Among the PAs named: an unpaid PA of the
 * statement's company (the first named); else a PA of another company is reported and never matched (a payer
 * who paid the wrong company's account); else the line is unknown.
 */
export function matchBankLine(line: { amount: Cents; companyId: string }, named: readonly BankPaCandidate[]): BankLineMatch {
  const ours = named.filter((pa) => pa.companyId === line.companyId);
  const payable = ours.find((pa) => pa.paymentStatus === "unpaid");
  if (payable) return { outcome: amountOutcome(line.amount, payable.balanceDue), pa: payable, reason: null };
  if (ours[0]) return { outcome: "unknown", pa: null, reason: `${ours[0].name} is not unpaid.` };
  const other = named[0];
  if (other) return { outcome: "wrong_company", pa: null, reason: `${other.name} belongs to another company.` };
  return { outcome: "unknown", pa: null, reason: "No payment advice number found." };
}

/** A stored statement line as the reconciliation calls answer it (the server writes it, the screen reads it). */
export interface BankLineView {
  id: string;
  lineDate: string;
  description: string | null;
  reference: string | null;
  amount: string;
  bank: string;
  fileName: string | null;
  lineStatus: "open" | "recorded";
  /** For an open line: how it matches the PA it names; for a recorded one, the PA and receipt it paid. */
  match: (Omit<BankLineMatch, "pa"> & { pa: (Omit<BankPaCandidate, "balanceDue"> & { balanceDue: string; studentName: string | null }) | null }) | null;
  receipt: { id: string; name: string; invoiceId: string | null } | null;
  paymentAdvice: { id: string; name: string } | null;
}
