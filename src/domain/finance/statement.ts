/**
 * A family's statement (issue 39 §2), read from the ledger (FINANCE.md §7): one row per journal entry that moves
 * what the family owes — PAs issued, edited, voided or withdrawn, payments, receipts voided, credit notes, refunds
 * — with a running balance. The balance is the ledger's: receivable less customer_credit (positive: owed by the
 * family; negative: in credit). Deposits held are shown beside it, as they are money held, not owed.
 * Revenue recognition moves neither and is left out.
 */
import type { Cents } from "../money.ts";
import { balanceOf, type LedgerLine, type LedgerOperation } from "./ledger.ts";

export const STATEMENT_OPERATION_LABELS: Record<Exclude<LedgerOperation, "revenue_recognised">, string> = {
  pa_issued: "Payment advice issued",
  pa_edited: "Payment advice changed",
  pa_voided_unpaid: "Payment advice voided",
  pa_withdrawn: "Payment advice withdrawn",
  pa_voided_paid: "Paid payment advice voided",
  payment_received: "Payment received",
  receipt_voided: "Receipt voided",
  credit_note_issued: "Credit note issued",
  credit_note_voided: "Credit note voided",
  refund_refunded: "Refund paid",
};

/** What an entry moves on the statement: receivable up, customer credit down (the family owes more). */
export function statementMovement(lines: readonly LedgerLine[]): Cents {
  return balanceOf(lines, "receivable") - balanceOf(lines, "customer_credit");
}

export interface StatementEntry {
  day: string;
  operation: LedgerOperation;
  documentNumber: string | null;
  studentName: string;
  lines: readonly LedgerLine[];
}

export interface StatementRow {
  day: string;
  description: string;
  documentNumber: string | null;
  studentName: string;
  /** What the family owes more (a charge) — numeric strings, two decimals, for the wire. */
  charge: Cents;
  /** What the family owes less (a payment or credit). */
  credit: Cents;
  balance: Cents;
  depositsHeld: Cents;
}

/** Rows in the order given (the caller sorts entries by day and posting), with the running balance and deposits held. */
export function statementRows(entries: readonly StatementEntry[]): StatementRow[] {
  let balance = 0;
  let held = 0;
  const rows: StatementRow[] = [];
  for (const e of entries) {
    if (e.operation === "revenue_recognised") continue;
    const moved = statementMovement(e.lines);
    balance += moved;
    held += balanceOf(e.lines, "deposits_held");
    rows.push({
      day: e.day, description: STATEMENT_OPERATION_LABELS[e.operation], documentNumber: e.documentNumber, studentName: e.studentName,
      charge: Math.max(moved, 0), credit: Math.max(-moved, 0), balance, depositsHeld: held,
    });
  }
  return rows;
}

/** GET /finances/statements/{studentId} (issue 39 §2): the statement as the page and the PDF show it; money as numeric strings. */
export interface StatementPaper {
  company: { id: string; name: string; shortName: string | null; address: string | null; uen: string | null; hasGstNo: boolean | null; gstRefNo: string | null; telNo: string | null; logoUrl: string | null; colorCode: string | null };
  /** The companies the family has ledger entries with: a statement is one company's. */
  companies: { id: string; name: string }[];
  family: boolean;
  students: { id: string; fullName: string; username: string | null }[];
  parent: { name: string | null; email: string | null; phone: string | null } | null;
  /** The Singapore day the statement was made. */
  day: string;
  rows: Array<Omit<StatementRow, "charge" | "credit" | "balance" | "depositsHeld"> & { charge: string; credit: string; balance: string; depositsHeld: string }>;
  /** The running balance at the end: what the family owes (negative: in credit). */
  balance: string;
  depositsHeld: string;
  /** A PayNow QR per outstanding PA that can be paid by QR (its reference is the PA number, as bank reconciliation matches). */
  payNow: { paymentAdviceId: string; reference: string; uen: string; amount: string; expiry: string | null; qrCodeDataUrl: string }[];
  pdfUrl: string;
}
