/**
 * The payment advice's life (FINANCE.md §4), each call one finance transaction with its log rows:
 * init (a new draft), save (draft or unpaid without payments), issue (draft → unpaid with its number),
 * soft delete of a draft, void unpaid, void paid (invoice and receipts voided, an overpaid credit note
 * issued for the money received). Every update checks the `updatedAt` the caller read.
 */
import { randomUUID } from "node:crypto";
import type { Db, Queryable } from "../db/index.ts";
import { centsToNumeric, type Cents } from "../../src/domain/money.ts";
import { isPaDeletable, isPaEditable, PA_MESSAGES, transitionTarget } from "../../src/domain/finance/paymentAdviceStatus.ts";
import type { PaymentAdviceRecord, VoidPaidReply } from "../../src/domain/finance/paymentAdviceApi.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { VOIDED_WITH_PA_REASON } from "../../src/domain/finance/invoice.ts";
import { UUID } from "../../src/domain/validators.ts";
import { composeFromFacts, composePa, depositIdsOf, type ComposedPa, type PaFacts, type PaFieldsInput } from "./paymentAdviceCompose.ts";
import { amountReceived, assertFresh, logSnapshot, PA_COLUMNS, readPaRow, readPaRowForChange, studentOf, toRecord, writeLog, writeLogs, type PaRow } from "./paymentAdviceRecord.ts";
import { loadSettings } from "./pricing.ts";
import { lockDocuments, lockStudentMoney } from "./locks.ts";
import { nextDocumentNumber, nextDocumentNumbers } from "./numbers.ts";
import { creditsFromPa, postPaEdited, postPaIssued, postPaReversed, postPaVoidedPaid } from "./ledger.ts";
import { markReceiptsVoided } from "./invoices.ts";
import { FinanceError, FORBIDDEN_ACTION, financeTransaction, fieldErrors, requireRight } from "./transaction.ts";

/** The action rights of FINANCE.md §5, one policy object each (api:/actions/payment-advice/<action>, POST). */
export const PA_ACTIONS = ["create", "edit-draft", "delete-draft", "issue", "edit-unpaid", "email-unpaid", "void-unpaid", "void-paid"] as const;
export type PaActionRight = (typeof PA_ACTIONS)[number];
export const paActionObject = (action: PaActionRight) => `api:/actions/payment-advice/${action}`;
export const ACTION_METHOD = "POST";

/** Asks the access policy whether the caller may perform an action (a 403 otherwise). */
export type ActionCheck = (action: PaActionRight) => Promise<boolean>;

const COLUMN_ORDER = [
  "studentId", "companyId", "branchId", "issueDate", "dueDate", "qrExpiryDate", "hasExpiryDate", "axsCode", "isRegistrationFee", "registrationFeeConfig",
  "depositSettings", "gst", "remarks", "notes", "classInformations", "paymentSummaryStatic", "summary",
] as const;
const JSON_COLUMNS = new Set(["registrationFeeConfig", "depositSettings", "classInformations", "paymentSummaryStatic", "summary"]);
const columnValues = (c: ComposedPa["columns"]) => COLUMN_ORDER.map((k) => (JSON_COLUMNS.has(k) ? JSON.stringify(c[k]) : c[k]));
const placeholder = (k: string, i: number) => `$${i}${JSON_COLUMNS.has(k) ? "::jsonb" : ""}`;

async function recordOf(tx: Queryable, id: string): Promise<PaymentAdviceRecord> {
  const row = await readPaRow(tx, id, { includeDeleted: true });
  return toRecord(row, await amountReceived(tx, id));
}

/** Fields a draft starts with when the caller leaves them out. */
async function withDefaults(tx: Queryable, body: Partial<PaFieldsInput> & Pick<PaFieldsInput, "studentId" | "companyId">): Promise<PaFieldsInput> {
  const settings = await loadSettings(tx, body.companyId);
  return {
    studentId: body.studentId,
    companyId: body.companyId,
    branchId: body.branchId ?? null,
    issueDate: body.issueDate ?? null,
    dueDate: body.dueDate ?? null,
    qrExpiryDate: body.qrExpiryDate ?? null,
    hasExpiryDate: body.hasExpiryDate ?? false,
    axsCode: body.axsCode ?? null,
    isRegistrationFee: body.isRegistrationFee ?? false,
    gst: body.gst ?? settings.defaultGst,
    remarks: body.remarks ?? null,
    notes: body.notes ?? settings.defaultNotes,
    classInformations: body.classInformations ?? [],
  };
}

