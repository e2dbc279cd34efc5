/**
 * Entries for documents made before the ledger, or written as raw rows by the demo and scale seeds
 * (issue 31 §1): each document with no journal entry gets the entries its state implies, through the same
 * posting rules as the finance service (src/domain/finance/ledger.ts) — issued, each payment, each void —
 * dated on the document's own days. Idempotent: a document with entries is left alone, so it runs after
 * the migrations at every start and at the end of seeding. It fixes nothing: a document that breaks the
 * model gets the entries it implies, and `npm run reconcile` reports the difference.
 */
import type { Db, Queryable } from "../db/index.ts";
import { SELF_VOIDED_RECEIPT_SQL } from "../../src/domain/finance/invoice.ts";
import {
  creditNoteIssued,
  creditNoteVoided,
  negate,
  net,
  paIssued,
  paReversed,
  paTarget,
  paymentMoney,
  refundRefunded,
  settle,
  standingAfter,
  type LedgerLine,
} from "../../src/domain/finance/ledger.ts";
import { cents, creditNoteFigures, paFigures, recognitionGaps, recogniseRevenue, refundFigures, writeEntries, type Entry, type EntryHead } from "./ledger.ts";
import { lockStudentMoney } from "./locks.ts";
import { financeTransaction } from "./transaction.ts";
import { withoutJit } from "../db/jit.ts";
import type { PaRow } from "./paymentAdviceRecord.ts";

/** PAs, credit notes and refunds read a window at a time (see `windows`). */
export const BACKFILL_WINDOW = 1000;
const SG_DAY = (col: string) => `to_char(${col} at time zone 'Asia/Singapore', 'YYYY-MM-DD')`;

interface PaGroup {
  id: string;
  name: string | null;
  companyId: string;
  studentId: string;
  paymentStatus: string;
  issueDay: string;
  changedDay: string;
  paymentSummaryStatic: PaRow["paymentSummaryStatic"];
  received: string;
  receipts: Array<{ id: string; name: string | null; amount: string; method: string; day: string; selfVoided: boolean; voidDay: string }>;
}

/** The entries a PA and its receipts imply, the PA settled to its standing in the last of them. */
export function paGroupEntries(g: PaGroup): Entry[] {
  const head = (operation: EntryHead["operation"], day: string): EntryHead => ({
    companyId: g.companyId, studentId: g.studentId, day, operation, documentType: "payment_advice", documentId: g.id, documentNumber: g.name, createdBy: null,
  });
  const figures = paFigures(g.paymentSummaryStatic);
  const entries: Entry[] = [{ head: head("pa_issued", g.issueDay), lines: paIssued(figures) }];
  for (const r of g.receipts) {
    const receiptHead = (operation: EntryHead["operation"], day: string): EntryHead => ({ ...head(operation, day), documentType: "receipt", documentId: r.id, documentNumber: r.name });
    const money = paymentMoney({ amount: cents(r.amount), method: r.method });
    entries.push({ head: receiptHead("payment_received", r.day), lines: money });
    if (r.selfVoided) entries.push({ head: receiptHead("receipt_voided", r.voidDay), lines: negate(money) });
  }
  const live = ["unpaid", "paid", "overpaid", "overdue"].includes(g.paymentStatus);
  if (g.paymentStatus === "voided") {
    const paid = g.receipts.some((r) => !r.selfVoided);
    entries.push({ head: head(paid ? "pa_voided_paid" : "pa_voided_unpaid", g.changedDay), lines: paReversed(figures) });
  } else if (g.paymentStatus === "withdrawn") {
    entries.push({ head: head("pa_withdrawn", g.changedDay), lines: paReversed(figures) });
  }
  const all: LedgerLine[] = entries.flatMap((e) => e.lines);
  const standing = standingAfter({ receivable: 0, depositsBilled: 0 }, all);
  const target = paTarget({ live, totalPayable: figures.totalPayable, deposit: figures.deposit, received: cents(g.received) });
  const last = entries[entries.length - 1]!;
  last.lines = net([...last.lines, ...settle(standing, target)]);
  return entries;
}

