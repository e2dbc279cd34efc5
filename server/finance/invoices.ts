/**
 * Money received (FINANCE.md §4): the invoice of an issued PA, payments each with its receipt, voiding a
 * payment or an invoice. Each call is one finance transaction that locks the PA and then its invoice
 * (lockInvoice), so concurrent payments on one invoice queue and none is lost. The PA and its deposits
 * follow the money.
 */
import type { Db, Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { balanceOf, creditNoteLeft, INVOICE_MESSAGES, isPaInvoiceable, invoiceStatusFor, paStatusFor, type CardType, type InvoiceDetail, type InvoiceRecord, type PaymentMethod, type PaymentReply } from "../../src/domain/finance/invoice.ts";
import { logSnapshot, PA_COLUMNS, readPaRow, studentOf, writeLog, type PaRow } from "./paymentAdviceRecord.ts";
import { nextDocumentNumber } from "./numbers.ts";
import { postPayment, postReceiptVoided } from "./ledger.ts";
import { lockDocuments, lockStudentMoney } from "./locks.ts";
import { FinanceError, financeTransaction, requireRight } from "./transaction.ts";
import { paymentDateError } from "../../src/domain/finance/bounds.ts";
import { PA_MESSAGES } from "../../src/domain/finance/paymentAdviceStatus.ts";

/** FINANCE.md §5 rights (api:/actions/invoice/<action>, POST). */
export const INVOICE_ACTIONS = ["issue", "record-payment", "void", "void-payment"] as const;
export type InvoiceActionRight = (typeof INVOICE_ACTIONS)[number];
export const invoiceActionObject = (action: InvoiceActionRight) => `api:/actions/invoice/${action}`;
export type InvoiceActionCheck = (action: InvoiceActionRight) => Promise<boolean>;

export interface PaymentInput {
  amount: Cents;
  paymentMethod: PaymentMethod;
  cardType: CardType | null;
  /** The day the money was received (YYYY-MM-DD, Asia/Singapore). */
  paymentDate: string;
  referenceNo: string | null;
  creditNoteId: string | null;
}


const INVOICE_COLUMNS = `id, name, "invoiceDate"::text as "invoiceDate", total::text as total, "paidAmount"::text as "paidAmount", "invoiceStatus", reasons,
  "paymentAdviceId", "companyId", "studentId"`;

async function readInvoice(tx: Queryable, id: string, forUpdate = false): Promise<InvoiceRecord> {
  const { rows } = await tx.query<InvoiceRecord>(`select ${INVOICE_COLUMNS} from invoices where id = $1 and status <> 'deleted'${forUpdate ? " for update" : ""}`, [id]);
  if (!rows[0]) throw new FinanceError(404, INVOICE_MESSAGES.notFound);
  return rows[0];
}

/**
 * Locks in one order everywhere (server/finance/locks.ts) — the student, the PA, then its invoice — so that a
 * payment, a void and an invoice being issued for the same PA queue behind each other instead of deadlocking,
 * and a payment by credit note waits for any other money operation of the student.
 */
export async function lockInvoice(tx: Queryable, id: string): Promise<InvoiceRecord> {
  return (await lockInvoiceAndPa(tx, id)).invoice;
}

/** lockInvoice, with the PA row it read under the PA's lock (deleted ones too), for the caller not to read it again. */
async function lockInvoiceAndPa(tx: Queryable, id: string): Promise<{ invoice: InvoiceRecord; pa: PaRow }> {
  const { paymentAdviceId, studentId } = await readInvoice(tx, id);
  if (studentId) await lockStudentMoney(tx, studentId);
  const pa = await readPaRow(tx, paymentAdviceId, { forUpdate: true, includeDeleted: true });
  return { invoice: await readInvoice(tx, id, true), pa };
}

/** A PA row read with includeDeleted, refused as readPaRow refuses a deleted one. */
function livePa(pa: PaRow): PaRow {
  if (pa.status === "deleted") throw new FinanceError(404, PA_MESSAGES.notFound);
  return pa;
}

const cents = (v: string) => numericToCents(v) ?? 0;

/** POST /finances/invoices: the PA's invoice (total = its totalPayable, INV number); the existing one when it has one. */
export async function issueInvoice(db: Db, paymentAdviceId: string, by: string | null, can: InvoiceActionCheck): Promise<InvoiceRecord> {
  await requireRight(can, "issue");
  return financeTransaction(db, async (tx) => (await issueInvoiceIn(tx, paymentAdviceId, by)).invoice);
}

/**
 * The PA's invoice, made unless it has one, under the locks lockInvoice takes (the student, the PA, the invoice: a
 * new invoice is this transaction's own), with the PA row read under its lock.
 */
async function issueInvoiceIn(tx: Queryable, paymentAdviceId: string, by: string | null): Promise<{ invoice: InvoiceRecord; pa: PaRow }> {
  await lockStudentMoney(tx, (await readPaRow(tx, paymentAdviceId)).studentId);
  const pa = await readPaRow(tx, paymentAdviceId, { forUpdate: true });
  const { rows: existing } = await tx.query<{ id: string }>(
    `select id from invoices where "paymentAdviceId" = $1 and "invoiceStatus" <> 'voided' and status <> 'deleted' order by "createdAt" limit 1`,
    [paymentAdviceId],
  );
  if (existing[0]) return { invoice: await readInvoice(tx, existing[0].id, true), pa };
  if (!isPaInvoiceable(pa.paymentStatus)) throw new FinanceError(400, INVOICE_MESSAGES.paNotIssued);
  const today = todayInSingapore();
  const name = await nextDocumentNumber(tx, "invoice", pa.companyId, Number(today.slice(0, 4)));
  const total = pa.summary?.total ?? "0";
  const { rows } = await tx.query<InvoiceRecord>(
    `insert into invoices (name, "invoiceDate", total, "invoiceStatus", "paymentAdviceId", "companyId", "studentId", "createdBy", "updatedBy")
     values ($1, $2::date, $3::numeric, 'active', $4, $5, $6, $7, $7) returning ${INVOICE_COLUMNS}`,
    [name, today, total, paymentAdviceId, pa.companyId, pa.studentId, by],
  );
  return { invoice: rows[0]!, pa };
}

/** Σ non-voided successful payments of the invoice. */
async function receivedOn(tx: Queryable, invoiceId: string): Promise<Cents> {
  const { rows } = await tx.query<{ total: string }>(
    `select coalesce(sum(amount), 0)::text as total from invoice_payments where "invoiceId" = $1 and status <> 'deleted' and "transactionStatus" = 'success'`,
    [invoiceId],
  );
  return cents(rows[0]!.total);
}

/**
 * After the money on an invoice changed: its status and paid amount (and, with a new receipt, its receipt mark), the
 * PA's status (logged) and its deposits. `lockedPa`: the PA row the caller read under its lock (lockInvoiceAndPa),
 * unchanged since. Returns the invoice and the PA as they now stand.
 */
async function settle(tx: Queryable, invoice: InvoiceRecord, lockedPa: PaRow, by: string | null, receiptMade = false): Promise<{ invoice: InvoiceRecord; pa: PaRow }> {
  const total = cents(invoice.total);
  const received = await receivedOn(tx, invoice.id);
  const { rows: settled } = await tx.query<InvoiceRecord>(
    `update invoices set "paidAmount" = $2::numeric, "invoiceStatus" = $3, "updatedBy" = $4${receiptMade ? `, "isGeneratedReceipt" = true` : ""} where id = $1 returning ${INVOICE_COLUMNS}`,
    [invoice.id, centsToNumeric(received), invoiceStatusFor(total, received), by],
  );
  const pa = livePa(lockedPa);
  const paStatus = paStatusFor(total, received);
  if (pa.paymentStatus !== paStatus && isPaInvoiceable(pa.paymentStatus)) {
    const { rows: after } = await tx.query<PaRow>(`update payment_advices set "paymentStatus" = $2, "updatedBy" = $3 where id = $1 returning ${PA_COLUMNS}`, [pa.id, paStatus, by]);
    const student = await studentOf(tx, pa.studentId);
    await writeLog(tx, pa.id, "change_status", logSnapshot(pa, student), logSnapshot(after[0]!, student), by);
    // Deposits collected on the PA are paid with it; a correction back to unpaid makes them issued again (unless used).
    if (paStatus === "unpaid") {
      await tx.query(`update deposits set "depositStatus" = 'issued', "receiptId" = null, "updatedBy" = $2 where "paymentAdviceId" = $1 and "depositStatus" = 'paid' and status <> 'deleted'`, [pa.id, by]);
    } else {
      await tx.query(
        `update deposits set "depositStatus" = 'paid', "receiptId" = (select id from receipts where "invoiceId" = $3 and status = 'active' order by "createdAt" desc limit 1), "updatedBy" = $2
         where "paymentAdviceId" = $1 and "depositStatus" = 'issued' and status <> 'deleted'`,
        [pa.id, by, invoice.id],
      );
    }
    return { invoice: settled[0]!, pa: after[0]! };
  }
  return { invoice: settled[0]!, pa };
}

/**
 * A payment by credit note: an issued credit note of the same student with enough left; marked used when
 * nothing is left. Money out (FINANCE.md §7): the caller holds the student's and the invoice's locks; the
 * credit note is locked here and read after the lock, so two payments — or a payment and a refund that
 * includes it (locked in the same order) — cannot both spend it.
 */
async function useCreditNote(tx: Queryable, creditNoteId: string, studentId: string | null, amount: Cents, by: string | null): Promise<void> {
  await lockDocuments(tx, "credit_notes", [creditNoteId]);
  const { rows } = await tx.query<{ total: string | null; usedAmount: string; studentId: string; creditNoteStatus: string }>(
    `select summary->>'total' as total, "usedAmount"::text as "usedAmount", "studentId", "creditNoteStatus" from credit_notes where id = $1 and status <> 'deleted'`,
    [creditNoteId],
  );
  const cn = rows[0];
  if (!cn || cn.creditNoteStatus !== "issued" || cn.studentId !== studentId) throw new FinanceError(400, INVOICE_MESSAGES.creditNoteUnusable, { creditNoteId: INVOICE_MESSAGES.creditNoteUnusable });
  const left = creditNoteLeft(cents(cn.total ?? "0"), cents(cn.usedAmount));
  if (amount > left) throw new FinanceError(400, INVOICE_MESSAGES.creditNoteTooSmall(left), { amount: INVOICE_MESSAGES.creditNoteTooSmall(left) });
  await changeCreditNoteUse(tx, creditNoteId, { creditNoteStatus: cn.creditNoteStatus, usedAmount: cn.usedAmount }, cents(cn.usedAmount) + amount, left - amount === 0 ? "used" : "issued", by);
}

/** Sets what a credit note has paid so far and its status, with the log row of the change. */
async function changeCreditNoteUse(tx: Queryable, id: string, before: { creditNoteStatus: string; usedAmount: string }, usedAfter: Cents, status: "issued" | "used", by: string | null): Promise<void> {
  const after = { creditNoteStatus: status, usedAmount: centsToNumeric(usedAfter) };
  await tx.query(`update credit_notes set "usedAmount" = $2::numeric, "creditNoteStatus" = $3, "updatedBy" = $4 where id = $1`, [id, after.usedAmount, status, by]);
  await tx.query(`insert into credit_note_logs ("creditNoteId", type, "valueBefore", "valueAfter", "createdBy") values ($1, 'update', $2::jsonb, $3::jsonb, $4)`, [
    id, JSON.stringify(before), JSON.stringify(after), by,
  ]);
}

/**
 * Records a payment: the invoice (issued first when the PA has none — pass the PA id), the payment row and
 * its receipt (RC number) in one transaction; the invoice, the PA and its deposits follow.
 */
export async function recordPayment(db: Db, target: { invoiceId?: string; paymentAdviceId?: string }, input: PaymentInput, by: string | null, can: InvoiceActionCheck): Promise<PaymentReply> {
  await requireRight(can, "record-payment");
  if (!target.invoiceId) await requireRight(can, "issue");
  return financeTransaction(db, (tx) => recordPaymentIn(tx, target, input, by));
}

/**
 * recordPayment inside the caller's finance transaction (the caller checked the rights): a bank line is marked
 * recorded in the same transaction as its payment (server/finance/bankReconciliation.ts).
 */
export async function recordPaymentIn(tx: Queryable, target: { invoiceId?: string; paymentAdviceId?: string }, input: PaymentInput, by: string | null): Promise<PaymentReply> {
  const { invoice, pa: lockedPa } = target.invoiceId ? await lockInvoiceAndPa(tx, target.invoiceId) : await issueInvoiceIn(tx, target.paymentAdviceId!, by);
  if (invoice.invoiceStatus === "voided") throw new FinanceError(400, INVOICE_MESSAGES.voided);
  const pa = livePa(lockedPa);
  const outOfWindow = paymentDateError(input.paymentDate, pa.issueDate, todayInSingapore());
  if (outOfWindow) throw new FinanceError(400, outOfWindow, { paymentDate: outOfWindow });
  if (input.paymentMethod === "credit_note") await useCreditNote(tx, input.creditNoteId!, invoice.studentId, input.amount, by);
  const name = await nextDocumentNumber(tx, "receipt", invoice.companyId, Number(input.paymentDate.slice(0, 4)));
  const amount = centsToNumeric(input.amount);
  const { rows: receipt } = await tx.query<{ id: string }>(
    `insert into receipts (name, "receiptDate", amount, "paymentMethod", "cardType", "invoiceId", "paymentAdviceId", "companyId", "branchId", "studentId", status, "createdBy", "updatedBy")
     values ($1, $2::date, $3::numeric, $4, $5, $6, $7, $8, $9, $10, 'active', $11, $11) returning id`,
    [name, input.paymentDate, amount, input.paymentMethod, input.cardType, invoice.id, invoice.paymentAdviceId, invoice.companyId, pa.branchId, invoice.studentId, by],
  );
  await tx.query(
    `insert into invoice_payments ("invoiceId", "receiptId", amount, "paymentMethod", "cardType", "transactionStatus", "referenceNo", "paidAt", "creditNoteId", "createdBy", "updatedBy")
     values ($1, $2, $3::numeric, $4, $5, 'success', $6, ($7::date)::timestamp at time zone 'Asia/Singapore', $8, $9, $9)`,
    [invoice.id, receipt[0]!.id, amount, input.paymentMethod, input.cardType, input.referenceNo, input.paymentDate, input.creditNoteId, by],
  );
  const settled = await settle(tx, invoice, pa, by, true);
  await postPayment(
    tx,
    { id: receipt[0]!.id, name, companyId: invoice.companyId, studentId: invoice.studentId!, paymentAdviceId: invoice.paymentAdviceId, amount, paymentMethod: input.paymentMethod, receiptDate: input.paymentDate },
    settled.pa,
    by,
  );
  return { invoice: settled.invoice, receipt: { id: receipt[0]!.id, name, amount } };
}

/** Void a payment's receipt (reason kept): the money leaves the invoice; a credit note it used is given back. */
export async function voidReceipt(db: Db, receiptId: string, reason: string, by: string | null, can: InvoiceActionCheck): Promise<InvoiceRecord> {
  await requireRight(can, "void-payment");
  return financeTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ invoiceId: string | null; status: string }>(`select "invoiceId", status from receipts where id = $1`, [receiptId]);
    const receipt = rows[0];
    if (!receipt?.invoiceId || receipt.status === "deleted") throw new FinanceError(404, INVOICE_MESSAGES.receiptNotFound);
    const { invoice, pa } = await lockInvoiceAndPa(tx, receipt.invoiceId);
    // read again under the invoice's lock: a concurrent void of the same receipt has finished by now
    const { rows: locked } = await tx.query<{ status: string }>(`select status from receipts where id = $1 for update`, [receiptId]);
    if (locked[0]!.status === "voided") throw new FinanceError(400, INVOICE_MESSAGES.receiptVoided);
    // Money out never exceeds money in (FINANCE.md §7): a receipt whose money a live credit note or refund gives back stays.
    const madeFrom = await liveCreditFromReceipt(tx, receiptId);
    if (madeFrom.length) throw new FinanceError(409, INVOICE_MESSAGES.receiptCredited(madeFrom.join(", ")));
    const { rows: payments } = await tx.query<{ id: string; amount: string; creditNoteId: string | null }>(
      `select id, amount::text as amount, "creditNoteId" from invoice_payments where "receiptId" = $1 and status <> 'deleted'`,
      [receiptId],
    );
    // A deposit collected on the PA and already deducted on another PA (or refunded) was paid by this money: the
    // void would leave it spent but never collected (as for a void of the paid PA, FINANCE.md §4).
    const { rows: depositRows } = await tx.query<{ id: string }>(`select id from deposits where "paymentAdviceId" = $1 and status <> 'deleted'`, [invoice.paymentAdviceId]);
    await lockDocuments(tx, "deposits", depositRows.map((d) => d.id));
    const after = (await receivedOn(tx, invoice.id)) - payments.reduce((sum, p) => sum + cents(p.amount), 0);
    // An overpaid credit note made from another receipt of the invoice gives back its overpayment: the void may not
    // take the overpayment below it (the credit note would give back money no longer received).
    const overpaidNotes = await liveOverpaidCredit(tx, invoice.paymentAdviceId);
    if (overpaidNotes.total > 0 && after - cents(invoice.total) < overpaidNotes.total) throw new FinanceError(409, INVOICE_MESSAGES.receiptCredited(overpaidNotes.names.join(", ")));
    if (after < cents(invoice.total)) {
      const { rows: used } = await tx.query(`select 1 from deposits where "paymentAdviceId" = $1 and "depositStatus" in ('used', 'refunded') and status <> 'deleted' limit 1`, [invoice.paymentAdviceId]);
      if (used.length) throw new FinanceError(409, INVOICE_MESSAGES.receiptDepositUsed);
    }
    for (const p of payments) {
      if (!p.creditNoteId) continue;
      const { rows: cn } = await tx.query<{ usedAmount: string; creditNoteStatus: string }>(`select "usedAmount"::text as "usedAmount", "creditNoteStatus" from credit_notes where id = $1 for update`, [p.creditNoteId]);
      await changeCreditNoteUse(tx, p.creditNoteId, cn[0]!, Math.max(0, cents(cn[0]!.usedAmount) - cents(p.amount)), "issued", by);
    }
    await markReceiptsVoided(tx, [receiptId], reason, by);
    const settled = await settle(tx, invoice, pa, by);
    await postReceiptVoided(tx, receiptId, by);
    return settled.invoice;
  });
}

