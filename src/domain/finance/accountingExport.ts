/**
 * The ledger out to accounting (issue 39 §4): a date range's journal lines as a plain CSV, and as Xero's manual
 * journal import (its template's columns; one journal per company and day, its lines netted per account code, so
 * each journal's amounts sum to zero; positive = debit, negative = credit). Ledger accounts map to the centre's
 * account codes through a setting (payment settings, key ledgerAccountCodes); a cash line may have its own code per
 * method ("cash:paynow"). Both files are a pure function of the lines: the same range gives the same bytes.
 */
import { centsToNumeric, type Cents } from "../money.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT } from "../dates.ts";
import { ACCOUNTS, type Account } from "./ledger.ts";

export const ACCOUNT_CODE_SETTING_KEY = "ledgerAccountCodes";

/** Codes of Xero's default chart where it has the account, otherwise free codes beside them. */
export const DEFAULT_ACCOUNT_CODES: Record<Account, string> = {
  receivable: "610",
  cash: "090",
  customer_credit: "835",
  deposits_held: "840",
  deposits_billed: "615",
  revenue_deferred: "830",
  revenue_recognised: "200",
  gst_payable: "820",
};
/** GST is its own ledger account (gst_payable): no line carries tax of its own in Xero. */
export const DEFAULT_TAX_RATE = "No GST";

export interface AccountCodes {
  codes: Record<Account, string>;
  /** Codes of cash lines by payment method, where one differs from the cash code. */
  byMethod: Record<string, string>;
  taxRate: string;
}

export const EXPORT_MESSAGES = {
  badRange: "Choose a date range of at most 366 days, the start not after the end.",
  company: "Please select a company.",
  badCode: (key: string) => `The account code for ${key} must be 1 to 10 letters or digits.`,
  inParts: (lines: number, parts: number) =>
    `Xero imports at most ${XERO_IMPORT_MAX_LINES} lines a file: these ${lines} journal lines come as ${parts} files (parts 1 to ${parts}); import each of them.`,
  badPart: (parts: number) => `There ${parts === 1 ? "is 1 part" : `are ${parts} parts`} for this range: choose a part from 1 to ${parts}.`,
  journalTooLong: (narration: string, lines: number) => `The journal "${narration}" has ${lines} lines, more than Xero imports in one file (${XERO_IMPORT_MAX_LINES}).`,
} as const;

/** The setting's value → codes (defaults for what it leaves out); the key of the first bad code as an error. */
export function accountCodesFrom(value: Record<string, unknown> | null | undefined): AccountCodes | { error: string } {
  const codes = { ...DEFAULT_ACCOUNT_CODES };
  const byMethod: Record<string, string> = {};
  let taxRate = DEFAULT_TAX_RATE;
  for (const [key, raw] of Object.entries(value ?? {})) {
    const v = typeof raw === "string" ? raw.trim() : "";
    if (key === "taxRate") {
      if (v) taxRate = v.slice(0, 100);
      continue;
    }
    const account = key.startsWith("cash:") ? "cash" : key;
    if (!(ACCOUNTS as readonly string[]).includes(account)) continue;
    if (!/^[0-9A-Za-z]{1,10}$/.test(v)) return { error: EXPORT_MESSAGES.badCode(key) };
    if (key.startsWith("cash:")) byMethod[key.slice(5)] = v;
    else codes[account as Account] = v;
  }
  return { codes, byMethod, taxRate };
}

export const accountCodeOf = (c: AccountCodes, account: Account, method: string | null): string => (account === "cash" && method && c.byMethod[method]) || c.codes[account];

/** One journal line with its entry, as the export reads it (ordered by day, entry, line). */
export interface ExportLine {
  day: string;
  companyName: string;
  entryId: string;
  operation: string;
  documentType: string;
  documentNumber: string | null;
  studentName: string;
  account: Account;
  method: string | null;
  debit: Cents;
  credit: Cents;
}