/**
 * Runs `fn` on the ids of `table` a window of `size` at a time, in id order, and sums what it returns. Each
 * statement then reads at most `size` documents however many exist: one anti-join over the 200,000 PAs of the
 * 100k database once passed the 15 s statement timeout at start-up under load, though every PA had its entries.
 */
async function windows(db: Queryable, table: "payment_advices" | "credit_notes" | "refunds" | "users", size: number, fn: (ids: string[]) => Promise<number>): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let posted = 0;
  for (;;) {
    const ids = (await db.query<{ id: string }>(`select id from ${table} where id > $1 order by id limit $2`, [after, size])).rows.map((r) => r.id);
    if (!ids.length) return posted;
    posted += await fn(ids);
    after = ids[ids.length - 1]!;
  }
}

async function backfillPaymentAdvices(tx: Queryable, size: number): Promise<number> {
  return windows(tx, "payment_advices", size, async (ids) => {
    const { rows } = await tx.query<PaGroup>(
      `select pa.id, pa.name, pa."companyId", pa."studentId", pa."paymentStatus", pa."paymentSummaryStatic",
              coalesce(pa."issueDate"::text, ${SG_DAY('pa."createdAt"')}) as "issueDay", ${SG_DAY('pa."updatedAt"')} as "changedDay",
              (select coalesce(sum(ip.amount), 0) from invoice_payments ip join invoices i on i.id = ip."invoiceId"
                where i."paymentAdviceId" = pa.id and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success')::text as received,
              coalesce((select json_agg(json_build_object('id', r.id, 'name', r.name, 'amount', r.amount::text, 'method', r."paymentMethod", 'day', r."receiptDate"::text,
                          'selfVoided', ${SELF_VOIDED_RECEIPT_SQL}, 'voidDay', ${SG_DAY('r."updatedAt"')}) order by r."receiptDate", r."createdAt", r.id)
                        from receipts r where r."paymentAdviceId" = pa.id and r.status <> 'deleted'), '[]'::json) as receipts
       from payment_advices pa
       where pa.id = any($1::uuid[]) and pa.status <> 'deleted' and pa."paymentStatus" <> 'draft' and pa.name is not null
         and not exists (select 1 from journal_entries e where e."documentType" = 'payment_advice' and e."documentId" = pa.id)
       order by pa.id`,
      [ids],
    );
    return writeEntries(tx, rows.flatMap(paGroupEntries));
  });
}

async function backfillCreditNotes(tx: Queryable, size: number): Promise<number> {
  return windows(tx, "credit_notes", size, async (ids) => {
    const { rows } = await tx.query<{ id: string; name: string | null; companyId: string; studentId: string; type: "suspension" | "overpaid"; summary: { subTotal?: string; gst?: string; total?: string } | null; creditNoteStatus: string; issuedDay: string; changedDay: string }>(
      `select cn.id, cn.name, cn."companyId", cn."studentId", cn.type, cn.summary, cn."creditNoteStatus",
              ${SG_DAY('coalesce(cn."approvedAt", cn."createdAt")')} as "issuedDay", ${SG_DAY('cn."updatedAt"')} as "changedDay"
       from credit_notes cn
       where cn.id = any($1::uuid[]) and cn.status <> 'deleted' and cn."creditNoteStatus" in ('issued', 'used', 'voided') and cn.type = 'suspension'
         and not exists (select 1 from journal_entries e where e."documentType" = 'credit_note' and e."documentId" = cn.id)`,
      [ids],
    );
    const entries = rows.flatMap((cn): Entry[] => {
      const head = (operation: EntryHead["operation"], day: string): EntryHead => ({
        companyId: cn.companyId, studentId: cn.studentId, day, operation, documentType: "credit_note", documentId: cn.id, documentNumber: cn.name, createdBy: null,
      });
      const figures = creditNoteFigures(cn);
      const issued = { head: head("credit_note_issued", cn.issuedDay), lines: creditNoteIssued(figures) };
      return cn.creditNoteStatus === "voided" ? [issued, { head: head("credit_note_voided", cn.changedDay), lines: creditNoteVoided(figures) }] : [issued];
    });
    return writeEntries(tx, entries);
  });
}