/** The PA's live overpaid credit notes (on their way, issued or used): their total and their numbers. */
async function liveOverpaidCredit(tx: Queryable, paymentAdviceId: string): Promise<{ total: Cents; names: string[] }> {
  const { rows } = await tx.query<{ name: string; total: string }>(
    `select coalesce(name, 'a credit note awaiting approval') as name, coalesce((summary->>'total')::numeric, 0)::text as total from credit_notes
     where "paymentAdviceId" = $1 and type = 'overpaid' and status <> 'deleted' and "creditNoteStatus" not in ('rejected', 'voided', 'delete') order by name`,
    [paymentAdviceId],
  );
  return { total: rows.reduce((s, r) => s + cents(r.total), 0), names: rows.map((r) => r.name) };
}

/** The live credit notes (on their way, issued or used) and refunds (not rejected) made from a receipt's money, by number. */
async function liveCreditFromReceipt(tx: Queryable, receiptId: string): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>(
    `select coalesce(cn.name, 'a credit note awaiting approval') as name from credit_notes cn join credit_note_fees f on f.id = cn."creditNoteFeeId"
      where f."receiptId" = $1 and cn.status <> 'deleted' and cn."creditNoteStatus" not in ('rejected', 'voided')
     union all
     select coalesce(rf.name, 'a refund in progress') from refunds rf
      where rf.status <> 'deleted' and rf."refundStatus" not in ('rejected_by_sale', 'rejected_by_finance')
        and exists (select 1 from refund_classes rc where rc."refundId" = rf.id and rc."receiptId" = $1 and rc.status = 'active')`,
    [receiptId],
  );
  return rows.map((r) => r.name);
}

