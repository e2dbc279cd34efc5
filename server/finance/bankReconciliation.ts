/**
 * Bank statement reconciliation (issue 35): a company's statement export is imported once (its column
 * mapping remembered per bank), each credit line is matched to the unpaid PA whose number it carries
 * (src/domain/finance/bankStatement.ts), and finance confirms matches in bulk: each confirmed line becomes a
 * payment by `qr_code` with its receipt, recorded by the same function as any payment (recordPaymentIn) in
 * one finance transaction with the line marked recorded. A line is identified by what it says ("lineKey"),
 * not by the file it came in: importing a file twice adds no line, and a line is paid at most once.
 */
import { createHash } from "node:crypto";
import type { Db, Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import {
  BANK_MESSAGES,
  MAX_STATEMENT_LINES,
  matchBankLine,
  paNumbersIn,
  parseStatementAmount,
  parseStatementDate,
  type BankLineView,
  type BankMapping,
} from "../../src/domain/finance/bankStatement.ts";
import { readStatement } from "./bankStatementFile.ts";
import { recordPaymentIn, type InvoiceActionCheck } from "./invoices.ts";
import { lockStudentMoney } from "./locks.ts";
import { readPaRow } from "./paymentAdviceRecord.ts";
import { FinanceError, financeTransaction, requireRight } from "./transaction.ts";

export interface StatementFile {
  fileName: string;
  bytes: Buffer;
}

export interface StatementPreview {
  headers: string[];
  /** The first rows under the headings, to choose the columns by. */
  sample: string[][];
  /** The mapping last used for this bank, when its columns are all in this file. */
  mapping: BankMapping | null;
}

export interface ImportReply {
  /** New lines stored. */
  imported: number;
  /** Lines already imported before (the same file, or an overlapping one). */
  duplicates: number;
  /** Debits and blank credits: money out is not reconciled here. */
  skipped: number;
}

export interface ConfirmResult {
  lineId: string;
  receipt?: { id: string; name: string };
  paymentAdvice?: { id: string; name: string };
  error?: string;
}

/** The headings, a sample and the bank's remembered mapping: what the column-mapping step shows. */
export async function previewStatement(db: Queryable, bank: string | null, file: StatementFile): Promise<StatementPreview> {
  const table = await readStatement(file.fileName, file.bytes, MAX_STATEMENT_LINES);
  const saved = bank ? await savedMapping(db, bank) : null;
  const present = (c: string | null) => c === null || table.headers.includes(c);
  const usable = saved && present(saved.dateColumn) && present(saved.creditColumn) && present(saved.descriptionColumn) && present(saved.referenceColumn);
  return { headers: table.headers, sample: table.rows.slice(0, 5).map((r) => r.cells), mapping: usable ? saved : null };
}

export async function savedMapping(db: Queryable, bank: string): Promise<BankMapping | null> {
  const { rows } = await db.query<BankMapping>(
    `select "dateColumn", "descriptionColumn", "referenceColumn", "creditColumn" from bank_statement_mappings where lower(bank) = lower($1)`,
    [bank.trim()],
  );
  return rows[0] ?? null;
}

export async function knownBanks(db: Queryable): Promise<string[]> {
  return (await db.query<{ bank: string }>(`select bank from bank_statement_mappings order by lower(bank)`)).rows.map((r) => r.bank);
}

/** A line's identity: its bank, day, texts, amount and which repeat of an identical line in its file it is. */
function lineKey(bank: string, day: string, description: string, reference: string, amount: Cents, repeat: number): string {
  return createHash("sha256").update(JSON.stringify([bank.trim().toLowerCase(), day, description, reference, amount, repeat])).digest("hex");
}

/**
 * Imports the credit lines of a company's statement with the given mapping (remembered for the bank). A bad
 * date or amount refuses the whole file, naming the row; nothing is written then.
 */
export async function importStatement(db: Db, input: { companyId: string; bank: string; mapping: BankMapping; file: StatementFile }, by: string | null): Promise<ImportReply> {
  const { companyId, mapping } = input;
  const bank = input.bank.trim();
  const table = await readStatement(input.file.fileName, input.file.bytes, MAX_STATEMENT_LINES);
  const column = (name: string | null) => {
    if (name === null) return -1;
    const at = table.headers.indexOf(name);
    if (at < 0) throw new FinanceError(400, BANK_MESSAGES.columnMissing(name), { mapping: BANK_MESSAGES.columnMissing(name) });
    return at;
  };
  const at = { date: column(mapping.dateColumn), credit: column(mapping.creditColumn), description: column(mapping.descriptionColumn), reference: column(mapping.referenceColumn) };
  const lines: { day: string; description: string; reference: string; amount: Cents; key: string }[] = [];
  const repeats = new Map<string, number>();
  let skipped = 0;
  for (const { rowNumber, cells } of table.rows) {
    const amount = parseStatementAmount(cells[at.credit] ?? "");
    if (amount === "bad") throw new FinanceError(400, BANK_MESSAGES.badAmount(rowNumber, cells[at.credit]!), { file: BANK_MESSAGES.badAmount(rowNumber, cells[at.credit]!) });
    if (amount === null) {
      skipped++;
      continue;
    }
    const day = parseStatementDate(cells[at.date] ?? "");
    if (!day) throw new FinanceError(400, BANK_MESSAGES.badDate(rowNumber, cells[at.date] ?? ""), { file: BANK_MESSAGES.badDate(rowNumber, cells[at.date] ?? "") });
    const description = (at.description >= 0 ? cells[at.description]! : "").slice(0, 5000);
    const reference = (at.reference >= 0 ? cells[at.reference]! : "").slice(0, 500);
    const same = JSON.stringify([day, description, reference, amount]);
    const repeat = (repeats.get(same) ?? 0) + 1;
    repeats.set(same, repeat);
    lines.push({ day, description, reference, amount, key: lineKey(bank, day, description, reference, amount, repeat) });
  }
  if (!lines.length) throw new FinanceError(400, BANK_MESSAGES.noCredits, { file: BANK_MESSAGES.noCredits });
  return db.transaction(async (tx) => {
    const { rows: company } = await tx.query(`select id from companies where id = $1 and status <> 'deleted'`, [companyId]);
    if (!company[0]) throw new FinanceError(400, BANK_MESSAGES.company, { companyId: BANK_MESSAGES.company });
    await tx.query(
      `insert into bank_statement_mappings (bank, "dateColumn", "descriptionColumn", "referenceColumn", "creditColumn", "createdBy", "updatedBy")
       values ($1, $2, $3, $4, $5, $6, $6)
       on conflict (lower(bank)) do update set "dateColumn" = excluded."dateColumn", "descriptionColumn" = excluded."descriptionColumn",
         "referenceColumn" = excluded."referenceColumn", "creditColumn" = excluded."creditColumn", "updatedBy" = excluded."updatedBy"`,
      [bank, mapping.dateColumn, mapping.descriptionColumn, mapping.referenceColumn, mapping.creditColumn, by],
    );
    const { rows: inserted } = await tx.query<{ id: string }>(
      `insert into bank_statement_lines ("companyId", bank, "fileName", "lineKey", "lineDate", description, reference, amount, "createdBy", "updatedBy")
       select $1, $2, $3, l.key, l.day, nullif(l.description, ''), nullif(l.reference, ''), l.amount, $4, $4
       from unnest($5::text[], $6::date[], $7::text[], $8::text[], $9::numeric[]) as l(key, day, description, reference, amount)
       on conflict ("companyId", "lineKey") do nothing returning id`,
      [companyId, bank, input.file.fileName.slice(0, 200), by, lines.map((l) => l.key), lines.map((l) => l.day), lines.map((l) => l.description), lines.map((l) => l.reference), lines.map((l) => centsToNumeric(l.amount))],
    );
    return { imported: inserted.length, duplicates: lines.length - inserted.length, skipped };
  });
}

interface CandidateRow {
  id: string;
  name: string;
  companyId: string;
  paymentStatus: string;
  totalPayable: string | null;
  received: string;
  studentName: string | null;
}

const CANDIDATE_COLUMNS = `pa.id, pa.name, pa."companyId", pa."paymentStatus", pa."paymentSummaryStatic"->>'totalPayable' as "totalPayable",
  (select coalesce(sum(ip.amount), 0)::text from invoice_payments ip join invoices i on i.id = ip."invoiceId"
   where i."paymentAdviceId" = pa.id and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success') as received,
  coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", ''))) as "studentName"`;

const candidateOf = (r: CandidateRow) => ({
  id: r.id,
  name: r.name,
  companyId: r.companyId,
  paymentStatus: r.paymentStatus,
  balanceDue: (numericToCents(r.totalPayable ?? "0") ?? 0) - (numericToCents(r.received) ?? 0),
  studentName: r.studentName,
});

/** The statement lines of a company, newest first, each open one with the PA it matches. */
export async function listLines(db: Queryable, companyId: string, status: "open" | "recorded"): Promise<BankLineView[]> {
  const { rows } = await db.query<Omit<BankLineView, "match" | "receipt" | "paymentAdvice"> & { companyId: string; receiptId: string | null; receiptName: string | null; invoiceId: string | null; paId: string | null; paName: string | null }>(
    `select l.id, l."lineDate"::text as "lineDate", l.description, l.reference, l.amount::text as amount, l.bank, l."fileName", l."lineStatus", l."companyId",
       l."receiptId", r.name as "receiptName", r."invoiceId", l."paymentAdviceId" as "paId", pa.name as "paName"
     from bank_statement_lines l left join receipts r on r.id = l."receiptId" left join payment_advices pa on pa.id = l."paymentAdviceId"
     where l."companyId" = $1 and l."lineStatus" = $2 order by l."lineDate" desc, l."createdAt" desc, l.id limit 1000`,
    [companyId, status],
  );
  const named = rows.map((l) => (l.lineStatus === "open" ? paNumbersIn(`${l.reference ?? ""} ${l.description ?? ""}`) : []));
  const numbers = [...new Set(named.flat())];
  const { rows: pas } = numbers.length
    ? await db.query<CandidateRow>(`select ${CANDIDATE_COLUMNS} from payment_advices pa join users u on u.id = pa."studentId" where pa.name = any($1::text[]) and pa.status <> 'deleted'`, [numbers])
    : { rows: [] as CandidateRow[] };
  const byName = new Map(pas.map((r) => [r.name, candidateOf(r)]));
  return rows.map((l, i) => {
    const candidates = named[i]!.map((n) => byName.get(n)).filter((c) => c !== undefined);
    const match = l.lineStatus === "open" ? matchBankLine({ amount: numericToCents(l.amount) ?? 0, companyId: l.companyId }, candidates) : null;
    return {
      id: l.id, lineDate: l.lineDate, description: l.description, reference: l.reference, amount: l.amount, bank: l.bank, fileName: l.fileName, lineStatus: l.lineStatus,
      match: match && { ...match, pa: match.pa && { ...match.pa, balanceDue: centsToNumeric(match.pa.balanceDue), studentName: byName.get(match.pa.name)?.studentName ?? null } },
      receipt: l.receiptId ? { id: l.receiptId, name: l.receiptName ?? "", invoiceId: l.invoiceId } : null,
      paymentAdvice: l.paId ? { id: l.paId, name: l.paName ?? "" } : null,
    };
  });
}

/** Unpaid PAs of a company by number or student name: matching a line by hand. */
export async function searchPayablePas(db: Queryable, companyId: string, text: string) {
  const like = `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await db.query<CandidateRow>(
    `select ${CANDIDATE_COLUMNS} from payment_advices pa join users u on u.id = pa."studentId"
     where pa."companyId" = $1 and pa."paymentStatus" = 'unpaid' and pa.status <> 'deleted'
       and (pa.name ilike $2 or u."fullName" ilike $2 or u."firstName" || ' ' || u."lastName" ilike $2 or u.username ilike $2)
     order by pa.name limit 20`,
    [companyId, like],
  );
  return rows.map((r) => ({ ...candidateOf(r), balanceDue: centsToNumeric(candidateOf(r).balanceDue) }));
}

/** What the payment's reference says: the bank line as the bank wrote it, within the column's 200 characters. */
const paymentReference = (line: { bank: string; lineDate: string; reference: string | null; description: string | null }) =>
  [line.bank, line.lineDate, line.reference, line.description].filter(Boolean).join(" · ").slice(0, 200);

/**
 * Records a payment for each (line, PA) pair: the PA must be an unpaid PA of the line's company. Each pair is
 * its own finance transaction — the line locked first, so a second confirm of the same line (another tab,
 * another user, a replay) waits and then finds it recorded — and a refused pair changes nothing and does not
 * stop the others.
 */
export async function confirmMatches(db: Db, matches: readonly { lineId: string; paymentAdviceId: string }[], by: string | null, can: InvoiceActionCheck): Promise<ConfirmResult[]> {
  await requireRight(can, "record-payment");
  await requireRight(can, "issue");
  const results: ConfirmResult[] = [];
  for (const { lineId, paymentAdviceId } of matches) {
    try {
      const recorded = await financeTransaction(db, async (tx) => {
        const { rows } = await tx.query<{ companyId: string; bank: string; lineDate: string; reference: string | null; description: string | null; amount: string; lineStatus: string }>(
          `select "companyId", bank, "lineDate"::text as "lineDate", reference, description, amount::text as amount, "lineStatus" from bank_statement_lines where id = $1 for update`,
          [lineId],
        );
        const line = rows[0];
        if (!line) throw new FinanceError(404, BANK_MESSAGES.lineNotFound);
        if (line.lineStatus !== "open") throw new FinanceError(409, BANK_MESSAGES.lineRecorded);
        const pa = await readPaRow(tx, paymentAdviceId).catch(() => {
          throw new FinanceError(404, BANK_MESSAGES.paNotFound);
        });
        await lockStudentMoney(tx, pa.studentId);
        const locked = await readPaRow(tx, paymentAdviceId, { forUpdate: true });
        if (locked.companyId !== line.companyId) throw new FinanceError(400, BANK_MESSAGES.paOtherCompany);
        if (locked.paymentStatus !== "unpaid") throw new FinanceError(400, BANK_MESSAGES.paNotUnpaid);
        const reply = await recordPaymentIn(
          tx,
          { paymentAdviceId },
          { amount: numericToCents(line.amount)!, paymentMethod: "qr_code", cardType: null, paymentDate: line.lineDate, referenceNo: paymentReference(line), creditNoteId: null },
          by,
        );
        await tx.query(`update bank_statement_lines set "lineStatus" = 'recorded', "receiptId" = $2, "paymentAdviceId" = $3, "updatedBy" = $4 where id = $1`, [
          lineId, reply.receipt.id, paymentAdviceId, by,
        ]);
        return { receipt: { id: reply.receipt.id, name: reply.receipt.name }, paymentAdvice: { id: locked.id, name: locked.name ?? "" } };
      });
      results.push({ lineId, ...recorded });
    } catch (e) {
      if (!(e instanceof FinanceError)) throw e;
      results.push({ lineId, error: e.message });
    }
  }
  return results;
}