async function backfillRefunds(tx: Queryable, size: number): Promise<number> {
  return windows(tx, "refunds", size, async (ids) => {
    const { rows } = await tx.query<{ id: string; name: string | null; companyId: string; studentId: string; day: string }>(
      `select rf.id, rf.name, rf."companyId", rf."studentId", ${SG_DAY('rf."updatedAt"')} as day from refunds rf
       where rf.id = any($1::uuid[]) and rf.status <> 'deleted' and rf."refundStatus" = 'refunded'
         and not exists (select 1 from journal_entries e where e."documentType" = 'refund' and e."documentId" = rf.id)`,
      [ids],
    );
    const entries: Entry[] = [];
    for (const r of rows) {
      entries.push({
        head: { companyId: r.companyId, studentId: r.studentId, day: r.day, operation: "refund_refunded", documentType: "refund", documentId: r.id, documentNumber: r.name, createdBy: null },
        lines: refundRefunded(await refundFigures(tx, r.id)),
      });
    }
    return writeEntries(tx, entries);
  });
}

/**
 * Brings every PA's revenue recognition up to date (lessons delivered since the last run): the server runs it when
 * the Singapore day changes and once it listens on a day no run has begun (the mark), `npm run reconcile` before it
 * checks. Students a window of users at a time (one read of every PA's gap took 148 s on the 100k database), then the
 * mark is set and the revenue report's appended sums are folded to one row per key.
 */
export async function recogniseAllRevenue(db: Db, window = BACKFILL_WINDOW): Promise<number> {
  const started = (await db.query<{ day: string; at: string }>(`select ${SG_DAY("now()")} as day, now()::text as at`)).rows[0]!;
  const posted = await windows(db, "users", window, (ids) => recogniseWindow(db, ids));
  await db.query(
    `insert into app_internal.revenue_recognition_mark (id, day, "startedAt") values (true, $1::date, $2::timestamptz)
     on conflict (id) do update set day = excluded.day, "startedAt" = excluded."startedAt"`,
    [started.day, started.at],
  );
  await db.query(`select app_internal.revenue_summary_compact()`);
  return posted;
}

/**
 * A read finds the students (of those given) whose PAs differ; they are then locked (in id order, like every money
 * operation) and recognised again under the locks, so a concurrent operation of the same student cannot post the
 * same difference twice.
 */
export async function recogniseWindow(db: Db, ids: readonly string[]): Promise<number> {
  const gaps = await db.transaction(async (tx) => {
    await withoutJit(tx);
    return recognitionGaps(tx, ids);
  });
  const students = [...new Set(gaps.map((g) => g.studentId))].sort();
  if (!students.length) return 0;
  return financeTransaction(db, async (tx) => {
    await withoutJit(tx);
    for (const s of students) await lockStudentMoney(tx, s);
    return recogniseRevenue(tx, students, null);
  });
}

/**
 * The students whose recognition may be behind since the last full run began: those whose PAs, receipts, credit
 * notes, refunds or lessons changed after it (each finance operation recognises its own student, but a lesson moved
 * into the past does not). A change whose transaction began before the run and ended after it is caught by the next
 * day's full run.
 */