/**
 * Voids receipts and their payments the one way the reports read them: the receipt `voided` with its reason,
 * its payments `deleted`. Both keep their day, so the daily receipt and closing reports show them in their
 * Voided column on that day. `withPa`: voided with their paid PA, their money kept as the student's credit
 * (not given back). The caller holds the locks.
 */
export async function markReceiptsVoided(tx: Queryable, receiptIds: readonly string[], reason: string, by: string | null, withPa = false): Promise<void> {
  if (!receiptIds.length) return;
  await tx.query(`update invoice_payments set status = 'deleted', "updatedBy" = $2 where "receiptId" = any($1::uuid[]) and status <> 'deleted'`, [receiptIds, by]);
  await tx.query(
    `update receipts set status = 'voided', "voidReason" = $2, "voidedWithPa" = $4, "updatedBy" = $3 where id = any($1::uuid[]) and status not in ('voided', 'deleted')`,
    [receiptIds, reason, by, withPa],
  );
}

/** Void an invoice with a reason; refused while it has payments that are not voided. */
export async function voidInvoice(db: Db, invoiceId: string, reason: string, by: string | null, can: InvoiceActionCheck): Promise<InvoiceRecord> {
  await requireRight(can, "void");
  return financeTransaction(db, async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (invoice.invoiceStatus === "voided") throw new FinanceError(400, INVOICE_MESSAGES.voided);
    if ((await receivedOn(tx, invoiceId)) > 0) throw new FinanceError(400, INVOICE_MESSAGES.hasPayments);
    await tx.query(`update invoices set "invoiceStatus" = 'voided', reasons = $2, "updatedBy" = $3 where id = $1`, [invoiceId, reason, by]);
    return readInvoice(tx, invoiceId);
  });
}

