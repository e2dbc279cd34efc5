/**
 * Withdrawals and their refunds (FINANCE.md §4 "Refund", §5; spec part 1 §2, part 2 §3, §7), each call one
 * finance transaction with its log row:
 *   withdrawal (`POST /refund` {type: withdrawal}) → enrolment `withdrawn`, lesson-students after the last
 *     lesson `withdrawn`, the class's unpaid PAs without payments `withdrawn`, a refund awaiting front desk
 *     with the class's refund line priced from the PA that billed it;
 *   update (`PATCH /refund/{id}`) → what the current step may change (front desk: classes, dates, included
 *     credit notes and deposits; sales: feedback and rating; finance: payee and method); priced again;
 *   change status → the moves of REFUND_MOVES; refunded assigns the RF number and uses the included credit
 *     notes and deposits.
 */
import type { Db, Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import {
  REFUND_MESSAGES,
  refundClassFigures,
  refundEditStep,
  refundMove,
  refundMoveErrors,
  refundMovesFrom,
  refundTotals,
  type Rating,
  type RefundDetail,
  type RefundMethod,
  type RefundRight,
  type RefundStatus,
} from "../../src/domain/finance/refund.ts";
import { creditNoteLeft } from "../../src/domain/finance/invoice.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { BOUND_MESSAGES, documentBoundError } from "../../src/domain/finance/bounds.ts";
import { amountReceived, logSnapshot, paFieldsOf, readPaRow, studentOf, writeLog, type PaRow } from "./paymentAdviceRecord.ts";
import { composePa } from "./paymentAdviceCompose.ts";
import { lockLiveInvoices, rewriteUnpaidPa } from "./paymentAdvices.ts";
import { lockDocuments, lockStudentMoney } from "./locks.ts";
import { classInformationFromWire } from "../../src/domain/finance/paymentAdviceApi.ts";
import { classBilling, receiptsOfClass } from "./classBilling.ts";
import { grantedRights } from "./creditNoteRecord.ts";
import { refundableLessonsAfter, refundCap } from "./caps.ts";
import { CAP_MESSAGES } from "../../src/domain/finance/caps.ts";
import { nextDocumentNumber } from "./numbers.ts";
import { postPaReversed, postRefund } from "./ledger.ts";
import { FinanceError, FORBIDDEN_ACTION, financeTransaction, fieldErrors, sameInstant } from "./transaction.ts";

export { grantedRights };
export type RefundRights = ReadonlySet<RefundRight>;
const cents = (v: string | null | undefined): Cents => numericToCents(v ?? "0") ?? 0;
const ENROLLED = `('enrolled', 'transferred', 'replacement', 'suspended')`;

interface RefundRow {
  id: string;
  name: string | null;
  refundStatus: RefundStatus;
  refundMethod: RefundMethod | null;
  rating: Rating | null;
  reason: string | null;
  reasonReject: string | null;
  noticeDate: string | null;
  issuedBy: string | null;
  payeeDetails: RefundDetail["payeeDetails"];
  studentFeedback: RefundDetail["studentFeedback"];
  summary: RefundDetail["summary"];
  creditNoteIds: string[];
  depositIds: string[];
  studentId: string;
  companyId: string;
  withdrawalId: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

interface RefundClassRow {
  id: string;
  classId: string | null;
  receiptId: string | null;
  deduction: string;
  unitPrice: string;
  lastLessonDate: string | null;
  leftLessonAmount: string;
  leftLessonNo: number;
  oweLessonNo: number;
  otherPayments: Array<{ name: string; amount: string }>;
}

/** The refund row's columns as RefundRow names them (a select's list, or an update's `returning`). */
const REFUND_COLUMNS = `id, name, "refundStatus", "refundMethod", rating, reason, "reasonReject", "noticeDate"::text as "noticeDate", "issuedBy", "payeeDetails", "studentFeedback",
  summary, "creditNoteIds", "depositIds", "studentId", "companyId", "withdrawalId", status,
  to_json("createdAt") #>> '{}' as "createdAt", to_json("updatedAt") #>> '{}' as "updatedAt"`;

async function readRefund(db: Queryable, id: string, forUpdate = false): Promise<RefundRow> {
  const { rows } = await db.query<RefundRow>(`select ${REFUND_COLUMNS} from refunds where id = $1${forUpdate ? " for update" : ""}`, [id]);
  const row = rows[0];
  if (!row || row.status === "deleted") throw new FinanceError(404, REFUND_MESSAGES.notFound);
  return row;
}

/** A refund's live class lines ($1: the refund), in their order. */
const CLASSES_SQL = `select id, "classId", "receiptId", deduction::text as deduction, "unitPrice"::text as "unitPrice", "lastLessonDate"::text as "lastLessonDate",
    "leftLessonAmount"::text as "leftLessonAmount", "leftLessonNo", "oweLessonNo", "otherPayments"
  from refund_classes where "refundId" = $1 and status = 'active' order by "createdAt", id`;

async function readClasses(db: Queryable, refundId: string): Promise<RefundClassRow[]> {
  const { rows } = await db.query<RefundClassRow>(CLASSES_SQL, [refundId]);
  return rows;
}

async function gstOfReceipt(db: Queryable, receiptId: string | null): Promise<GstPercent> {
  if (!receiptId) return 0;
  const { rows } = await db.query<{ gst: string }>(`select pa.gst::text as gst from receipts r join payment_advices pa on pa.id = r."paymentAdviceId" where r.id = $1`, [receiptId]);
  return Number(rows[0]?.gst ?? 0) as GstPercent;
}

const classInput = (c: RefundClassRow, gstPercent: GstPercent) => ({
  unitPrice: cents(c.unitPrice),
  leftLessonNo: c.leftLessonNo,
  oweLessonNo: c.oweLessonNo,
  deduction: cents(c.deduction),
  otherPayments: (c.otherPayments ?? []).map((p) => ({ name: p.name, amount: cents(p.amount) })),
  gstPercent,
});

/** Amounts of the included credit notes (what is left of each) and deposits, checked to be the student's and usable. */
async function includedAmounts(db: Queryable, studentId: string, creditNoteIds: readonly string[], depositIds: readonly string[]) {
  const { rows: cns } = await db.query<{ id: string; total: string | null; usedAmount: string }>(
    `select id, summary->>'total' as total, "usedAmount"::text as "usedAmount" from credit_notes where id = any($1::uuid[]) and "studentId" = $2 and "creditNoteStatus" = 'issued' and status = 'active'`,
    [creditNoteIds, studentId],
  );
  if (cns.length !== new Set(creditNoteIds).size) throw fieldErrors({ creditNoteIds: REFUND_MESSAGES.creditNoteUnknown });
  const { rows: deps } = await db.query<{ id: string; amount: string }>(
    `select id, amount::text as amount from deposits where id = any($1::uuid[]) and "studentId" = $2 and "depositStatus" = 'paid' and status = 'active'`,
    [depositIds, studentId],
  );
  if (deps.length !== new Set(depositIds).size) throw fieldErrors({ depositIds: REFUND_MESSAGES.depositUnknown });
  return { creditNotes: cns.map((c) => creditNoteLeft(cents(c.total), cents(c.usedAmount))), deposits: deps.map((d) => cents(d.amount)) };
}

/**
 * Prices every class line and the refund (the stored figures are the server's, never the browser's); returns the
 * refund row as priced. The lines are read with their receipt's GST rate and written back in one statement each.
 */
async function price(tx: Queryable, refund: Pick<RefundRow, "id" | "studentId" | "creditNoteIds" | "depositIds">): Promise<RefundRow> {
  const { rows: classes } = await tx.query<RefundClassRow & { gst: string | null }>(
    `select c.*, (select pa.gst::text from receipts r join payment_advices pa on pa.id = r."paymentAdviceId" where r.id = c."receiptId") as gst
     from (${CLASSES_SQL}) c`,
    [refund.id],
  );
  const inputs = classes.map((c) => classInput(c, (c.receiptId ? Number(c.gst ?? 0) : 0) as GstPercent));
  if (classes.length) {
    await tx.query(`update refund_classes rc set "leftLessonAmount" = x.amount from unnest($1::uuid[], $2::numeric[]) as x(id, amount) where rc.id = x.id`, [
      classes.map((c) => c.id), inputs.map((input) => centsToNumeric(refundClassFigures(input).leftLessonAmount)),
    ]);
  }
  const included = await includedAmounts(tx, refund.studentId, refund.creditNoteIds, refund.depositIds);
  const t = refundTotals(inputs, included.creditNotes, included.deposits);
  if ([t.classAmount, t.creditNoteAmount, t.depositAmount, t.total].some((figure) => documentBoundError(figure))) throw fieldErrors({ total: BOUND_MESSAGES.document });
  const summary = { classAmount: centsToNumeric(t.classAmount), creditNoteAmount: centsToNumeric(t.creditNoteAmount), depositAmount: centsToNumeric(t.depositAmount), total: centsToNumeric(t.total) };
  const { rows } = await tx.query<RefundRow>(`update refunds set summary = $2::jsonb where id = $1 returning ${REFUND_COLUMNS}`, [refund.id, JSON.stringify(summary)]);
  return rows[0]!;
}

/** The PA a class line's receipt was paid on, and its GST rate. */
async function receiptPa(db: Queryable, receiptId: string | null): Promise<{ paymentAdviceId: string | null; gst: GstPercent }> {
  if (!receiptId) return { paymentAdviceId: null, gst: 0 };
  const { rows } = await db.query<{ paymentAdviceId: string | null; gst: string }>(
    `select r."paymentAdviceId", pa.gst::text as gst from receipts r join payment_advices pa on pa.id = r."paymentAdviceId" where r.id = $1`,
    [receiptId],
  );
  return { paymentAdviceId: rows[0]?.paymentAdviceId ?? null, gst: Number(rows[0]?.gst ?? 0) as GstPercent };
}

/** Refuses a refund whose priced total is beyond its cap (FINANCE.md §7), naming the limit. */
async function assertWithinCap(tx: Queryable, refund: Pick<RefundRow, "id" | "studentId" | "creditNoteIds" | "depositIds" | "summary">): Promise<void> {
  const lines = [];
  for (const c of await readClasses(tx, refund.id)) {
    const pa = await receiptPa(tx, c.receiptId);
    lines.push({ classId: c.classId, paymentAdviceId: pa.paymentAdviceId, lastLessonDate: c.lastLessonDate, unitPrice: cents(c.unitPrice), gstPercent: pa.gst });
  }
  const cap = await refundCap(tx, refund.studentId, lines, refund.creditNoteIds, refund.depositIds);
  if (cents(refund.summary?.total) > cap.total) {
    const message = CAP_MESSAGES.refund(cap.total, cap);
    throw new FinanceError(400, message, { total: message });
  }
}

/** Who filled the refund's fees (four eyes): the author of its create and of each update that changed its classes, credit notes or deposits. */
async function feesFilledBy(db: Queryable, refundId: string): Promise<string[]> {
  const { rows } = await db.query<{ by: string }>(
    `select distinct "createdBy" as by from refund_logs where "refundId" = $1 and "createdBy" is not null and type in ('create', 'update')
       and ("valueBefore" is null or "valueBefore"->'refundClasses' is distinct from "valueAfter"->'refundClasses'
         or "valueBefore"->'creditNoteIds' is distinct from "valueAfter"->'creditNoteIds' or "valueBefore"->'depositIds' is distinct from "valueAfter"->'depositIds')`,
    [refundId],
  );
  return rows.map((r) => r.by);
}

/** Under the locks, the included credit notes and deposits must still be unspent: another refund or a payment may have used them. */
async function assertIncludedUnspent(tx: Queryable, r: RefundRow): Promise<void> {
  const { rows: cns } = await tx.query<{ name: string | null; ok: boolean }>(
    `select name, ("creditNoteStatus" = 'issued' and status = 'active' and "studentId" = $2 and coalesce((summary->>'total')::numeric, 0) > "usedAmount") as ok
     from credit_notes where id = any($1::uuid[])`,
    [r.creditNoteIds, r.studentId],
  );
  const { rows: deps } = await tx.query<{ name: string | null; ok: boolean }>(
    `select name, ("depositStatus" = 'paid' and status = 'active' and "studentId" = $2) as ok from deposits where id = any($1::uuid[])`,
    [r.depositIds, r.studentId],
  );
  const spent = [...cns, ...deps].filter((x) => !x.ok).map((x) => x.name ?? "a draft");
  if (spent.length || cns.length !== new Set(r.creditNoteIds).size || deps.length !== new Set(r.depositIds).size) throw new FinanceError(409, CAP_MESSAGES.spent(spent));
}

/** The PA a withdrawal refunds from: the latest billing the class with a receipt (money received), else the latest billing it. */
async function refundBilling(db: Queryable, studentId: string, classId: string) {
  const [receipt] = await receiptsOfClass(db, studentId, classId);
  return (receipt ? await classBilling(db, studentId, classId, receipt.paymentAdviceId) : null) ?? classBilling(db, studentId, classId);
}

/** What is left to refund of the class billed on the PA: the lessons after the last lesson paid for and not credited (caps.ts). */
async function lessonsLeft(db: Queryable, studentId: string, classId: string, paymentAdviceId: string, lastLessonDate: string): Promise<number> {
  return (await refundableLessonsAfter(db, { studentId, classId, paymentAdviceId, lastLessonDate })).length;
}

/** The lesson-students of the class after the last lesson are withdrawn; those on or before it come back. */
async function withdrawLessons(tx: Queryable, studentId: string, classId: string, lastLessonDate: string, by: string | null): Promise<void> {
  await tx.query(
    `update lessons_students ls set status = case when l.date > $3::date then 'withdrawn' else 'not_attended' end, "updatedBy" = $4
     from lessons l where l.id = ls."lessonId" and ls."studentId" = $1 and l."classId" = $2
       and ((l.date > $3::date and ls.status in ('not_attended', 'suspended')) or (l.date <= $3::date and ls.status = 'withdrawn'))`,
    [studentId, classId, lastLessonDate, by],
  );
}

function snapshot(r: RefundRow, classes: RefundClassRow[]) {
  return {
    name: r.name,
    refundStatus: r.refundStatus,
    refundMethod: r.refundMethod,
    rating: r.rating,
    reason: r.reason,
    reasonReject: r.reasonReject,
    noticeDate: r.noticeDate,
    payeeDetails: r.payeeDetails,
    studentFeedback: r.studentFeedback,
    creditNoteIds: r.creditNoteIds,
    depositIds: r.depositIds,
    summary: r.summary,
    refundClasses: classes.map((c) => ({ classId: c.classId, receiptId: c.receiptId, lastLessonDate: c.lastLessonDate, leftLessonNo: c.leftLessonNo, oweLessonNo: c.oweLessonNo, deduction: c.deduction, unitPrice: c.unitPrice, otherPayments: c.otherPayments })),
  };
}

async function writeRefundLog(tx: Queryable, id: string, type: "create" | "update" | "change_status", before: unknown, after: unknown, by: string | null) {
  await tx.query(`insert into refund_logs ("refundId", type, "valueBefore", "valueAfter", "createdBy") values ($1, $2, $3::jsonb, $4::jsonb, $5)`, [
    id, type, before === null ? null : JSON.stringify(before), JSON.stringify(after), by,
  ]);
}

export interface WithdrawalInput {
  studentId: string;
  classId: string;
  noticeDate: string;
  lastLessonDate: string;
  reason: string | null;
  remarks: string | null;
}

/** `POST /refund` {type: withdrawal}: the withdrawal and everything it changes, and its refund, at once. */
export async function createWithdrawal(db: Db, input: WithdrawalInput, by: string | null, canCreate: boolean): Promise<{ withdrawalId: string; refundId: string }> {
  if (!canCreate) throw new FinanceError(403, FORBIDDEN_ACTION);
  return financeTransaction(db, async (tx) => {
    const { rows: enrolment } = await tx.query<{ id: string }>(
      `select id from student_classes where "userId" = $1 and "classId" = $2 and status in ${ENROLLED} order by "lessonStartDate" desc nulls last limit 1 for update`,
      [input.studentId, input.classId],
    );
    if (!enrolment[0]) throw fieldErrors({ classId: REFUND_MESSAGES.notEnrolled });
    const { rows: earlier } = await tx.query(`select 1 from withdrawals where "studentClassId" = $1 and status = 'active' and "withdrawalStatus" in ('pending', 'completed') limit 1`, [enrolment[0].id]);
    if (earlier.length) throw fieldErrors({ classId: REFUND_MESSAGES.alreadyWithdrawn });
    const { rows: w } = await tx.query<{ id: string }>(
      `insert into withdrawals ("studentId", "classId", "studentClassId", "withdrawalDate", "lastLessonDate", reason, remarks, "createdBy", "updatedBy")
       values ($1, $2, $3, $4::date, $5::date, $6, $7, $8, $8) returning id`,
      [input.studentId, input.classId, enrolment[0].id, input.noticeDate, input.lastLessonDate, input.reason, input.remarks, by],
    );
    await tx.query(`update student_classes set status = 'withdrawn', "endDate" = $2::date, "updatedBy" = $3 where id = $1`, [enrolment[0].id, input.lastLessonDate, by]);
    await withdrawLessons(tx, input.studentId, input.classId, input.lastLessonDate, by);
    await withdrawUnpaidPas(tx, input.studentId, input.classId, by);

    const billing = await refundBilling(tx, input.studentId, input.classId);
    const { rows: cls } = await tx.query<{ companyId: string | null }>(`select "companyId" from classes where id = $1`, [input.classId]);
    const companyId = billing?.companyId ?? cls[0]?.companyId;
    if (!companyId) throw fieldErrors({ classId: "The class has no company." });
    const receipt = billing ? (await receiptsOfClass(tx, input.studentId, input.classId)).find((r) => r.paymentAdviceId === billing.paymentAdviceId) : undefined;
    // the student's issued credit notes and paid deposits start included: a refund should not leave money out
    const { rows: credit } = await tx.query<{ id: string }>(
      `select id from credit_notes where "studentId" = $1 and "creditNoteStatus" = 'issued' and status = 'active' and coalesce((summary->>'total')::numeric, 0) > "usedAmount" order by name, id`,
      [input.studentId],
    );
    const { rows: held } = await tx.query<{ id: string }>(`select id from deposits where "studentId" = $1 and "depositStatus" = 'paid' and status = 'active' order by name, id`, [input.studentId]);
    const { rows: refund } = await tx.query<{ id: string }>(
      `insert into refunds (type, "refundStatus", reason, "noticeDate", "studentId", "companyId", "withdrawalId", "creditNoteIds", "depositIds", "createdBy", "updatedBy")
       values ('withdrawal', 'awaiting_front_desk_action', $1, $2::date, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $8) returning id`,
      [input.reason, input.noticeDate, input.studentId, companyId, w[0]!.id, JSON.stringify(credit.map((c) => c.id)), JSON.stringify(held.map((d) => d.id)), by],
    );
    const refundId = refund[0]!.id;
    await tx.query(
      `insert into refund_classes ("refundId", "classId", "receiptId", "unitPrice", "lastLessonDate", "leftLessonNo", "createdBy", "updatedBy") values ($1, $2, $3, $4::numeric, $5::date, $6, $7, $7)`,
      [refundId, input.classId, receipt?.id ?? null, centsToNumeric(billing?.unitPrice ?? 0), input.lastLessonDate, billing ? await lessonsLeft(tx, input.studentId, input.classId, billing.paymentAdviceId, input.lastLessonDate) : 0, by],
    );
    const priced = await price(tx, await readRefund(tx, refundId));
    await writeRefundLog(tx, refundId, "create", null, snapshot(priced, await readClasses(tx, refundId)), by);
    return { withdrawalId: w[0]!.id, refundId };
  });
}

/**
 * Withdrawal per class card (FINANCE.md §4): each unpaid PA of the student billing the class, with nothing
 * received, is priced again by the PA's own functions — the class's lessons after the last lesson date
 * leave it (composePa reads the withdrawn enrolment's end date), a card left without lessons leaves it —
 * and edited (logged; its invoice follows). A PA with nothing left is `withdrawn`: its invoice voided, the
 * deposits it deducted back to `paid`, the ones it would have collected dropped. PAs with payments stay
 * as they are (the refund settles them).
 */
async function withdrawUnpaidPas(tx: Queryable, studentId: string, classId: string, by: string | null): Promise<void> {
  await lockStudentMoney(tx, studentId);
  const { rows } = await tx.query<{ id: string }>(
    `select id from payment_advices pa where "studentId" = $1 and status = 'active' and "paymentStatus" = 'unpaid'
       and exists (select 1 from jsonb_array_elements(pa."classInformations") card where card->>'id' = $2)`,
    [studentId, classId],
  );
  const paIds = await lockDocuments(tx, "payment_advices", rows.map((r) => r.id));
  const invoices = new Map<string, string[]>();
  for (const id of paIds) invoices.set(id, await lockLiveInvoices(tx, id));
  const { rows: deposits } = await tx.query<{ id: string }>(`select id from deposits where "paymentAdviceId" = any($1::uuid[]) or "studentId" = $2`, [paIds, studentId]);
  await lockDocuments(tx, "deposits", deposits.map((d) => d.id));
  for (const id of paIds) {
    if ((await amountReceived(tx, id)) > 0) continue;
    const before = await readPaRow(tx, id);
    const fields = { ...paFieldsOf(before), classInformations: before.classInformations.map(classInformationFromWire) };
    const applied = fields.classInformations.flatMap((c) => (c.isDeductedDeposit ? c.deductedDeposit.map((d) => d.depositId ?? "") : []));
    // Which cards still bill a lesson: priced without deductions (a PA about to lose a card could otherwise come out negative).
    const lessonsOnly = { ...fields, classInformations: fields.classInformations.map((c) => ({ ...c, deductions: [], deductedDeposit: [], isDeductedDeposit: false })) };
    const priced = await composePa(tx, lessonsOnly, { issued: false, paId: id, checkQrExpiry: false, repricing: true });
    // Cards of the withdrawn class that bill no lesson any more leave the PA with everything on them.
    const kept = fields.classInformations.filter((c, i) => c.id !== classId || priced.totals.cards[i]!.totals.lessons > 0);
    if (!kept.length) {
      await withdrawWholePa(tx, before, invoices.get(id) ?? [], by);
      continue;
    }
    const composed = await composePa(tx, { ...fields, classInformations: kept }, { issued: true, paId: id, allowedDepositIds: applied, checkQrExpiry: false, repricing: true });
    const billed = (cards: ReadonlyArray<{ id: string; responses?: { lessonIds?: string[] } }>) => JSON.stringify(cards.map((c) => [c.id, c.responses?.lessonIds ?? []]));
    if (billed(composed.columns.classInformations) === billed(before.classInformations) && composed.columns.summary.total === before.summary?.total) continue;
    await rewriteUnpaidPa(tx, before, composed, invoices.get(id) ?? [], by, { withdrawnClassId: classId });
  }
}

/** Nothing left to bill: the PA is withdrawn, its invoice voided, its deducted deposits back to `paid`. */
async function withdrawWholePa(tx: Queryable, before: PaRow, invoiceIds: readonly string[], by: string | null): Promise<void> {
  const applied = before.classInformations.flatMap((c) => (c.isDeductedDeposit ? (c.deductedDeposit ?? []).map((d) => d.depositId).filter((x): x is string => Boolean(x)) : []));
  await tx.query(`update invoices set "invoiceStatus" = 'voided', reasons = 'Withdrawn', "updatedBy" = $2 where id = any($1::uuid[])`, [invoiceIds, by]);
  await tx.query(`update deposits set status = 'deleted', "updatedBy" = $2 where "paymentAdviceId" = $1 and "depositStatus" = 'issued' and status <> 'deleted'`, [before.id, by]);
  if (applied.length) await tx.query(`update deposits set "depositStatus" = 'paid', "updatedBy" = $2 where id = any($1::uuid[]) and "depositStatus" = 'used'`, [applied, by]);
  await tx.query(`update payment_advices set "paymentStatus" = 'withdrawn', "updatedBy" = $2 where id = $1`, [before.id, by]);
  await postPaReversed(tx, before.id, "pa_withdrawn", by);
  const student = await studentOf(tx, before.studentId);
  await writeLog(tx, before.id, "change_status", logSnapshot(before, student), logSnapshot(await readPaRow(tx, before.id), student, { releasedDepositIds: applied }), by);
}

export interface RefundClassUpdate {
  id: string;
  lastLessonDate?: string;
  oweLessonNo?: number;
  deduction?: Cents;
  otherPayments?: Array<{ name: string; amount: Cents }>;
  receiptId?: string | null;
}

export interface RefundUpdate {
  updatedAt: string;
  reason?: string | null;
  noticeDate?: string;
  classes?: RefundClassUpdate[];
  creditNoteIds?: string[];
  depositIds?: string[];
  studentFeedback?: { feedback: string } | null;
  rating?: Rating | null;
  payeeDetails?: { name?: string; bankName?: string; accountNo?: string; contact?: string } | null;
  refundMethod?: RefundMethod | null;
  reasonReject?: string | null;
}

const STEP_FIELDS: Record<RefundRight, ReadonlyArray<keyof RefundUpdate>> = {
  "complete-front-desk": ["reason", "noticeDate", "classes", "creditNoteIds", "depositIds"],
  "sales-step": ["studentFeedback", "rating", "reasonReject"],
  approve: ["payeeDetails", "refundMethod", "reasonReject", "creditNoteIds", "depositIds"],
  reject: [],
};

async function assertFresh(tx: Queryable, row: RefundRow, updatedAt: string) {
  if (!(await sameInstant(tx, row.updatedAt, updatedAt))) throw new FinanceError(409, REFUND_MESSAGES.stale);
}

/** `PATCH /refund/{id}`: the fields of the current step (others are refused), priced again, one update log. */
export async function updateRefund(db: Db, id: string, input: RefundUpdate, by: string | null, rights: RefundRights): Promise<RefundRow> {
  return financeTransaction(db, async (tx) => {
    // FINANCE.md §1 lock order: the student's money first (a new last lesson date reprices the student's unpaid PAs)
    await lockStudentMoney(tx, (await readRefund(tx, id)).studentId);
    const before = await readRefund(tx, id, true);
    const step = refundEditStep(before.refundStatus);
    if (!step) throw new FinanceError(400, REFUND_MESSAGES.notEditable);
    if (!rights.has(step)) throw new FinanceError(403, FORBIDDEN_ACTION);
    await assertFresh(tx, before, input.updatedAt);
    const allowed = STEP_FIELDS[step];
    const offending = (Object.keys(input) as (keyof RefundUpdate)[]).filter((k) => k !== "updatedAt" && input[k] !== undefined && !allowed.includes(k));
    if (offending.length) throw new FinanceError(400, REFUND_MESSAGES.notEditable, Object.fromEntries(offending.map((k) => [k, REFUND_MESSAGES.notEditable])));
    const classesBefore = await readClasses(tx, id);
    for (const c of input.classes ?? []) await updateClass(tx, before, classesBefore, c, by);
    const set: Record<string, unknown> = {};
    for (const k of ["reason", "noticeDate", "rating", "refundMethod", "reasonReject"] as const) if (input[k] !== undefined) set[k] = input[k];
    for (const k of ["creditNoteIds", "depositIds", "studentFeedback", "payeeDetails"] as const) if (input[k] !== undefined) set[k] = JSON.stringify(input[k]);
    const keys = Object.keys(set);
    if (keys.length) {
      const jsonb = new Set(["creditNoteIds", "depositIds", "studentFeedback", "payeeDetails"]);
      await tx.query(
        `update refunds set ${keys.map((k, i) => `"${k}" = $${i + 2}${jsonb.has(k) ? "::jsonb" : k === "noticeDate" ? "::date" : ""}`).join(", ")}, "updatedBy" = $${keys.length + 2} where id = $1`,
        [id, ...keys.map((k) => set[k]), by],
      );
    } else {
      await tx.query(`update refunds set "updatedBy" = $2 where id = $1`, [id, by]);
    }
    const after = await price(tx, await readRefund(tx, id));
    if (input.classes !== undefined || input.creditNoteIds !== undefined || input.depositIds !== undefined) await assertWithinCap(tx, after);
    await writeRefundLog(tx, id, "update", snapshot(before, classesBefore), snapshot(after, await readClasses(tx, id)), by);
    return after;
  });
}

async function updateClass(tx: Queryable, refund: RefundRow, classes: RefundClassRow[], c: RefundClassUpdate, by: string | null): Promise<void> {
  const line = classes.find((x) => x.id === c.id);
  if (!line?.classId) throw fieldErrors({ classes: REFUND_MESSAGES.class });
  const receiptId = c.receiptId !== undefined ? c.receiptId : line.receiptId;
  let billing = null;
  if (receiptId) {
    const receipt = (await receiptsOfClass(tx, refund.studentId, line.classId)).find((r) => r.id === receiptId);
    if (!receipt) throw fieldErrors({ receiptId: "This receipt is not one of the class's." });
    billing = await classBilling(tx, refund.studentId, line.classId, receipt.paymentAdviceId);
  }
  const lastLessonDate = c.lastLessonDate ?? line.lastLessonDate;
  if (!lastLessonDate) throw fieldErrors({ lastLessonDate: REFUND_MESSAGES.lastLessonDate });
  if (c.lastLessonDate && c.lastLessonDate !== line.lastLessonDate) {
    await withdrawLessons(tx, refund.studentId, line.classId, c.lastLessonDate, by);
    await tx.query(`update student_classes set "endDate" = $3::date where "userId" = $1 and "classId" = $2 and status = 'withdrawn'`, [refund.studentId, line.classId, c.lastLessonDate]);
    if (refund.withdrawalId) await tx.query(`update withdrawals set "lastLessonDate" = $2::date where id = $1`, [refund.withdrawalId, c.lastLessonDate]);
    // the unpaid PAs billing the class follow the new date in the same call, as they did when the withdrawal was made
    await withdrawUnpaidPas(tx, refund.studentId, line.classId, by);
  }
  const leftLessonNo = billing ? await lessonsLeft(tx, refund.studentId, line.classId, billing.paymentAdviceId, lastLessonDate) : receiptId ? line.leftLessonNo : 0;
  const oweLessonNo = c.oweLessonNo ?? line.oweLessonNo;
  if (!Number.isInteger(oweLessonNo) || oweLessonNo < 0) throw fieldErrors({ oweLessonNo: "The owed lessons must be a whole number, 0 or more." });
  await tx.query(
    `update refund_classes set "receiptId" = $2, "unitPrice" = $3::numeric, "lastLessonDate" = $4::date, "leftLessonNo" = $5, "oweLessonNo" = $6, deduction = $7::numeric, "otherPayments" = $8::jsonb, "updatedBy" = $9 where id = $1`,
    [
      line.id,
      receiptId,
      billing ? centsToNumeric(billing.unitPrice) : receiptId ? line.unitPrice : "0.00",
      lastLessonDate,
      leftLessonNo,
      oweLessonNo,
      c.deduction !== undefined ? centsToNumeric(c.deduction) : line.deduction,
      JSON.stringify(c.otherPayments ? c.otherPayments.map((p) => ({ name: p.name, amount: centsToNumeric(p.amount) })) : line.otherPayments),
      by,
    ],
  );
}

/** What a move needs filled in, from the saved refund (the domain's rule, which the page checks first). */
function moveErrors(r: RefundRow, classes: RefundClassRow[], to: RefundStatus, reasonReject: string | null | undefined): Record<string, string> {
  return refundMoveErrors(
    { noticeDate: r.noticeDate, lastLessonDates: classes.map((c) => c.lastLessonDate), reason: r.reason, feedback: r.studentFeedback?.feedback, rating: r.rating,
      reasonReject: reasonReject ?? r.reasonReject, payeeName: r.payeeDetails?.name, refundMethod: r.refundMethod, total: cents(r.summary?.total) },
    to,
  );
}

/** `PATCH /refund/{id}/change-refund-status`. */
export async function changeRefundStatus(db: Db, id: string, input: { status: RefundStatus; updatedAt: string; reasonReject?: string | null }, by: string | null, rights: RefundRights): Promise<RefundRow> {
  return financeTransaction(db, async (tx) => {
    // FINANCE.md §1 lock order: the student's money first, then the refund, then the documents it spends
    await lockStudentMoney(tx, (await readRefund(tx, id)).studentId);
    const before = await readRefund(tx, id, true);
    const move = refundMove(before.refundStatus, input.status);
    if (!move) throw new FinanceError(400, REFUND_MESSAGES.moveNotAllowed);
    if (!rights.has(move.right)) throw new FinanceError(403, FORBIDDEN_ACTION);
    await assertFresh(tx, before, input.updatedAt);
    const classes = await readClasses(tx, id);
    if (input.status === "refunded") {
      if (by && (await feesFilledBy(tx, id)).includes(by)) throw new FinanceError(403, REFUND_MESSAGES.fourEyes);
      const pas = [];
      for (const c of classes) pas.push((await receiptPa(tx, c.receiptId)).paymentAdviceId);
      await lockDocuments(tx, "payment_advices", pas.filter((x): x is string => !!x));
      await lockDocuments(tx, "credit_notes", before.creditNoteIds);
      await lockDocuments(tx, "deposits", before.depositIds);
      await assertIncludedUnspent(tx, before);
    }
    const priced = await price(tx, before);
    const errors = moveErrors(priced, classes, input.status, input.reasonReject);
    if (Object.keys(errors).length) throw fieldErrors(errors);
    if (input.status !== "rejected_by_sale" && input.status !== "rejected_by_finance") await assertWithinCap(tx, priced);
    // the reason, number and issuer set with the status below, in one update
    const name = input.status === "refunded" ? await nextDocumentNumber(tx, "refund", before.companyId, Number(todayInSingapore().slice(0, 4))) : null;
    if (input.status === "refunded") {
      for (const cnId of priced.creditNoteIds) {
        await tx.query(`update credit_notes set "creditNoteStatus" = 'used', "usedAmount" = (summary->>'total')::numeric, "updatedBy" = $2 where id = $1`, [cnId, by]);
        await tx.query(`insert into credit_note_logs ("creditNoteId", type, "valueBefore", "valueAfter", "createdBy") values ($1, 'change_status', $2::jsonb, $3::jsonb, $4)`, [
          cnId, JSON.stringify({ creditNoteStatus: "issued" }), JSON.stringify({ creditNoteStatus: "used", refundId: id }), by,
        ]);
      }
      // paid back to the payer: `refunded`, not `used` (a deduction on a later PA)
      if (priced.depositIds.length) await tx.query(`update deposits set "depositStatus" = 'refunded', "updatedBy" = $2 where id = any($1::uuid[])`, [priced.depositIds, by]);
    }
    const set: Array<[string, unknown]> = [["refundStatus", input.status], ["updatedBy", by]];
    if (input.reasonReject !== undefined) set.push(["reasonReject", input.reasonReject]);
    if (name) set.push(["name", name], ["issuedBy", by]);
    const { rows: changed } = await tx.query<RefundRow>(
      `update refunds set ${set.map(([column], i) => `"${column}" = $${i + 2}`).join(", ")} where id = $1 returning ${REFUND_COLUMNS}`,
      [id, ...set.map(([, value]) => value)],
    );
    if (input.status === "refunded") await postRefund(tx, changed[0]!, by);
    if (before.withdrawalId && (input.status === "refunded" || input.status === "rejected_by_sale" || input.status === "rejected_by_finance")) {
      await tx.query(`update withdrawals set "withdrawalStatus" = $2, "updatedBy" = $3 where id = $1`, [before.withdrawalId, input.status === "refunded" ? "completed" : "rejected", by]);
    }
    const after = changed[0]!;
    await writeRefundLog(tx, id, "change_status", snapshot(before, classes), snapshot(after, classes), by);
    return after;
  });
}

/** `GET /refund/{id}`. */
export async function refundDetail(db: Queryable, id: string, rights: RefundRights, viewer: string | null = null): Promise<RefundDetail> {
  const r = await readRefund(db, id);
  const filledByViewer = !!viewer && (await feesFilledBy(db, id)).includes(viewer);
  const classes = await readClasses(db, id);
  const names = classes.length
    ? (await db.query<{ id: string; name: string }>(`select id, name from classes where id = any($1::uuid[])`, [classes.map((c) => c.classId)])).rows
    : [];
  const lines = [];
  for (const c of classes) {
    const gstPercent = await gstOfReceipt(db, c.receiptId);
    const f = refundClassFigures(classInput(c, gstPercent));
    const receipts = c.classId ? (await receiptsOfClass(db, r.studentId, c.classId)).map(({ id: rid, name, amount, receiptDate }) => ({ id: rid, name, amount, receiptDate })) : [];
    lines.push({
      id: c.id,
      classId: c.classId,
      className: names.find((n) => n.id === c.classId)?.name ?? null,
      receiptId: c.receiptId,
      receiptName: receipts.find((x) => x.id === c.receiptId)?.name ?? null,
      unitPrice: c.unitPrice,
      lastLessonDate: c.lastLessonDate,
      leftLessonNo: c.leftLessonNo,
      leftLessonAmount: centsToNumeric(f.leftLessonAmount),
      oweLessonNo: c.oweLessonNo,
      deduction: c.deduction,
      otherPayments: c.otherPayments ?? [],
      gstPercent,
      gst: centsToNumeric(f.gst),
      amount: centsToNumeric(f.amount),
      receipts,
    });
  }
  const { rows: cns } = await db.query<{ id: string; name: string; total: string | null; usedAmount: string }>(
    `select id, name, summary->>'total' as total, "usedAmount"::text as "usedAmount" from credit_notes
     where "studentId" = $1 and status = 'active' and ("creditNoteStatus" = 'issued' or id = any($2::uuid[])) order by name`,
    [r.studentId, r.creditNoteIds],
  );
  const { rows: deps } = await db.query<{ id: string; name: string; amount: string }>(
    `select id, name, amount::text as amount from deposits where "studentId" = $1 and status = 'active' and ("depositStatus" = 'paid' or id = any($2::uuid[])) order by name`,
    [r.studentId, r.depositIds],
  );
  const step = refundEditStep(r.refundStatus);
  const person = (userId: string | null) => (userId ? studentOf(db, userId) : null);
  return {
    id: r.id,
    name: r.name,
    type: "withdrawal",
    refundStatus: r.refundStatus,
    refundMethod: r.refundMethod,
    rating: r.rating,
    reason: r.reason,
    reasonReject: r.reasonReject,
    noticeDate: r.noticeDate,
    issuedBy: await person(r.issuedBy),
    payeeDetails: r.payeeDetails,
    studentFeedback: r.studentFeedback,
    summary: r.summary,
    student: await person(r.studentId),
    companyId: r.companyId,
    withdrawalId: r.withdrawalId,
    classes: lines,
    creditNoteIds: r.creditNoteIds,
    depositIds: r.depositIds,
    creditNoteChoices: cns.map((c) => ({ id: c.id, name: c.name, amount: centsToNumeric(creditNoteLeft(cents(c.total), cents(c.usedAmount))) })),
    depositChoices: deps.map((d) => ({ id: d.id, name: d.name, amount: d.amount })),
    moves: refundMovesFrom(r.refundStatus).filter((m) => rights.has(m.right) && !(m.to === "refunded" && filledByViewer)).map((m) => ({ to: m.to, label: m.label })),
    editStep: step && rights.has(step) ? step : null,
    updatedAt: r.updatedAt,
    createdAt: r.createdAt,
  };
}

/** `GET /classes/classes-not-refund`: the student's classes with a live enrolment and no withdrawal yet. */
export async function classesNotRefunded(db: Queryable, studentId: string) {
  const { rows } = await db.query<{ id: string; name: string; classCode: string | null; lastLessonDate: string | null }>(
    `select c.id, c.name, c."classCode",
       (select max(l.date)::text from lessons_students ls join lessons l on l.id = ls."lessonId"
        where ls."studentId" = $1 and l."classId" = c.id and l.status = 'active' and l.date <= (now() at time zone 'Asia/Singapore')::date) as "lastLessonDate"
     from student_classes sc join classes c on c.id = sc."classId"
     where sc."userId" = $1 and sc.status in ${ENROLLED} and c.status = 'active'
       and not exists (select 1 from withdrawals w where w."studentClassId" = sc.id and w.status = 'active' and w."withdrawalStatus" in ('pending', 'completed'))
     order by c.name`,
    [studentId],
  );
  return rows;
}

/** `POST /classes/get-class-infor-for-refund`: what the class's refund line would be for a last lesson date. */
export async function classInformationForRefund(db: Queryable, q: { studentId: string; classId: string; lastLessonDate: string }) {
  const billing = await refundBilling(db, q.studentId, q.classId);
  const leftLessonNo = billing ? await lessonsLeft(db, q.studentId, q.classId, billing.paymentAdviceId, q.lastLessonDate) : 0;
  const receipts = await receiptsOfClass(db, q.studentId, q.classId);
  const f = refundClassFigures({ unitPrice: billing?.unitPrice ?? 0, leftLessonNo, oweLessonNo: 0, deduction: 0, otherPayments: [], gstPercent: billing?.gst ?? 0 });
  return {
    classId: q.classId,
    paymentAdviceId: billing?.paymentAdviceId ?? null,
    unitPrice: centsToNumeric(billing?.unitPrice ?? 0),
    gst: billing?.gst ?? 0,
    leftLessonNo,
    leftLessonAmount: centsToNumeric(f.leftLessonAmount),
    amount: centsToNumeric(f.amount),
    receipts: receipts.map(({ id, name, amount, receiptDate }) => ({ id, name, amount, receiptDate })),
  };
}