async function changedSince(db: Queryable, startedAt: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `with since as (select $1::timestamptz as t)
     select "studentId" as id from payment_advices, since where "updatedAt" > t
     union select "studentId" from receipts, since where "updatedAt" > t
     union select "studentId" from credit_notes, since where "updatedAt" > t
     union select cn."studentId" from credit_note_fees f join credit_notes cn on cn."creditNoteFeeId" = f.id, since where f."updatedAt" > t
     union select "studentId" from refunds, since where "updatedAt" > t
     union select rf."studentId" from refund_classes rc join refunds rf on rf.id = rc."refundId", since where rc."updatedAt" > t
     union select ls."studentId" from lessons l join lessons_students ls on ls."lessonId" = l.id, since where l."updatedAt" > t
     order by 1`,
    [startedAt],
  );
  return rows.map((r) => r.id);
}

/** The mark of a full recognition run begun this Singapore day, if one has. */
async function markOfToday(db: Queryable): Promise<{ day: string; at: string } | undefined> {
  return (await db.query<{ day: string; at: string }>(
    `select day::text as day, "startedAt"::text as at from app_internal.revenue_recognition_mark where day = ${SG_DAY("now()")}::date`,
  )).rows[0];
}

/**
 * Start-up's recognition: only the students changed since a full run that began earlier the same Singapore day (the
 * mark) — a restart of an up-to-date database reads no window. With no such run, the full walk is done now, or left
 * to `recogniseIfDayBegan` (`newDayWalk: "later"`: the server listens first; the walk took ~16 minutes at 100k).
 */
async function recogniseBehind(db: Db, window: number, newDayWalk: "now" | "later"): Promise<number> {
  const mark = await markOfToday(db);
  if (!mark) return newDayWalk === "now" ? recogniseAllRevenue(db, window) : 0;
  const students = await changedSince(db, mark.at);
  let posted = 0;
  for (let i = 0; i < students.length; i += window) posted += await recogniseWindow(db, students.slice(i, i + window));
  return posted;
}

/**
 * Whether any document lacks its entries: one anti-join per kind, so an up-to-date database is seen as such without
 * reading a window.
 */
async function documentsWithoutEntries(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ missing: boolean }>(
    `select exists (select 1 from payment_advices pa where pa.status <> 'deleted' and pa."paymentStatus" <> 'draft' and pa.name is not null
              and not exists (select 1 from journal_entries e where e."documentType" = 'payment_advice' and e."documentId" = pa.id))
         or exists (select 1 from credit_notes cn where cn.status <> 'deleted' and cn."creditNoteStatus" in ('issued', 'used', 'voided') and cn.type = 'suspension'
              and not exists (select 1 from journal_entries e where e."documentType" = 'credit_note' and e."documentId" = cn.id))
         or exists (select 1 from refunds rf where rf.status <> 'deleted' and rf."refundStatus" = 'refunded'
              and not exists (select 1 from journal_entries e where e."documentType" = 'refund' and e."documentId" = rf.id)) as missing`,
  );
  return rows[0]!.missing;
}

/**
 * Posts the entries every document without any implies, then the revenue recognised to date; returns how many entries
 * were written. `window`: documents read per statement. Documents posted here were written raw (a seed, an old
 * database): every student's recognition is then walked.
 */
export async function backfillLedger(db: Db, window = BACKFILL_WINDOW, { newDayWalk = "now" }: { newDayWalk?: "now" | "later" } = {}): Promise<number> {
  const documents = await financeTransaction(db, async (tx) => {
    if (!(await documentsWithoutEntries(tx))) return 0;
    return (await backfillPaymentAdvices(tx, window)) + (await backfillCreditNotes(tx, window)) + (await backfillRefunds(tx, window));
  });
  return documents + (documents ? await recogniseAllRevenue(db, window) : await recogniseBehind(db, window, newDayWalk));
}

/** The full walk a new Singapore day owes when no run has begun today: the server's, right after it listens. */
export async function recogniseIfDayBegan(db: Db, window = BACKFILL_WINDOW): Promise<number> {
  return (await markOfToday(db)) ? 0 : recogniseAllRevenue(db, window);
}