/** POST …/init: a new draft (no number), priced, with its create log row. */
export async function initPaymentAdvice(db: Db, body: Partial<PaFieldsInput> & Pick<PaFieldsInput, "studentId" | "companyId">, by: string | null, can: ActionCheck): Promise<PaymentAdviceRecord> {
  await requireRight(can, "create");
  return financeTransaction(db, async (tx) => {
    const fields = await withDefaults(tx, body);
    const composed = await composePa(tx, fields, { issued: false, paId: null, checkQrExpiry: true });
    const row = await insertDraft(tx, composed, by);
    await writeLog(tx, row.id, "create", null, logSnapshot(row, await studentOf(tx, row.studentId)), by);
    return toRecord(row, 0);
  });
}

/** A composed PA stored as a draft (the caller writes its log row; issuing writes with writeIssued). */
async function insertDraft(tx: Queryable, composed: ComposedPa, by: string | null): Promise<PaRow> {
  const cols = COLUMN_ORDER.map((k) => `"${k}"`).join(", ");
  const n = COLUMN_ORDER.length;
  const { rows } = await tx.query<PaRow>(
    `insert into payment_advices (${cols}, "paymentStatus", type, "createdBy", "updatedBy")
     values (${COLUMN_ORDER.map((k, i) => placeholder(k, i + 1)).join(", ")}, 'draft', 'normal', $${n + 1}, $${n + 1}) returning ${PA_COLUMNS}`,
    [...columnValues(composed.columns), by],
  );
  return rows[0]!;
}

/** The deposits a PA's classes say they deduct (well-formed ids only: the rest is refused by composePa). */
const deductedDepositIds = (fields: PaFieldsInput): string[] => depositIdsOf(fields).filter((d) => UUID.test(d));

type Person = Awaited<ReturnType<typeof studentOf>>;
type LogRow = Parameters<typeof writeLogs>[1][number];

/** The deposit rows an issued PA collects (a DEP document each). */
const collected = (composed: ComposedPa) => composed.depositRows.filter((d) => d.amount > 0);
const issueYear = (composed: ComposedPa) => Number(composed.columns.issueDate!.slice(0, 4));

/** The numbers a PA takes when issued, its own and its deposits', in one statement. */
async function issueNumbers(tx: Queryable, composed: ComposedPa): Promise<{ name: string; depositNames: string[] }> {
  const [[name], depositNames] = await nextDocumentNumbers(tx, composed.columns.companyId, issueYear(composed), [["payment_advice", 1], ["deposit", collected(composed).length]]);
  return { name: name!, depositNames: depositNames! };
}

/** The PA row a composed PA is stored as, without reading it back (its log rows' snapshots are taken from it). */
function storedRow(composed: ComposedPa, like: Pick<PaRow, "id" | "status" | "createdAt" | "updatedAt">, name: string | null): PaRow {
  return {
    ...like,
    ...composed.columns,
    gst: String(composed.columns.gst),
    name,
    paymentStatus: name ? "unpaid" : "draft",
    qrReferenceNo: name?.replace(/-/g, "") ?? null,
  };
}

/**
 * What issuing a PA writes once it holds its numbers, in one statement: the PA row (a new one inserted issued, or
 * the draft `id` updated to its new figures and issued), the deposits it collects (DEP numbers `depositNames`), the
 * deposits it deducts marked used, and its log rows in the order given; the issued row. The caller holds the
 * student's and the deducted deposits' locks, and posts the ledger entry after.
 */