/** A CSV cell: text that a spreadsheet would run as a formula is prefixed with a quote; amounts go as they are. */
const cell = (v: string | Cents) => {
  if (typeof v === "number") return centsToNumeric(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
const csv = (rows: readonly (readonly (string | Cents)[])[]) => rows.map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
const dmy = (day: string) => formatCalendarDay(day, DISPLAY_DATE_FORMAT);

export const JOURNAL_LINES_HEADER = ["Date", "Company", "Entry", "Operation", "Document Type", "Document No.", "Student", "Account", "Method", "Account Code", "Debit", "Credit"] as const;

export function journalLinesCsv(lines: readonly ExportLine[], codes: AccountCodes): string {
  return csv([
    JOURNAL_LINES_HEADER,
    ...lines.map((l) => [dmy(l.day), l.companyName, l.entryId, l.operation, l.documentType, l.documentNumber ?? "", l.studentName, l.account, l.method ?? "", accountCodeOf(codes, l.account, l.method), l.debit, l.credit]),
  ]);
}

/** The columns of Xero's manual journal import template (mandatory ones starred, as in the template). */
export const XERO_HEADER = ["*Narration", "*Date", "Description", "*AccountCode", "*TaxRate", "*Amount", "TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"] as const;

export interface XeroJournalLine {
  narration: string;
  day: string;
  description: string;
  accountCode: string;
  /** Positive: debit; negative: credit. */
  amount: Cents;
}

/** One journal per company and day: the day's lines netted per account code (codes in order); zero nets left out. */
export function xeroJournals(lines: readonly ExportLine[], codes: AccountCodes): XeroJournalLine[] {
  const groups = new Map<string, { narration: string; day: string; byCode: Map<string, { amount: Cents; accounts: Set<string> }> }>();
  for (const l of lines) {
    const key = `${l.day}|${l.companyName}`;
    const g = groups.get(key) ?? { narration: `${l.companyName} ledger ${dmy(l.day)}`, day: l.day, byCode: new Map() };
    groups.set(key, g);
    const code = accountCodeOf(codes, l.account, l.method);
    const c = g.byCode.get(code) ?? { amount: 0, accounts: new Set<string>() };
    c.amount += l.debit - l.credit;
    c.accounts.add(l.method ? `${l.account} (${l.method})` : l.account);
    g.byCode.set(code, c);
  }
  return [...groups.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.narration.localeCompare(b.narration))
    .flatMap((g) =>
      [...g.byCode.entries()]
        .filter(([, c]) => c.amount !== 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([code, c]) => ({ narration: g.narration, day: g.day, description: [...c.accounts].sort().join(", "), accountCode: code, amount: c.amount })),
    );
}

/** One import file of Xero manual journals (a part of xeroParts). */
export function xeroManualJournalCsv(journal: readonly XeroJournalLine[], taxRate: string): string {
  return csv([XERO_HEADER, ...journal.map((j) => [j.narration, dmy(j.day), j.description, j.accountCode, taxRate, j.amount, "", "", "", ""])]);
}

/**
 * Xero imports at most 300 lines in one manual journal template file (Xero Central, "Enter multiple manual journals
 * using an import template"; docs/DECISIONS.md). The header row is not a line.
 */
export const XERO_IMPORT_MAX_LINES = 300;

/**
 * The journals in files of at most `max` lines, in order, a journal never split across two files (each half would
 * import as a journal of its own that does not balance). A journal longer than a file is refused.
 */
export function xeroParts(journal: readonly XeroJournalLine[], max = XERO_IMPORT_MAX_LINES): XeroJournalLine[][] | { error: string } {
  const journals: XeroJournalLine[][] = [];
  for (const line of journal) {
    const last = journals.at(-1);
    if (last && last[0]!.narration === line.narration && last[0]!.day === line.day) last.push(line);
    else journals.push([line]);
  }
  const parts: XeroJournalLine[][] = [[]];
  for (const j of journals) {
    if (j.length > max) return { error: EXPORT_MESSAGES.journalTooLong(j[0]!.narration, j.length) };
    if (parts.at(-1)!.length + j.length > max) parts.push([]);
    parts.at(-1)!.push(...j);
  }
  return parts;
}