/** The invoice screen's data in one read: invoice, its PA, the student, every payment with its receipt. */
export async function invoiceDetail(db: Queryable, invoiceId: string): Promise<InvoiceDetail> {
  const invoice = await readInvoice(db, invoiceId);
  const pa = await readPaRow(db, invoice.paymentAdviceId, { includeDeleted: true });
  const { rows: student } = await db.query<{ id: string; fullName: string | null; studentId: string | null }>(`select id, "fullName", "studentId" from users where id = $1`, [invoice.studentId]);
  const { rows: payments } = await db.query<InvoiceDetail["payments"][number]>(
    `select p.id, p.amount::text as amount, p."paymentMethod", p."cardType", p."referenceNo",
       to_char(p."paidAt" at time zone 'Asia/Singapore', 'YYYY-MM-DD') as "paymentDate", p.status, cn.name as "creditNoteName",
       case when r.id is null then null else json_build_object('id', r.id, 'name', r.name, 'status', r.status, 'voidReason', r."voidReason") end as receipt
     from invoice_payments p left join receipts r on r.id = p."receiptId" left join credit_notes cn on cn.id = p."creditNoteId"
     where p."invoiceId" = $1 order by p."paidAt", p."createdAt"`,
    [invoiceId],
  );
  const { due, overpaid } = balanceOf(cents(invoice.total), cents(invoice.paidAmount));
  return {
    invoice,
    paymentAdvice: { id: pa.id, name: pa.name, paymentStatus: pa.paymentStatus, issueDate: pa.issueDate, dueDate: pa.dueDate, total: pa.summary?.total ?? "0.00" },
    student: student[0] ?? null,
    payments,
    balanceDue: centsToNumeric(due),
    overpaid: centsToNumeric(overpaid),
  };
}