async function writeIssued(tx: Queryable, o: { id: string; insert: boolean; composed: ComposedPa; name: string; depositNames: readonly string[]; logs: readonly LogRow[]; by: string | null }): Promise<PaRow> {
  const { composed, by } = o;
  const n = COLUMN_ORDER.length;
  const [name, qr, who, depNames, depAmounts, depClasses, used, logTypes, logBefore, logAfter] = Array.from({ length: 10 }, (_, i) => `$${n + 2 + i}`);
  const cols = COLUMN_ORDER.map((k) => `"${k}"`).join(", ");
  const column = (k: (typeof COLUMN_ORDER)[number]) => `$${COLUMN_ORDER.indexOf(k) + 2}`;
  const values = COLUMN_ORDER.map((k, i) => placeholder(k, i + 2)).join(", ");
  const pa = o.insert
    ? `insert into payment_advices (id, ${cols}, "paymentStatus", name, "qrReferenceNo", type, "createdBy", "updatedBy")
       values ($1, ${values}, 'unpaid', ${name}, ${qr}, 'normal', ${who}, ${who}) returning ${PA_COLUMNS}`
    : `update payment_advices set ${COLUMN_ORDER.map((k, i) => `"${k}" = ${placeholder(k, i + 2)}`).join(", ")}, "paymentStatus" = 'unpaid', name = ${name},
         "qrReferenceNo" = ${qr}, "updatedBy" = ${who} where id = $1 returning ${PA_COLUMNS}`;
  const rows = collected(composed);
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  const { rows: written } = await tx.query<PaRow>(
    // the deposits' and log rows' foreign keys to the PA are checked at the end of the statement, when the PA is in
    `with pa as (${pa}),
     collected as (${insertDepositsSql({ paId: "$1", companyId: column("companyId"), studentId: column("studentId"), by: who!, names: depNames!, amounts: depAmounts!, classIds: depClasses! })}),
     deducted as (update deposits set "depositStatus" = 'used', "updatedBy" = ${who} where id = any(${used}::uuid[])),
     logged as (
       insert into payment_advice_logs ("paymentAdviceId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy")
       select $1, l.type, l.before::jsonb, l.after::jsonb, ${who}, ${who} from unnest(${logTypes}::text[], ${logBefore}::text[], ${logAfter}::text[]) with ordinality as l(type, before, after, i) order by i)
     select * from pa`,
    [
      o.id, ...columnValues(composed.columns), o.name, o.name.replace(/-/g, ""), by,
      o.depositNames, rows.map((d) => centsToNumeric(d.amount)), rows.map((d) => d.classId), composed.deductedDepositIds,
      o.logs.map((l) => l.type), o.logs.map((l) => json(l.before)), o.logs.map((l) => json(l.after)),
    ],
  );
  return written[0]!;
}

/**
 * A new PA created and issued at once, inside the caller's finance transaction (the billing run: one
 * transaction per PA, the caller holding the student's lock): stored issued in one statement with its deposits and
 * the same log rows as init then issue (its create row keeps the draft it would have been), then its ledger entry.
 * `facts`: what pricing needs, already read by the caller (the run reads classes and settings once, the
 * student's own facts under the lock); without them they are read here. `student`: the log rows' student, when the
 * caller has it. The student's revenue recognition is left to the caller (once for all the PAs it issues).
 */
export async function createIssuedPaymentAdvice(tx: Queryable, fields: PaFieldsInput, by: string | null, facts?: PaFacts, student?: Person): Promise<PaymentAdviceRecord> {
  // the deposits it deducts are locked before they are checked and marked used (FINANCE.md §1), as on save
  const deducted = deductedDepositIds(fields);
  await lockDocuments(tx, "deposits", deducted);
  const options = { issued: true, paId: null, checkQrExpiry: true };
  // deposits deducted are read after their locks, never taken from the caller
  const composed = facts && !deducted.length ? composeFromFacts(facts, fields, options) : await composePa(tx, fields, options);
  const { name, depositNames } = await issueNumbers(tx, composed);
  const who = student ?? (await studentOf(tx, fields.studentId));
  const like = { id: randomUUID(), status: "active" as const, createdAt: "", updatedAt: "" };
  const draft = storedRow(composed, like, null);
  const logs: LogRow[] = [
    { paId: like.id, type: "create", before: null, after: logSnapshot(draft, who) },
    { paId: like.id, type: "change_status", before: logSnapshot(draft, who), after: logSnapshot(storedRow(composed, like, name), who) },
  ];
  const issued = await writeIssued(tx, { id: like.id, insert: true, composed, name, depositNames, logs, by });
  await postPaIssued(tx, issued, by, false);
  // a new PA has received nothing
  return toRecord(issued, 0);
}

