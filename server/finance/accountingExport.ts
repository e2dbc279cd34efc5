/**
 * The ledger of a company for a date range out to accounting (issue 39 §4): its journal lines read in a fixed
 * order (day, posting, entry, line) and written by the pure functions of src/domain/finance/accountingExport.ts
 * with the account codes of the setting — so the same range gives the same bytes.
 */
import type { Queryable } from "../db/index.ts";
import { ACCOUNT_CODE_SETTING_KEY, accountCodesFrom, EXPORT_MESSAGES, journalLinesCsv, xeroJournals, xeroManualJournalCsv, xeroParts, type AccountCodes, type ExportLine } from "../../src/domain/finance/accountingExport.ts";
import { daysBetween } from "../../src/domain/finance/reminders.ts";
import { cents } from "./ledger.ts";
import { FinanceError } from "./transaction.ts";

/** The company's account codes (its own setting, else the one for all, else the defaults); a bad code is a 400. */
export async function accountCodes(db: Queryable, companyId: string): Promise<AccountCodes> {
  const { rows } = await db.query<{ value: Record<string, unknown> | null }>(
    `select value from system_settings where key = $1 and status = 'active' and ("companyId" = $2 or "companyId" is null) order by ("companyId" is null), "updatedAt" desc limit 1`,
    [ACCOUNT_CODE_SETTING_KEY, companyId],
  );
  const codes = accountCodesFrom(rows[0]?.value);
  if ("error" in codes) throw new FinanceError(400, codes.error);
  return codes;
}

export async function exportLines(db: Queryable, companyId: string, from: string, to: string): Promise<ExportLine[]> {
  const { rows } = await db.query<Omit<ExportLine, "debit" | "credit"> & { debit: string; credit: string }>(
    `select l.day::text as day, c.name as "companyName", e.id as "entryId", e.operation, e."documentType", e."documentNumber",
       coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", ''))) as "studentName",
       l.account, l.method, l.debit::text as debit, l.credit::text as credit
     from journal_lines l join journal_entries e on e.id = l."entryId" join companies c on c.id = l."companyId" join users u on u.id = l."studentId"
     where l."companyId" = $1 and l.day between $2::date and $3::date
     order by l.day, e."createdAt", e.id, l.account, l.method nulls first, l.id`,
    [companyId, from, to],
  );
  return rows.map((r) => ({ ...r, debit: cents(r.debit), credit: cents(r.credit) }));
}

export type ExportFormat = "xero" | "lines";

/**
 * The file: its name and text. A range over a year, or ending before it starts, is refused. Xero's manual journals
 * come in parts of at most XERO_IMPORT_MAX_LINES lines: a range that needs more than one is refused without a part
 * (409, `errors.parts` says how many) and each part is asked for by number.
 */
export async function accountingExport(db: Queryable, q: { companyId: string; from: string; to: string; format: ExportFormat; part?: number }): Promise<{ fileName: string; csv: string }> {
  const span = daysBetween(q.from, q.to);
  if (span < 0 || span > 365) throw new FinanceError(400, EXPORT_MESSAGES.badRange);
  const { rows } = await db.query<{ shortName: string | null }>(`select "shortName" from companies where id = $1`, [q.companyId]);
  if (!rows.length) throw new FinanceError(400, EXPORT_MESSAGES.company);
  const codes = await accountCodes(db, q.companyId);
  const lines = await exportLines(db, q.companyId, q.from, q.to);
  const base = `${rows[0]!.shortName ?? "ledger"}-${q.from}-${q.to}`;
  if (q.format === "lines") {
    if (q.part !== undefined && q.part !== 1) throw new FinanceError(400, EXPORT_MESSAGES.badPart(1));
    return { fileName: `${base}-journal-lines.csv`, csv: journalLinesCsv(lines, codes) };
  }
  const journal = xeroJournals(lines, codes);
  const parts = xeroParts(journal);
  if ("error" in parts) throw new FinanceError(400, parts.error);
  if (q.part === undefined && parts.length > 1) throw new FinanceError(409, EXPORT_MESSAGES.inParts(journal.length, parts.length), { parts: String(parts.length) });
  const part = q.part ?? 1;
  if (part > parts.length) throw new FinanceError(400, EXPORT_MESSAGES.badPart(parts.length));
  const name = parts.length > 1 ? `${base}-xero-manual-journals-part-${part}-of-${parts.length}.csv` : `${base}-xero-manual-journals.csv`;
  return { fileName: name, csv: xeroManualJournalCsv(parts[part - 1]!, codes.taxRate) };
}
