/**
 * The credit-note workflow (FINANCE.md §4 "Credit note", §5; spec part 2 §2–5, §7), each call one finance
 * transaction with its log row:
 *   suspension → enrolment and the period's lesson-students `suspended`, a suspension credit note
 *     awaiting front desk (its class block filled from the suspension);
 *   update → front desk edits the period (the suspended lessons follow), finance the pro-rated fees;
 *     the server prices it (creditNoteTotals) from the receipt's PA: unit price of the class, GST rate;
 *   change status → the moves of CREDIT_NOTE_MOVES, each asking its right; approve assigns the CN number;
 *   duplicate → a copy awaiting finance action, logged "Duplicate from CN {name}".
 */
import type { Db, Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import {
  CREDIT_NOTE_MESSAGES,
  creditNoteEditStep,
  creditNoteMove,
  creditNoteMoveErrors,
  creditNoteMovesFrom,
  creditNoteVoidRefusal,
  creditNoteTotals,
  type CreditNoteClassInformation,
  type CreditNoteDetail,
  type CreditNoteStatus,
} from "../../src/domain/finance/creditNote.ts";
import { creditNoteLeft } from "../../src/domain/finance/invoice.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { classBilling, receiptsOfClass, studentReceipt } from "./classBilling.ts";
import { assertCreditNoteFresh, creditNoteSnapshot, readCreditNote, writeCreditNoteLog, type CnRow, type CreditNoteRights } from "./creditNoteRecord.ts";
import { nextDocumentNumber } from "./numbers.ts";
import { postCreditNote } from "./ledger.ts";
import { creditableLessons, overpaidCap } from "./caps.ts";
import { lockDocuments, lockStudentMoney } from "./locks.ts";
import { CAP_MESSAGES } from "../../src/domain/finance/caps.ts";
import { studentOf } from "./paymentAdviceRecord.ts";
import { FinanceError, FORBIDDEN_ACTION, financeTransaction, fieldErrors } from "./transaction.ts";

const cents = (v: string | null | undefined): Cents => numericToCents(v ?? "0") ?? 0;
const ENROLLED = `('enrolled', 'transferred', 'replacement', 'suspended')`;

export interface SuspensionInput {
  studentId: string;
  classId: string;
  startDate: string;
  endDate: string;
  reason: string | null;
  remarks: string | null;
}

interface PeriodLessons {
  className: string;
  companyId: string | null;
  terms: CreditNoteClassInformation["terms"];
  lessons: Array<{ id: string; lessonStudentId: string; date: string; termId: string | null }>;
}

/** The student's lessons of the class in the period that can still be suspended (not attended, not cancelled). */
async function periodLessons(db: Queryable, studentId: string, classId: string, startDate: string, endDate: string, alsoSuspended: readonly string[] = []): Promise<PeriodLessons> {
  const { rows: cls } = await db.query<{ name: string; companyId: string | null; academicCalendarId: string | null }>(
    `select name, "companyId", "academicCalendarId" from classes where id = $1 and status = 'active'`,
    [classId],
  );
  if (!cls[0]) throw fieldErrors({ classId: CREDIT_NOTE_MESSAGES.class });
  const { rows: terms } = await db.query<CreditNoteClassInformation["terms"][number]>(
    `select id, name, "startDate"::text as "startDate", "endDate"::text as "endDate" from terms
     where "academicCalendarId" = $1 and status = 'active' and "endDate" >= $2::date and "startDate" <= $3::date order by "startDate"`,
    [cls[0].academicCalendarId, startDate, endDate],
  );
  const { rows: lessons } = await db.query<PeriodLessons["lessons"][number]>(
    `select l.id, ls.id as "lessonStudentId", l.date::text as date, l."termId"
     from lessons_students ls join lessons l on l.id = ls."lessonId"
     where ls."studentId" = $1 and l."classId" = $2 and l.date between $3::date and $4::date and l.status = 'active' and l."lessonStatus" = 'active'
       and ls.type in ('enrolled', 'transferred', 'replacement') and (ls.status = 'not_attended' or (ls.status = 'suspended' and l.id = any($5::uuid[])))
     order by l.date, l.id`,
    [studentId, classId, startDate, endDate, alsoSuspended],
  );
  return { className: cls[0].name, companyId: cls[0].companyId, terms, lessons };
}

/** `GET /credit-notes/get-class-information-for-credit-note`. */
export async function classInformationForCreditNote(db: Queryable, q: { studentId: string; classId: string; startDate: string; endDate: string }): Promise<CreditNoteClassInformation> {
  const p = await periodLessons(db, q.studentId, q.classId, q.startDate, q.endDate);
  const billing = await classBilling(db, q.studentId, q.classId);
  const term = p.terms.find((t) => t.id === p.lessons[0]?.termId) ?? p.terms[0] ?? null;
  return {
    className: p.className,
    terms: p.terms,
    termId: term?.id ?? null,
    termName: term?.name ?? null,
    startDate: p.terms.length ? q.startDate : null,
    endDate: p.terms.length ? q.endDate : null,
    lessons: p.lessons.map((l) => ({ id: l.id, date: l.date })),
    lessonIds: p.lessons.map((l) => l.id),
    numberOfLesson: p.lessons.length,
    unitPrice: centsToNumeric(billing?.unitPrice ?? 0),
    gst: billing?.gst ?? 0,
  };
}

function summaryOf(base: Parameters<typeof creditNoteTotals>[0], gst: GstPercent) {
  const t = creditNoteTotals(base, gst);
  return { subTotal: centsToNumeric(t.subTotal), gst: centsToNumeric(t.gst), total: centsToNumeric(t.total) };
}

/** Suspends the lesson-students of the period; the enrolment becomes suspended. Returns the lessons. */
async function suspendPeriod(tx: Queryable, input: SuspensionInput, previouslySuspended: readonly string[], by: string | null) {
  if (previouslySuspended.length) {
    await tx.query(
      `update lessons_students set status = 'not_attended', "updatedBy" = $3 where "studentId" = $1 and "lessonId" = any($2::uuid[]) and status = 'suspended'`,
      [input.studentId, previouslySuspended, by],
    );
  }
  const p = await periodLessons(tx, input.studentId, input.classId, input.startDate, input.endDate);
  if (!p.lessons.length) throw fieldErrors({ suspensionPeriod: CREDIT_NOTE_MESSAGES.noLessons });
  await tx.query(`update lessons_students set status = 'suspended', "updatedBy" = $2 where id = any($1::uuid[])`, [p.lessons.map((l) => l.lessonStudentId), by]);
  return p;
}

/** `POST /credit-notes` {type: suspension}: the suspension, its suspended lessons and its credit note, at once. */
export async function createSuspension(db: Db, input: SuspensionInput, by: string | null, canCreate: boolean): Promise<{ suspensionId: string; creditNoteId: string }> {
  if (!canCreate) throw new FinanceError(403, FORBIDDEN_ACTION);
  return financeTransaction(db, async (tx) => {
    const { rows: enrolment } = await tx.query<{ id: string }>(
      `select id from student_classes where "userId" = $1 and "classId" = $2 and status in ${ENROLLED} order by "lessonStartDate" desc nulls last limit 1 for update`,
      [input.studentId, input.classId],
    );
    if (!enrolment[0]) throw fieldErrors({ classId: CREDIT_NOTE_MESSAGES.notEnrolled });
    const { rows: overlap } = await tx.query(
      `select 1 from suspensions where "studentId" = $1 and "classId" = $2 and status = 'active' and "suspensionStatus" in ('pending', 'completed')
       and "startDate" <= $4::date and "endDate" >= $3::date limit 1`,
      [input.studentId, input.classId, input.startDate, input.endDate],
    );
    if (overlap.length) throw fieldErrors({ suspensionPeriod: CREDIT_NOTE_MESSAGES.alreadySuspended });
    const p = await suspendPeriod(tx, input, [], by);
    const lessonIds = p.lessons.map((l) => l.id);
    const { rows: suspension } = await tx.query<{ id: string }>(
      `insert into suspensions ("studentId", "classId", "studentClassId", "startDate", "endDate", "lessonIds", reason, remarks, "createdBy", "updatedBy")
       values ($1, $2, $3, $4::date, $5::date, $6::jsonb, $7, $8, $9, $9) returning id`,
      [input.studentId, input.classId, enrolment[0].id, input.startDate, input.endDate, JSON.stringify(lessonIds), input.reason, input.remarks, by],
    );
    await tx.query(`update student_classes set status = 'suspended', "updatedBy" = $2 where id = $1`, [enrolment[0].id, by]);

    const billing = await classBilling(tx, input.studentId, input.classId);
    const companyId = billing?.companyId ?? p.companyId;
    if (!companyId) throw fieldErrors({ classId: "The class has no company." });
    const term = p.terms.find((t) => t.id === p.lessons[0]?.termId) ?? null;
    // the lessons paid for and not yet credited (caps.ts): finance may lower it, never raise it beyond
    const billedSuspended = billing
      ? (await creditableLessons(tx, { studentId: input.studentId, classId: input.classId, paymentAdviceId: billing.paymentAdviceId, lessonIds, creditNoteId: null })).length
      : 0;
    const receipts = await receiptsOfClass(tx, input.studentId, input.classId);
    const receipt = receipts.find((r) => r.paymentAdviceId === billing?.paymentAdviceId) ?? receipts[0];
    const gst = billing?.gst ?? 0;
    const unitPrice = billing?.unitPrice ?? 0;
    const { rows: cls } = await tx.query<{ id: string }>(
      `insert into credit_note_classes ("classId", "termId", "termName", "startDate", "endDate", "lessonIds", "createdBy", "updatedBy") values ($1, $2, $3, $4::date, $5::date, $6::jsonb, $7, $7) returning id`,
      [input.classId, term?.id ?? null, term?.name ?? null, input.startDate, input.endDate, JSON.stringify(lessonIds), by],
    );
    const { rows: fee } = await tx.query<{ id: string }>(
      `insert into credit_note_fees ("numberOfLesson", "unitPriceOfClass", "receiptId", "createdBy", "updatedBy") values ($1, $2::numeric, $3, $4, $4) returning id`,
      [billedSuspended, centsToNumeric(unitPrice), receipt?.id ?? null, by],
    );
    const { rows: cn } = await tx.query<{ id: string }>(
      `insert into credit_notes (type, "creditNoteStatus", reason, remarks, summary, gst, "studentId", "companyId", "suspensionId", "paymentAdviceId", "creditNoteClassId", "creditNoteFeeId", "createdBy", "updatedBy")
       values ('suspension', 'awaiting_front_desk_action', $1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning id`,
      [input.reason, input.remarks, JSON.stringify(summaryOf({ numberOfLesson: billedSuspended, unitPriceOfClass: unitPrice }, gst)), gst, input.studentId, companyId, suspension[0]!.id, billing?.paymentAdviceId ?? null, cls[0]!.id, fee[0]!.id, by],
    );
    await writeCreditNoteLog(tx, cn[0]!.id, "create", null, creditNoteSnapshot(await readCreditNote(tx, cn[0]!.id)), by);
    return { suspensionId: suspension[0]!.id, creditNoteId: cn[0]!.id };
  });
}

export interface CreditNoteUpdate {
  updatedAt: string;
  reason?: string | null;
  remarks?: string | null;
  /** Front-desk step: the suspension period (the suspended lessons follow) and the term. */
  startDate?: string;
  endDate?: string;
  termId?: string | null;
  /** Finance step: the pro-rated fees. */
  receiptId?: string | null;
  numberOfLesson?: number;
  overpaidAmount?: Cents;
}

/** `PUT /credit-notes/{id}`: what the current step may change; the server prices it again. */
export async function updateCreditNote(db: Db, id: string, input: CreditNoteUpdate, by: string | null, rights: CreditNoteRights): Promise<CnRow> {
  return financeTransaction(db, async (tx) => {
    const before = await readCreditNote(tx, id, { forUpdate: true });
    const step = creditNoteEditStep(before.creditNoteStatus);
    if (!step) throw new FinanceError(400, CREDIT_NOTE_MESSAGES.notEditable);
    if (!rights.has(step === "front-desk" ? "complete-front-desk" : "fill-fees")) throw new FinanceError(403, FORBIDDEN_ACTION);
    await assertCreditNoteFresh(tx, before, input.updatedAt);

    if (step === "front-desk" && before.type === "suspension" && before.cls?.classId && (input.startDate || input.endDate || input.termId !== undefined)) {
      await changePeriod(tx, before, input, by);
    }
    if (step === "finance" && (input.receiptId !== undefined || input.numberOfLesson !== undefined || input.overpaidAmount !== undefined)) {
      await priceFees(tx, before, input, by);
    }
    const reason = input.reason !== undefined ? input.reason : before.reason;
    const remarks = input.remarks !== undefined ? input.remarks : before.remarks;
    await tx.query(`update credit_notes set reason = $2, remarks = $3, "updatedAt" = now(), "updatedBy" = $4 where id = $1`, [id, reason, remarks, by]);
    // the suspension shows the same reason and remarks as its credit note (issue 37: one reason, not "--" on one of them)
    if (before.suspensionId) await tx.query(`update suspensions set reason = $2, remarks = $3, "updatedBy" = $4 where id = $1`, [before.suspensionId, reason, remarks, by]);
    const after = await readCreditNote(tx, id);
    await writeCreditNoteLog(tx, id, "update", creditNoteSnapshot(before), creditNoteSnapshot(after), by);
    return after;
  });
}

async function changePeriod(tx: Queryable, before: CnRow, input: CreditNoteUpdate, by: string | null): Promise<void> {
  const cls = before.cls!;
  const startDate = input.startDate ?? cls.startDate!;
  const endDate = input.endDate ?? cls.endDate!;
  if (endDate < startDate) throw fieldErrors({ endDate: CREDIT_NOTE_MESSAGES.endDate });
  const p = await suspendPeriod(tx, { studentId: before.studentId, classId: cls.classId!, startDate, endDate, reason: null, remarks: null }, cls.lessonIds, by);
  const lessonIds = p.lessons.map((l) => l.id);
  const term = (input.termId ? p.terms.find((t) => t.id === input.termId) : null) ?? p.terms.find((t) => t.id === p.lessons[0]?.termId) ?? null;
  if (input.termId && !term) throw fieldErrors({ termName: CREDIT_NOTE_MESSAGES.termName });
  await tx.query(
    `update credit_note_classes set "termId" = $2, "termName" = $3, "startDate" = $4::date, "endDate" = $5::date, "lessonIds" = $6::jsonb, "updatedBy" = $7 where id = $1`,
    [before.creditNoteClassId, term?.id ?? null, term?.name ?? null, startDate, endDate, JSON.stringify(lessonIds), by],
  );
  if (before.suspensionId) {
    await tx.query(`update suspensions set "startDate" = $2::date, "endDate" = $3::date, "lessonIds" = $4::jsonb, "updatedBy" = $5 where id = $1`, [
      before.suspensionId, startDate, endDate, JSON.stringify(lessonIds), by,
    ]);
  }
}

/** Prices the fee block from the chosen receipt's PA (unit price of the class, GST rate) — never from the browser. */
async function priceFees(tx: Queryable, before: CnRow, input: CreditNoteUpdate, by: string | null): Promise<void> {
  const receiptId = input.receiptId !== undefined ? input.receiptId : before.fee?.receiptId ?? null;
  const errors: Record<string, string> = {};
  const receipt = receiptId ? await studentReceipt(tx, before.studentId, receiptId) : null;
  if (receiptId && !receipt) errors.receiptId = CREDIT_NOTE_MESSAGES.receiptNotOfStudent;
  let gst = Number(before.gst) as GstPercent;
  let paymentAdviceId = before.paymentAdviceId;
  let unitPrice = cents(before.fee?.unitPriceOfClass);
  let numberOfLesson = input.numberOfLesson ?? before.fee?.numberOfLesson ?? 0;
  let overpaid = input.overpaidAmount ?? cents(before.fee?.overpaidAmount);
  if (receipt?.paymentAdviceId) {
    const { rows } = await tx.query<{ gst: string }>(`select gst::text as gst from payment_advices where id = $1`, [receipt.paymentAdviceId]);
    gst = Number(rows[0]?.gst ?? 0) as GstPercent;
    paymentAdviceId = receipt.paymentAdviceId;
  }
  if (before.type === "suspension") {
    const classId = before.cls?.classId ?? null;
    if (receipt && classId) {
      const billing = await classBilling(tx, before.studentId, classId, receipt.paymentAdviceId);
      if (!billing) errors.receiptId = CREDIT_NOTE_MESSAGES.receiptNotOfStudent;
      else unitPrice = billing.unitPrice;
    }
    if (!Number.isInteger(numberOfLesson) || numberOfLesson < 0) errors.numberOfLesson = CREDIT_NOTE_MESSAGES.numberOfLesson;
    else if (numberOfLesson > (before.cls?.lessonIds.length ?? 0)) errors.numberOfLesson = CREDIT_NOTE_MESSAGES.numberOfLessonTooMany;
    overpaid = 0;
  } else {
    if (overpaid < 0) errors.overpaidAmount = CREDIT_NOTE_MESSAGES.overpaidAmount;
    else if (receipt && overpaid > receipt.amount) errors.overpaidAmount = CREDIT_NOTE_MESSAGES.overpaidTooMuch;
    numberOfLesson = 0;
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);
  await assertCreditNoteCap(tx, { ...before, gst: String(gst), paymentAdviceId, fee: { numberOfLesson, overpaidAmount: centsToNumeric(overpaid), unitPriceOfClass: centsToNumeric(unitPrice), receiptId } });
  const base = before.type === "suspension" ? { numberOfLesson, unitPriceOfClass: unitPrice } : { overpaidAmount: overpaid };
  await tx.query(
    `update credit_note_fees set "receiptId" = $2, "numberOfLesson" = $3, "unitPriceOfClass" = $4::numeric, "overpaidAmount" = $5::numeric, "updatedBy" = $6 where id = $1`,
    [before.creditNoteFeeId, receiptId, before.type === "suspension" ? numberOfLesson : null, before.type === "suspension" ? centsToNumeric(unitPrice) : null, before.type === "overpaid" ? centsToNumeric(overpaid) : null, by],
  );
  await tx.query(`update credit_notes set gst = $2, "paymentAdviceId" = $3, summary = $4::jsonb where id = $1`, [before.id, gst, paymentAdviceId, JSON.stringify(summaryOf(base, gst))]);
}

/**
 * A credit note credits at most what was paid and not yet credited (FINANCE.md §7): a suspension's lessons
 * paid for on the receipt's PA and not in another live credit note of the class; an overpayment not yet
 * credited. Refused with the limit named.
 */
async function assertCreditNoteCap(tx: Queryable, row: Pick<CnRow, "id" | "type" | "studentId" | "gst" | "paymentAdviceId" | "cls" | "fee">): Promise<void> {
  const gst = Number(row.gst) as GstPercent;
  const receiptId = row.fee?.receiptId ?? null;
  if (row.type === "suspension") {
    const classId = row.cls?.classId;
    if (!receiptId || !classId || !row.paymentAdviceId) return;
    const unitPriceOfClass = cents(row.fee?.unitPriceOfClass);
    const creditable = (await creditableLessons(tx, { studentId: row.studentId, classId, paymentAdviceId: row.paymentAdviceId, lessonIds: row.cls?.lessonIds ?? [], creditNoteId: row.id })).length;
    if ((row.fee?.numberOfLesson ?? 0) > creditable) {
      const message = CAP_MESSAGES.creditNoteLessons(creditable, creditNoteTotals({ numberOfLesson: creditable, unitPriceOfClass }, gst).total);
      throw new FinanceError(400, message, { numberOfLesson: message });
    }
    return;
  }
  if (!receiptId) return;
  const limit = await overpaidCap(tx, receiptId, row.id);
  if (limit !== null && creditNoteTotals({ overpaidAmount: cents(row.fee?.overpaidAmount) }, gst).total > limit) {
    const message = CAP_MESSAGES.overpaid(limit);
    throw new FinanceError(400, message, { overpaidAmount: message });
  }
}

/** Who filled the credit note's fees (four eyes): the authors of its finance-step creates, copies and fee changes. */
async function feesFilledBy(db: Queryable, creditNoteId: string): Promise<string[]> {
  const { rows } = await db.query<{ by: string }>(
    `select distinct "createdBy" as by from credit_note_logs where "creditNoteId" = $1 and "createdBy" is not null and type in ('create', 'update', 'duplicate')
       and "valueAfter"->>'creditNoteStatus' in ('awaiting_finance_action', 'awaiting_finance_approval')
       and ("valueBefore" is null or "valueBefore"->'creditNoteFee' is distinct from "valueAfter"->'creditNoteFee')`,
    [creditNoteId],
  );
  return rows.map((r) => r.by);
}

/** Another credit note of the same suspension and class (or overpaid, of the same PA) that is issued or on its way. */
async function otherLiveCreditNote(db: Queryable, row: Pick<CnRow, "id" | "type" | "suspensionId" | "paymentAdviceId" | "cls">): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from credit_notes cn left join credit_note_classes c on c.id = cn."creditNoteClassId"
     where cn.id <> $1 and cn.status = 'active' and cn."creditNoteStatus" not in ('rejected', 'voided', 'delete') and cn.type = $2
       and (($2 = 'suspension' and cn."suspensionId" = $3 and c."classId" is not distinct from $4) or ($2 = 'overpaid' and cn."paymentAdviceId" = $5))
     limit 1`,
    [row.id, row.type, row.suspensionId, row.cls?.classId ?? null, row.paymentAdviceId],
  );
  return rows.length > 0;
}

/** What a move needs filled in, from the saved note (the domain's rule, which the page checks first). */
function moveErrors(row: CnRow, to: CreditNoteStatus): Record<string, string> {
  const c = row.cls;
  return creditNoteMoveErrors(
    { type: row.type, classId: c?.classId, termName: c?.termName, startDate: c?.startDate, endDate: c?.endDate, lessonCount: c?.lessonIds.length ?? 0,
      receiptId: row.fee?.receiptId, numberOfLesson: row.fee?.numberOfLesson, overpaidAmount: cents(row.fee?.overpaidAmount), reason: row.reason },
    to,
  );
}

/** The domain's reason a note may not be voided (its PA's status read here), or null. */
async function voidRefusal(db: Queryable, row: Pick<CnRow, "type" | "usedAmount" | "paymentAdviceId">): Promise<string | null> {
  const { rows } = row.paymentAdviceId ? await db.query<{ s: string }>(`select "paymentStatus" as s from payment_advices where id = $1`, [row.paymentAdviceId]) : { rows: [] };
  return creditNoteVoidRefusal({ type: row.type, usedAmount: cents(row.usedAmount), paymentAdviceStatus: rows[0]?.s ?? null });
}

/** `PATCH /credit-notes/change-status-credit-note/{id}`. */
export async function changeCreditNoteStatus(db: Db, id: string, input: { status: CreditNoteStatus; updatedAt: string }, by: string | null, rights: CreditNoteRights): Promise<CnRow> {
  return financeTransaction(db, async (tx) => {
    // FINANCE.md §1 lock order: the student's money, the PA it credits, then the credit note
    const unlocked = await readCreditNote(tx, id);
    await lockStudentMoney(tx, unlocked.studentId);
    if (unlocked.paymentAdviceId) await lockDocuments(tx, "payment_advices", [unlocked.paymentAdviceId]);
    const before = await readCreditNote(tx, id, { forUpdate: true });
    const move = creditNoteMove(before.creditNoteStatus, input.status);
    if (!move) throw new FinanceError(400, CREDIT_NOTE_MESSAGES.moveNotAllowed);
    if (!rights.has(move.right)) throw new FinanceError(403, FORBIDDEN_ACTION);
    await assertCreditNoteFresh(tx, before, input.updatedAt);
    const errors = moveErrors(before, input.status);
    if (Object.keys(errors).length) throw fieldErrors(errors);
    if (input.status === "voided") {
      const refusal = await voidRefusal(tx, before);
      if (refusal) throw new FinanceError(400, refusal);
    }
    if (input.status === "issued") {
      if (by && (await feesFilledBy(tx, id)).includes(by)) throw new FinanceError(403, CREDIT_NOTE_MESSAGES.fourEyes);
      if (await otherLiveCreditNote(tx, before)) throw new FinanceError(409, CREDIT_NOTE_MESSAGES.alreadyLive);
      await assertCreditNoteCap(tx, before);
    }
    // an approval's number and approver with the status, in one update
    const name = input.status === "issued" ? await nextDocumentNumber(tx, "credit_note", before.companyId, Number(todayInSingapore().slice(0, 4))) : null;
    await tx.query(
      `update credit_notes set "creditNoteStatus" = $2, "updatedAt" = now(), "updatedBy" = $3${name ? `, name = $4, "approverId" = $3, "approvedAt" = now()` : ""} where id = $1`,
      name ? [id, input.status, by, name] : [id, input.status, by],
    );
    if (input.status === "issued" || input.status === "voided") {
      // the summary, type and number a status change leaves as they were (or as just given)
      await postCreditNote(tx, { id, name: name ?? before.name, companyId: before.companyId, studentId: before.studentId, type: before.type, summary: before.summary }, input.status === "issued" ? "credit_note_issued" : "credit_note_voided", by);
    }
    if (before.suspensionId && (input.status === "issued" || input.status === "rejected")) {
      await tx.query(`update suspensions set "suspensionStatus" = $2, "updatedBy" = $3 where id = $1`, [before.suspensionId, input.status === "issued" ? "completed" : "rejected", by]);
    }
    const after = await readCreditNote(tx, id);
    await writeCreditNoteLog(tx, id, "change_status", creditNoteSnapshot(before), creditNoteSnapshot(after), by);
    return after;
  });
}

/** `POST /credit-notes/duplicate-credit-note`: a copy (class and fee rows too) awaiting finance action. */
export async function duplicateCreditNote(db: Db, sourceId: string, by: string | null, rights: CreditNoteRights): Promise<CnRow> {
  if (!rights.has("duplicate")) throw new FinanceError(403, FORBIDDEN_ACTION);
  return financeTransaction(db, async (tx) => {
    const source = await readCreditNote(tx, sourceId);
    if (source.creditNoteStatus === "awaiting_front_desk_action") throw new FinanceError(400, CREDIT_NOTE_MESSAGES.duplicateTooEarly);
    // one live credit note per suspension and class: a copy replaces a rejected or voided one only
    await lockStudentMoney(tx, source.studentId);
    if ((source.creditNoteStatus !== "rejected" && source.creditNoteStatus !== "voided") || (await otherLiveCreditNote(tx, source))) {
      throw new FinanceError(409, CREDIT_NOTE_MESSAGES.duplicateLive);
    }
    const copy = async (table: "credit_note_classes" | "credit_note_fees", rowId: string | null, cols: string): Promise<string | null> => {
      if (!rowId) return null;
      const { rows } = await tx.query<{ id: string }>(`insert into ${table} (${cols}, "createdBy", "updatedBy") select ${cols}, $2, $2 from ${table} where id = $1 returning id`, [rowId, by]);
      return rows[0]!.id;
    };
    const classId = await copy("credit_note_classes", source.creditNoteClassId, `"classId", "termId", "termName", "startDate", "endDate", "lessonIds"`);
    const feeId = await copy("credit_note_fees", source.creditNoteFeeId, `"numberOfLesson", "overpaidAmount", "unitPriceOfClass", "receiptId"`);
    const { rows } = await tx.query<{ id: string }>(
      `insert into credit_notes (type, "creditNoteStatus", reason, remarks, summary, gst, "studentId", "companyId", "suspensionId", "paymentAdviceId", "creditNoteClassId", "creditNoteFeeId", "createdBy", "updatedBy")
       select type, 'awaiting_finance_action', reason, remarks, summary, gst, "studentId", "companyId", "suspensionId", "paymentAdviceId", $2, $3, $4, $4 from credit_notes where id = $1 returning id`,
      [sourceId, classId, feeId, by],
    );
    const created = await readCreditNote(tx, rows[0]!.id);
    await writeCreditNoteLog(tx, created.id, "duplicate", { name: source.name }, creditNoteSnapshot(created), by);
    return created;
  });
}

/** `GET /credit-notes/{id}`: the screen's data, with the moves and edit step the caller's rights allow. */
export async function creditNoteDetail(db: Queryable, id: string, rights: CreditNoteRights, viewer: string | null = null): Promise<CreditNoteDetail> {
  const row = await readCreditNote(db, id);
  const filledByViewer = !!viewer && (await feesFilledBy(db, id)).includes(viewer);
  const person = (userId: string | null) => (userId ? studentOf(db, userId) : null);
  const classId = row.cls?.classId ?? null;
  const { rows: cls } = classId ? await db.query<{ name: string }>(`select name from classes where id = $1`, [classId]) : { rows: [] as { name: string }[] };
  const receipts =
    row.type === "suspension" && classId
      ? await receiptsOfClass(db, row.studentId, classId)
      : (
          await db.query<CreditNoteDetail["receipts"][number]>(
            `select id, name, amount::text as amount, "receiptDate"::text as "receiptDate" from receipts where "studentId" = $1 and status = 'active' order by "receiptDate" desc, name desc`,
            [row.studentId],
          )
        ).rows;
  const { rows: issued } = await db.query<{ id: string; name: string; total: string | null; usedAmount: string }>(
    `select id, name, summary->>'total' as total, "usedAmount"::text as "usedAmount" from credit_notes
     where "studentId" = $1 and "creditNoteStatus" = 'issued' and status = 'active' and id <> $2 order by name`,
    [row.studentId, id],
  );
  const { rows: transfer } = classId
    ? await db.query<NonNullable<CreditNoteDetail["transfer"]>>(
        `select f.name as "fromClassName", t.name as "toClassName", r."transferClassStatus", r."lessonStartDate"::text as "lessonStartDate"
         from request_transfer_classes r join classes f on f.id = r."fromClassId" join classes t on t.id = r."toClassId"
         where r."studentId" = $1 and ($2 in (r."fromClassId", r."toClassId")) order by r."createdAt" desc limit 1`,
        [row.studentId, classId],
      )
    : { rows: [] };
  const receiptName = receipts.find((r) => r.id === row.fee?.receiptId)?.name ?? null;
  const step = creditNoteEditStep(row.creditNoteStatus);
  const voidRefused = row.creditNoteStatus === "issued" && (await voidRefusal(db, row)) !== null;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    creditNoteStatus: row.creditNoteStatus,
    reason: row.reason,
    remarks: row.remarks,
    gst: Number(row.gst) as GstPercent,
    summary: row.summary,
    usedAmount: row.usedAmount,
    approvedAt: row.approvedAt,
    approver: await person(row.approverId),
    student: await person(row.studentId),
    companyId: row.companyId,
    paymentAdviceId: row.paymentAdviceId,
    suspensionId: row.suspensionId,
    creditNoteClass: row.cls ? { ...row.cls, className: cls[0]?.name ?? null } : null,
    creditNoteFee: row.fee ? { ...row.fee, receiptName } : null,
    receipts: receipts.map(({ id: rid, name, amount, receiptDate }) => ({ id: rid, name, amount, receiptDate })),
    issuedCreditNotes: issued.map((c) => ({ id: c.id, name: c.name, amount: centsToNumeric(creditNoteLeft(cents(c.total), cents(c.usedAmount))) })),
    transfer: transfer[0] ?? null,
    moves: creditNoteMovesFrom(row.creditNoteStatus)
      .filter((m) => rights.has(m.right) && !(m.to === "voided" && voidRefused) && !(m.to === "issued" && filledByViewer))
      .map((m) => ({ to: m.to, label: m.label })),
    editStep: step && rights.has(step === "front-desk" ? "complete-front-desk" : "fill-fees") ? step : null,
    canDuplicate: rights.has("duplicate") && (row.creditNoteStatus === "rejected" || row.creditNoteStatus === "voided") && !(await otherLiveCreditNote(db, row)),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