export interface SaveInput extends PaFieldsInput {
  action: "save" | "issue";
  updatedAt: string;
}

/** PUT …/{id}: save (draft, or unpaid without payments) or issue a draft; one update log, and a status log on issue. */
export async function savePaymentAdvice(db: Db, id: string, input: SaveInput, by: string | null, can: ActionCheck): Promise<PaymentAdviceRecord> {
  // The rights are asked before the transaction: the policy may read the database, and a transaction
  // waiting for a second pooled connection while holding its first could starve the pool.
  const rights = input.action === "issue" ? { issue: await can("issue") } : { "edit-draft": await can("edit-draft"), "edit-unpaid": await can("edit-unpaid") };
  if (!Object.values(rights).some(Boolean)) throw new FinanceError(403, FORBIDDEN_ACTION);
  return financeTransaction(db, async (tx) => {
    // Deducting a deposit spends money (FINANCE.md §7): the student(s) first, then the PA, its invoice and
    // the deposits, so two PAs saved at once cannot both deduct one deposit.
    const stored = await readPaRow(tx, id);
    for (const studentId of [...new Set([stored.studentId, input.studentId])].sort()) await lockStudentMoney(tx, studentId);
    const { row: before, fresh } = await readPaRowForChange(tx, id, input.updatedAt);
    const invoiceIds = await lockLiveInvoices(tx, id);
    const right: PaActionRight = input.action === "issue" ? "issue" : before.paymentStatus === "unpaid" ? "edit-unpaid" : "edit-draft";
    if (!(rights as Partial<Record<PaActionRight, boolean>>)[right]) throw new FinanceError(403, FORBIDDEN_ACTION);
    if (!fresh) throw new FinanceError(409, PA_MESSAGES.stale);
    if (input.action === "issue" && !transitionTarget(before.paymentStatus, "issue")) throw new FinanceError(400, PA_MESSAGES.notIssuable);
    const received = await amountReceived(tx, id);
    if (received > 0) throw new FinanceError(400, PA_MESSAGES.hasPayments);
    if (!isPaEditable(before.paymentStatus, received)) throw new FinanceError(400, PA_MESSAGES.notEditable);
    const issued = input.action === "issue" || before.paymentStatus === "unpaid";
    if (before.paymentStatus === "unpaid") {
      const errors: Record<string, string> = {};
      if (input.companyId !== before.companyId) errors.companyId = "The company of an issued payment advice cannot be changed.";
      if (input.studentId !== before.studentId) errors.studentId = "The student of an issued payment advice cannot be changed.";
      if (Object.keys(errors).length) throw fieldErrors(errors);
    }
    const usedByThis = before.paymentStatus === "unpaid" ? appliedDepositIds(before) : [];
    await lockDocuments(tx, "deposits", [...usedByThis, ...deductedDepositIds(input)]);
    const composed = await composePa(tx, input, {
      issued,
      paId: id,
      allowedDepositIds: usedByThis,
      checkQrExpiry: input.action === "issue" || input.qrExpiryDate !== before.qrExpiryDate,
    });
    if (before.paymentStatus === "unpaid") {
      await rewriteUnpaidPa(tx, before, composed, invoiceIds, by);
      return recordOf(tx, id);
    }
    const student = await studentOf(tx, input.studentId);
    if (input.action === "issue") {
      // the draft's new figures, its number, deposits and both log rows (update, then draft → issued) in one statement
      const { name, depositNames } = await issueNumbers(tx, composed);
      const saved = storedRow(composed, before, null);
      const logs: LogRow[] = [
        { paId: id, type: "update", before: logSnapshot(before, student), after: logSnapshot(saved, student) },
        { paId: id, type: "change_status", before: logSnapshot(saved, student), after: logSnapshot(storedRow(composed, before, name), student) },
      ];
      const issued = await writeIssued(tx, { id, insert: false, composed, name, depositNames, logs, by });
      await postPaIssued(tx, issued, by);
      // a draft has received nothing (checked above)
      return toRecord(issued, 0);
    }
    await writeColumns(tx, id, composed, by);
    const saved = await readPaRow(tx, id);
    await writeLog(tx, id, "update", logSnapshot(before, student), logSnapshot(saved, student), by);
    return recordOf(tx, id);
  });
}

