/**
 * The caps of FINANCE.md §7 for credit notes and refunds, read from the documents. Callers hold the
 * student's money lock (locks.ts) so that what is read here cannot be spent by another request before
 * the caller writes; these are the functions to switch to ledger balances once the ledger exists.
 */
import type { Queryable } from "../db/index.ts";
import { numericToCents, type Cents } from "../../src/domain/money.ts";
import { lessonsPaidFor, refundableLessons } from "../../src/domain/finance/caps.ts";
import { refundClassFigures } from "../../src/domain/finance/refund.ts";
import { creditNoteLeft } from "../../src/domain/finance/invoice.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { amountReceived } from "./paymentAdviceRecord.ts";

const cents = (v: string | null | undefined): Cents => numericToCents(v ?? "0") ?? 0;

/** The class's billed lessons on a live PA in date order and how many of them its payments paid for. */
async function paidLessonsOfClass(db: Queryable, paymentAdviceId: string, classId: string): Promise<{ billed: string[]; paid: number }> {
  const { rows } = await db.query<{ totalPayable: string | null; lessonIds: string[] | null }>(
    `select pa."paymentSummaryStatic"->>'totalPayable' as "totalPayable", card->'responses'->'lessonIds' as "lessonIds"
     from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") card
     where pa.id = $1 and card->>'id' = $2 and pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') limit 1`,
    [paymentAdviceId, classId],
  );
  if (!rows[0]) return { billed: [], paid: 0 };
  const { rows: ordered } = await db.query<{ id: string }>(`select id from lessons where id = any($1::uuid[]) order by date, id`, [rows[0].lessonIds ?? []]);
  const billed = ordered.map((r) => r.id);
  return { billed, paid: lessonsPaidFor(billed.length, await amountReceived(db, paymentAdviceId), cents(rows[0].totalPayable)) };
}

/** Lessons of the student's class already credited by a suspension credit note that is not rejected or voided. */
async function creditedLessons(db: Queryable, studentId: string, classId: string, exceptCreditNoteId: string | null): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `select distinct l.value as id from credit_notes cn join credit_note_classes c on c.id = cn."creditNoteClassId"
       cross join lateral jsonb_array_elements_text(c."lessonIds") l
     where cn."studentId" = $1 and c."classId" = $2 and cn.type = 'suspension' and cn.status = 'active'
       and cn."creditNoteStatus" not in ('rejected', 'voided', 'delete') and ($3::uuid is null or cn.id <> $3::uuid)`,
    [studentId, classId, exceptCreditNoteId],
  );
  return rows.map((r) => r.id);
}

/**
 * The suspended lessons a credit note may credit: billed on the PA, paid for, and not credited by another
 * credit note of the class (FINANCE.md §7 "a credit note for lessons is at most what was paid for those
 * lessons not yet credited").
 */
export async function creditableLessons(db: Queryable, q: { studentId: string; classId: string; paymentAdviceId: string; lessonIds: readonly string[]; creditNoteId: string | null }): Promise<string[]> {
  const { billed, paid } = await paidLessonsOfClass(db, q.paymentAdviceId, q.classId);
  return refundableLessons(billed, paid, q.lessonIds, await creditedLessons(db, q.studentId, q.classId, q.creditNoteId));
}

/** The billed lessons after the last lesson date that were paid for and not credited: what a withdrawal refunds. */
export async function refundableLessonsAfter(db: Queryable, q: { studentId: string; classId: string; paymentAdviceId: string; lastLessonDate: string }): Promise<string[]> {
  const { billed, paid } = await paidLessonsOfClass(db, q.paymentAdviceId, q.classId);
  if (!billed.length) return [];
  const { rows } = await db.query<{ id: string }>(
    `select id from lessons where id = any($1::uuid[]) and date > $2::date and status = 'active' and "lessonStatus" = 'active'`,
    [billed, q.lastLessonDate],
  );
  return refundableLessons(billed, paid, rows.map((r) => r.id), await creditedLessons(db, q.studentId, q.classId, null));
}

export interface RefundLineForCap {
  classId: string | null;
  paymentAdviceId: string | null;
  lastLessonDate: string | null;
  unitPrice: Cents;
  gstPercent: GstPercent;
}

export interface RefundCap {
  lessons: Cents;
  creditNotes: Cents;
  deposits: Cents;
  total: Cents;
}

/**
 * The most a refund may pay out (FINANCE.md §7): what was paid for its classes' lessons not delivered (with
 * GST, at the billed price) plus what is left of the issued credit notes and the paid deposits it includes
 * — the student's customer credit and deposits held that this refund spends.
 */
export async function refundCap(db: Queryable, studentId: string, lines: readonly RefundLineForCap[], creditNoteIds: readonly string[], depositIds: readonly string[]): Promise<RefundCap> {
  let lessons = 0;
  for (const line of lines) {
    if (!line.classId || !line.paymentAdviceId || !line.lastLessonDate) continue;
    const n = (await refundableLessonsAfter(db, { studentId, classId: line.classId, paymentAdviceId: line.paymentAdviceId, lastLessonDate: line.lastLessonDate })).length;
    lessons += refundClassFigures({ unitPrice: line.unitPrice, leftLessonNo: n, oweLessonNo: 0, deduction: 0, otherPayments: [], gstPercent: line.gstPercent }).amount;
  }
  const { rows: cns } = await db.query<{ total: string | null; usedAmount: string }>(
    `select summary->>'total' as total, "usedAmount"::text as "usedAmount" from credit_notes
     where id = any($1::uuid[]) and "studentId" = $2 and "creditNoteStatus" = 'issued' and status = 'active'`,
    [creditNoteIds, studentId],
  );
  const creditNotes = cns.reduce((s, c) => s + creditNoteLeft(cents(c.total), cents(c.usedAmount)), 0);
  const { rows: deps } = await db.query<{ amount: string }>(
    `select amount::text as amount from deposits where id = any($1::uuid[]) and "studentId" = $2 and "depositStatus" = 'paid' and status = 'active'`,
    [depositIds, studentId],
  );
  const deposits = deps.reduce((s, d) => s + cents(d.amount), 0);
  return { lessons, creditNotes, deposits, total: lessons + creditNotes + deposits };
}

/**
 * The most an overpaid credit note from this receipt may credit: what its live invoice received beyond its
 * total, less the other overpaid credit notes of the PA that are not rejected or voided. Null when the
 * invoice is voided (a void of a paid PA credits what it received; paymentAdvices.ts caps that).
 */
export async function overpaidCap(db: Queryable, receiptId: string, exceptCreditNoteId: string | null): Promise<Cents | null> {
  const { rows } = await db.query<{ paymentAdviceId: string; paid: string; total: string; invoiceStatus: string }>(
    `select i."paymentAdviceId", i."paidAmount"::text as paid, i.total::text as total, i."invoiceStatus"
     from receipts r join invoices i on i.id = r."invoiceId" where r.id = $1 and i.status <> 'deleted'`,
    [receiptId],
  );
  const inv = rows[0];
  if (!inv || inv.invoiceStatus === "voided") return null;
  const { rows: others } = await db.query<{ total: string }>(
    `select coalesce(sum((summary->>'total')::numeric), 0)::text as total from credit_notes
     where "paymentAdviceId" = $1 and type = 'overpaid' and status = 'active' and "creditNoteStatus" not in ('rejected', 'voided', 'delete') and ($2::uuid is null or id <> $2::uuid)`,
    [inv.paymentAdviceId, exceptCreditNoteId],
  );
  return Math.max(0, cents(inv.paid) - cents(inv.total) - cents(others[0]?.total));
}
