/**
 * The overpaid hand-off (issue 15 → the credit-note workflow; FINANCE.md §4): from a receipt of an
 * overpaid invoice, finance makes an overpaid credit note for what was paid beyond the total, plus GST at
 * the PA's rate, the overpaid amount net of GST so that the total is the cash overpaid. It starts at awaiting_finance_approval (no number until approved), with its create log row.
 */
import type { Db } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { CREDIT_NOTE_MESSAGES, creditNoteTotals, overpaidNetOfGst, type CreditNoteRight } from "../../src/domain/finance/creditNote.ts";
import { INVOICE_MESSAGES } from "../../src/domain/finance/invoice.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { lockInvoice } from "./invoices.ts";
import { lockStudentMoney } from "./locks.ts";
import { readPaRow } from "./paymentAdviceRecord.ts";
import { FinanceError, financeTransaction, requireRight } from "./transaction.ts";


export interface OverpaidCreditNote {
  id: string;
  creditNoteStatus: "awaiting_finance_approval";
  summary: { subTotal: string; gst: string; total: string };
}

export async function createOverpaidCreditNote(db: Db, receiptId: string, by: string | null, can: (action: CreditNoteRight) => Promise<boolean>): Promise<OverpaidCreditNote> {
  await requireRight(can, "create-overpaid");
  return financeTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ invoiceId: string | null; studentId: string }>(`select r."invoiceId", coalesce(r."studentId", pa."studentId") as "studentId" from receipts r left join payment_advices pa on pa.id = r."paymentAdviceId" where r.id = $1 and r.status = 'active'`, [receiptId]);
    if (!rows[0]?.invoiceId) throw new FinanceError(404, INVOICE_MESSAGES.receiptNotFound);
    await lockStudentMoney(tx, rows[0].studentId); // FINANCE.md §1 lock order: the student's money, then the invoice
    const invoice = await lockInvoice(tx, rows[0].invoiceId);
    const overpaid = (numericToCents(invoice.paidAmount) ?? 0) - (numericToCents(invoice.total) ?? 0);
    if (invoice.invoiceStatus !== "overpaid" || overpaid <= 0) throw new FinanceError(400, CREDIT_NOTE_MESSAGES.notOverpaid);
    const { rows: earlier } = await tx.query(
      `select 1 from credit_notes where "paymentAdviceId" = $1 and type = 'overpaid' and status <> 'deleted' and "creditNoteStatus" not in ('rejected', 'voided', 'delete') limit 1`,
      [invoice.paymentAdviceId],
    );
    if (earlier.length) throw new FinanceError(409, CREDIT_NOTE_MESSAGES.alreadyCredited);
    const pa = await readPaRow(tx, invoice.paymentAdviceId);
    const gstPercent = Number(pa.gst) as GstPercent;
    const totals = creditNoteTotals({ overpaidAmount: overpaidNetOfGst(overpaid, gstPercent) }, gstPercent);
    const summary = { subTotal: centsToNumeric(totals.subTotal), gst: centsToNumeric(totals.gst), total: centsToNumeric(totals.total) };
    const { rows: fee } = await tx.query<{ id: string }>(
      `insert into credit_note_fees ("overpaidAmount", "receiptId", "createdBy", "updatedBy") values ($1::numeric, $2, $3, $3) returning id`,
      [summary.subTotal, receiptId, by],
    );
    const reason = `Overpaid on ${invoice.name}`;
    const { rows: cn } = await tx.query<{ id: string }>(
      `insert into credit_notes (type, "creditNoteStatus", reason, summary, gst, "studentId", "companyId", "paymentAdviceId", "creditNoteFeeId", "createdBy", "updatedBy")
       values ('overpaid', 'awaiting_finance_approval', $1, $2::jsonb, $3, $4, $5, $6, $7, $8, $8) returning id`,
      [reason, JSON.stringify(summary), gstPercent, pa.studentId, invoice.companyId, invoice.paymentAdviceId, fee[0]!.id, by],
    );
    await tx.query(`insert into credit_note_logs ("creditNoteId", type, "valueBefore", "valueAfter", "createdBy") values ($1, 'create', null, $2::jsonb, $3)`, [
      cn[0]!.id,
      JSON.stringify({ studentId: pa.studentId, reason, type: "overpaid", creditNoteStatus: "awaiting_finance_approval", creditNoteFee: { overpaidAmount: summary.subTotal, receiptId } }),
      by,
    ]);
    return { id: cn[0]!.id, creditNoteStatus: "awaiting_finance_approval", summary };
  });
}