async function writeColumns(tx: Queryable, id: string, composed: ComposedPa, by: string | null): Promise<void> {
  await tx.query(
    `update payment_advices set ${COLUMN_ORDER.map((k, i) => `"${k}" = ${placeholder(k, i + 2)}`).join(", ")}, "updatedBy" = $${COLUMN_ORDER.length + 2} where id = $1`,
    [id, ...columnValues(composed.columns), by],
  );
}

/** Locks the PA's live (not voided) invoices, after the PA's lock; their ids. */
export async function lockLiveInvoices(tx: Queryable, paId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(`select id from invoices where "paymentAdviceId" = $1 and "invoiceStatus" <> 'voided' and status <> 'deleted'`, [paId]);
  return lockDocuments(tx, "invoices", rows.map((r) => r.id));
}

/**
 * An unpaid PA with no payment takes its new figures (an edit, or a withdrawal pricing it again): its
 * columns, the deposits it applies (released ones back to `paid`, new ones `used`) and collects, and its
 * invoice's total — an invoice's total is always its PA's totalPayable (FINANCE.md §4) — with one update
 * log row that records the invoice's change too. The caller holds the locks: student, PA, invoice, deposits.
 */
export async function rewriteUnpaidPa(tx: Queryable, before: PaRow, composed: ComposedPa, invoiceIds: readonly string[], by: string | null, logExtra: Record<string, unknown> = {}): Promise<PaRow> {
  await writeColumns(tx, before.id, composed, by);
  const usedByThis = appliedDepositIds(before);
  await setDepositsStatus(tx, usedByThis.filter((d) => !composed.deductedDepositIds.includes(d)), "paid", by);
  await setDepositsStatus(tx, composed.deductedDepositIds, "used", by);
  if (!sameDepositRows(before, composed)) {
    await tx.query(`update deposits set status = 'deleted', "updatedBy" = $2 where "paymentAdviceId" = $1 and "depositStatus" = 'issued' and status <> 'deleted'`, [before.id, by]);
    await issueDeposits(tx, before.id, composed, by, issueYear(composed));
  }
  const invoices = await followInvoices(tx, invoiceIds, composed.columns.summary.total, by);
  await postPaEdited(tx, before, before.id, by);
  const student = await studentOf(tx, before.studentId);
  const saved = await readPaRow(tx, before.id);
  await writeLog(tx, before.id, "update", logSnapshot(before, student), logSnapshot(saved, student, { ...(invoices.length ? { invoices } : {}), ...logExtra }), by);
  return saved;
}

/** The PA's invoices take its new total (they have no payment: a PA with payments is not edited). */
async function followInvoices(tx: Queryable, invoiceIds: readonly string[], total: string, by: string | null): Promise<Array<{ name: string; totalBefore: string; total: string }>> {
  if (!invoiceIds.length) return [];
  const { rows } = await tx.query<{ name: string; totalBefore: string; total: string }>(
    `update invoices i set total = $2::numeric, "updatedBy" = $3 from (select id, total::text as "totalBefore" from invoices where id = any($1::uuid[])) old
     where i.id = old.id and i.total <> $2::numeric returning i.name, old."totalBefore", i.total::text as total`,
    [invoiceIds, total, by],
  );
  return rows;
}

function appliedDepositIds(row: PaRow): string[] {
  return (row.classInformations ?? []).flatMap((c) => (c.isDeductedDeposit ? (c.deductedDeposit ?? []).map((d) => d.depositId).filter((x): x is string => Boolean(x)) : []));
}

function sameDepositRows(before: PaRow, composed: ComposedPa): boolean {
  const old = (before.classInformations ?? []).flatMap((c) => (c.deposits ?? []).map((d) => `${c.id}|${d.name}|${d.amount}`));
  const now = composed.columns.classInformations.flatMap((c) => c.deposits.map((d) => `${c.id}|${d.name}|${d.amount}`));
  return JSON.stringify(old) === JSON.stringify(now);
}

/**
 * Each deposit row of an issued PA is a deposit document (DEP number), `issued` until the PA is paid: one insert for
 * them all, numbered in order (`names`: numbers the caller already took, one per row collected).
 */
async function issueDeposits(tx: Queryable, paId: string, composed: ComposedPa, by: string | null, year: number): Promise<void> {
  const rows = collected(composed);
  if (!rows.length) return;
  const [numbers] = await nextDocumentNumbers(tx, composed.columns.companyId, year, [["deposit", rows.length]]);
  await tx.query(insertDepositsSql({ paId: "$3", companyId: "$4", studentId: "$5", by: "$6", names: "$1", amounts: "$2", classIds: "$7" }), [
    numbers, rows.map((d) => centsToNumeric(d.amount)), paId, composed.columns.companyId, composed.columns.studentId, by, rows.map((d) => d.classId),
  ]);
}

/** The insert of a PA's collected deposits, numbered in the order of the arrays; each argument names a placeholder. */
function insertDepositsSql(p: Record<"paId" | "companyId" | "studentId" | "by" | "names" | "amounts" | "classIds", string>): string {
  return `insert into deposits (name, amount, "depositStatus", "paymentAdviceId", "classId", "companyId", "studentId", "createdBy", "updatedBy")
     select name, amount, 'issued', ${p.paId}, "classId", ${p.companyId}, ${p.studentId}, ${p.by}, ${p.by}
     from unnest(${p.names}::text[], ${p.amounts}::numeric[], ${p.classIds}::uuid[]) with ordinality as x(name, amount, "classId", i) order by i`;
}

async function setDepositsStatus(tx: Queryable, ids: readonly string[], status: "used" | "paid", by: string | null): Promise<void> {
  if (!ids.length) return;
  await tx.query(`update deposits set "depositStatus" = $2, "updatedBy" = $3 where id = any($1::uuid[])`, [ids, status, by]);
}

/** DELETE …/{id}: soft delete of a draft. */
export async function deletePaymentAdvice(db: Db, id: string, updatedAt: string, by: string | null, can: ActionCheck): Promise<{ id: string }> {
  await requireRight(can, "delete-draft");
  return financeTransaction(db, async (tx) => {
    const before = await readPaRow(tx, id, { forUpdate: true });
    await assertFresh(tx, before, updatedAt);
    if (!isPaDeletable(before.paymentStatus)) throw new FinanceError(400, PA_MESSAGES.notDeletable);
    await tx.query(`update payment_advices set status = 'deleted', "updatedBy" = $2 where id = $1`, [id, by]);
    const student = await studentOf(tx, before.studentId);
    await writeLog(tx, id, "update", logSnapshot(before, student, { status: "active" }), logSnapshot(before, student, { status: "deleted" }), by);
    return { id };
  });
}

/** POST …/void-unpaid: unpaid (no payment) → voided with a reason; its active invoice is voided too, applied deposits freed. */
export async function voidUnpaidPaymentAdvice(db: Db, input: { id: string; reason: string; updatedAt: string }, by: string | null, can: ActionCheck): Promise<PaymentAdviceRecord> {
  await requireRight(can, "void-unpaid");
  return financeTransaction(db, async (tx) => {
    await lockStudentMoney(tx, (await readPaRow(tx, input.id)).studentId);
    const before = await readPaRow(tx, input.id, { forUpdate: true });
    await lockLiveInvoices(tx, input.id);
    await lockDocuments(tx, "deposits", appliedDepositIds(before));
    await assertFresh(tx, before, input.updatedAt);
    if (!transitionTarget(before.paymentStatus, "void_unpaid")) throw new FinanceError(400, PA_MESSAGES.notVoidableUnpaid);
    if ((await amountReceived(tx, input.id)) > 0) throw new FinanceError(400, "This payment advice has payments: void it as a paid payment advice.");
    await tx.query(`update invoices set "invoiceStatus" = 'voided', reasons = $2, "updatedBy" = $3 where "paymentAdviceId" = $1 and "invoiceStatus" <> 'voided' and status <> 'deleted'`, [input.id, input.reason, by]);
    await tx.query(`update deposits set status = 'deleted', "updatedBy" = $2 where "paymentAdviceId" = $1 and "depositStatus" = 'issued' and status <> 'deleted'`, [input.id, by]);
    await setDepositsStatus(tx, appliedDepositIds(before), "paid", by);
    await tx.query(`update payment_advices set "paymentStatus" = 'voided', "updatedBy" = $2 where id = $1`, [input.id, by]);
    await postPaReversed(tx, input.id, "pa_voided_unpaid", by);
    const after = await readPaRow(tx, input.id);
    const student = await studentOf(tx, before.studentId);
    await writeLog(tx, input.id, "change_status", logSnapshot(before, student), logSnapshot(after, student, { reason: input.reason }), by);
    return toRecord(after, 0);
  });
}

/**
 * PATCH …/void-paid-pa: paid/overpaid → voided (FINANCE.md §4). Its invoice, payments and receipts are
 * voided (a voided payment and receipt keep their day and show in the daily reports' Voided column, as a
 * voided receipt does) and the money received becomes an issued overpaid credit note for the student —
 * less what was already credited or refunded from this PA's receipts, so no money is credited twice.
 * Deposits it deducted go back to `paid`. Locks: student → PA → invoices → receipts → credit notes → deposits.
 */
export async function voidPaidPaymentAdvice(db: Db, input: { id: string; reason: string; updatedAt: string }, by: string | null, can: ActionCheck): Promise<VoidPaidReply> {
  await requireRight(can, "void-paid");
  return financeTransaction(db, async (tx) => {
    await lockStudentMoney(tx, (await readPaRow(tx, input.id)).studentId);
    const before = await readPaRow(tx, input.id, { forUpdate: true });
    await assertFresh(tx, before, input.updatedAt);
    if (!transitionTarget(before.paymentStatus, "void_paid")) throw new FinanceError(400, PA_MESSAGES.notVoidablePaid);
    const invoiceIds = await lockLiveInvoices(tx, input.id);
    const { rows: receiptRows } = await tx.query<{ id: string }>(`select id from receipts where "paymentAdviceId" = $1 or "invoiceId" = any($2::uuid[])`, [input.id, invoiceIds]);
    const receiptIds = await lockDocuments(tx, "receipts", receiptRows.map((r) => r.id));
    const { rows: creditRows } = await tx.query<{ id: string }>(
      `select cn.id from credit_notes cn left join credit_note_fees f on f.id = cn."creditNoteFeeId" where cn."paymentAdviceId" = $1 or f."receiptId" = any($2::uuid[])`,
      [input.id, receiptIds],
    );
    await lockDocuments(tx, "credit_notes", creditRows.map((r) => r.id));
    const { rows: depositRows } = await tx.query<{ id: string }>(`select id from deposits where "paymentAdviceId" = $1 and status <> 'deleted'`, [input.id]);
    await lockDocuments(tx, "deposits", [...depositRows.map((r) => r.id), ...appliedDepositIds(before)]);

    const { rows: usedDeposits } = await tx.query(`select 1 from deposits where "paymentAdviceId" = $1 and "depositStatus" in ('used', 'refunded') and status <> 'deleted' limit 1`, [input.id]);
    if (usedDeposits.length) throw new FinanceError(400, "A deposit collected on this payment advice was already used or refunded; it cannot be voided.");
    const received: Cents = await amountReceived(tx, input.id);
    const alreadyCredited = await creditedFromReceipts(tx, input.id);
    const credit = Math.max(0, received - alreadyCredited);
    const { rows: lastReceipt } = await tx.query<{ id: string }>(
      `select id from receipts where id = any($1::uuid[]) and status not in ('voided', 'deleted') order by "receiptDate" desc, "createdAt" desc limit 1`,
      [receiptIds],
    );
    // voided with its payments: the invoice has received nothing any more (Σ live payments = received, FINANCE.md §6)
    await tx.query(`update invoices set "invoiceStatus" = 'voided', "paidAmount" = 0, reasons = $2, "updatedBy" = $3 where id = any($1::uuid[])`, [invoiceIds, input.reason, by]);
    await markReceiptsVoided(tx, receiptIds, `${VOIDED_WITH_PA_REASON}${input.reason}`, by, true);
    // a payment recorded without a receipt (none is, since receipts came in; older rows may be) is voided with its invoice
    await tx.query(`update invoice_payments set status = 'deleted', "updatedBy" = $2 where "invoiceId" = any($1::uuid[]) and status <> 'deleted'`, [invoiceIds, by]);
    await tx.query(`update deposits set status = 'deleted', "updatedBy" = $2 where "paymentAdviceId" = $1 and status <> 'deleted'`, [input.id, by]);
    await setDepositsStatus(tx, appliedDepositIds(before), "paid", by);
    let creditNote: VoidPaidReply["creditNote"] = null;
    if (credit > 0) {
      const year = Number(todayInSingapore().slice(0, 4));
      const cnName = await nextDocumentNumber(tx, "credit_note", before.companyId, year);
      const amount = centsToNumeric(credit);
      const { rows: fee } = await tx.query<{ id: string }>(
        `insert into credit_note_fees ("overpaidAmount", "receiptId", "createdBy", "updatedBy") values ($1::numeric, $2, $3, $3) returning id`,
        [amount, lastReceipt[0]?.id ?? null, by],
      );
      const summary = { subTotal: amount, gst: centsToNumeric(0), total: amount };
      const { rows: cn } = await tx.query<{ id: string }>(
        `insert into credit_notes (name, type, "creditNoteStatus", reason, summary, gst, "approverId", "approvedAt", "studentId", "companyId", "paymentAdviceId", "creditNoteFeeId", "createdBy", "updatedBy")
         values ($1, 'overpaid', 'issued', $2, $3::jsonb, 0, $4, now(), $5, $6, $7, $8, $4, $4) returning id`,
        [cnName, `Voided ${before.name ?? "payment advice"}: ${input.reason}`, JSON.stringify(summary), by, before.studentId, before.companyId, input.id, fee[0]!.id],
      );
      await tx.query(
        `insert into credit_note_logs ("creditNoteId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy") values ($1, 'create', null, $2::jsonb, $3, $3)`,
        [cn[0]!.id, JSON.stringify({ studentId: before.studentId, reason: input.reason, type: "overpaid", creditNoteStatus: "issued", creditNoteFee: { overpaidAmount: amount } }), by],
      );
      creditNote = { id: cn[0]!.id, name: cnName, total: amount };
    }
    await tx.query(`update payment_advices set "paymentStatus" = 'voided', "updatedBy" = $2 where id = $1`, [input.id, by]);
    await postPaVoidedPaid(tx, input.id, by);
    const after = await readPaRow(tx, input.id);
    const student = await studentOf(tx, before.studentId);
    const credited = { received: centsToNumeric(received), alreadyCredited: centsToNumeric(alreadyCredited), creditNote: creditNote?.name ?? null };
    await writeLog(tx, input.id, "change_status", logSnapshot(before, student), logSnapshot(after, student, { reason: input.reason, ...credited }), by);
    return { paymentAdvice: toRecord(after, 0), creditNote };
  });
}

/**
 * What was already given back from this PA's money: its issued or used credit notes (any type, pointing at
 * the PA or made from one of its receipts) and the class lines of refunded refunds paid from its receipts
 * (priced by the refund's own function at the PA's GST rate). A void credits only the rest. A credit note
 * or refund from it still on its way refuses the void: decide it first, so that it neither credits the
 * same money again nor leaves the student without it when rejected.
 */
async function creditedFromReceipts(tx: Queryable, paId: string): Promise<Cents> {
  const taken = await creditsFromPa(tx, paId);
  if (taken.some((c) => (c.kind === "refund" ? c.status !== "refunded" : c.status !== "issued" && c.status !== "used"))) throw new FinanceError(409, PA_MESSAGES.creditPending);
  return taken.reduce((sum, c) => sum + c.net + c.gst, 0);
}

export async function getPaymentAdvice(db: Queryable, id: string): Promise<PaymentAdviceRecord> {
  return recordOf(db, id);
}

