/**
 * The ledger's one writer (FINANCE.md §7): every finance operation calls one `post…` here, inside its own
 * finance transaction, right after its document change. Each reads the figures it needs, asks the pure
 * rules of src/domain/finance/ledger.ts for the lines and writes one balanced entry (the database checks
 * the balance at commit). Nothing else writes journal rows.
 */
import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/index.ts";
import { withoutJit } from "../db/jit.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import {
  creditNoteIssued,
  creditNoteVoided,
  paEdited,
  paIssued,
  paReversed,
  paTarget,
  paVoidedPaid,
  paymentReceived,
  receiptVoided,
  refundRefunded,
  revenueRecognisedByPart,
  type RecognitionPart,
  type AlreadyCredited,
  type CreditNoteFigures,
  type LedgerLine,
  type LedgerOperation,
  type PaFigures,
  type PaStanding,
  type RefundFigures,
} from "../../src/domain/finance/ledger.ts";
import { refundClassFigures } from "../../src/domain/finance/refund.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import type { PaRow } from "./paymentAdviceRecord.ts";
import { revenueLinesSql } from "./revenueLines.ts";

export type LedgerDocumentType = "payment_advice" | "receipt" | "credit_note" | "refund";

export interface EntryHead {
  companyId: string;
  studentId: string;
  /** The Singapore day the entry belongs to (YYYY-MM-DD). */
  day: string;
  operation: LedgerOperation;
  documentType: LedgerDocumentType;
  documentId: string;
  documentNumber: string | null;
  createdBy: string | null;
}

export interface Entry {
  head: EntryHead;
  lines: LedgerLine[];
}

export const cents = (v: string | number | null | undefined): Cents => numericToCents(v ?? "0") ?? 0;

/** Writes entries and their lines in one statement; entries without lines are skipped. */
export async function writeEntries(tx: Queryable, entries: readonly Entry[]): Promise<number> {
  const real = entries.filter((e) => e.lines.length > 0).map((e) => ({ ...e, id: randomUUID() }));
  if (!real.length) return 0;
  await tx.query(
    // the lines' foreign key to their entry is checked at the end of the statement, when the CTE's entries are in
    `with entries as (
       insert into journal_entries (id, "companyId", "studentId", day, operation, "documentType", "documentId", "documentNumber", "createdBy", "updatedBy")
       select id, "companyId", "studentId", day, operation, "documentType", "documentId", "documentNumber", "createdBy", "createdBy"
       from json_to_recordset($1::text::json) as x(id uuid, "companyId" uuid, "studentId" uuid, day date, operation text, "documentType" text, "documentId" uuid, "documentNumber" text, "createdBy" uuid))
     insert into journal_lines ("entryId", "companyId", "studentId", day, account, method, debit, credit, "classId", "revenueMonth", "revenueFigure", "createdBy", "updatedBy")
     select "entryId", "companyId", "studentId", day, account, method, debit, credit, "classId", "revenueMonth", "revenueFigure", "createdBy", "createdBy"
     from json_to_recordset($2::text::json) as x("entryId" uuid, "companyId" uuid, "studentId" uuid, day date, account text, method text, debit numeric, credit numeric,
       "classId" uuid, "revenueMonth" date, "revenueFigure" text, "createdBy" uuid)`,
    [
      JSON.stringify(real.map((e) => ({ id: e.id, ...e.head }))),
      JSON.stringify(
        real.flatMap((e) =>
          e.lines.map((l) => ({
            entryId: e.id, companyId: e.head.companyId, studentId: e.head.studentId, day: e.head.day, account: l.account, method: l.method,
            debit: centsToNumeric(l.debit), credit: centsToNumeric(l.credit), classId: l.classId ?? null, revenueMonth: l.revenueMonth ?? null, revenueFigure: l.revenueFigure ?? null, createdBy: e.head.createdBy,
          })),
        ),
      ),
    ],
  );
  return real.length;
}

/**
 * Posts one entry (nothing when the operation moves no money), then brings the student's revenue recognition up
 * to date in the same transaction: every operation can change what a PA recognises (a payment makes its fees due,
 * a credit note or a void takes revenue back, an edit changes its lessons). The caller holds the student's lock.
 */
export async function postEntry(tx: Queryable, head: EntryHead, lines: LedgerLine[]): Promise<void> {
  // one insert for both: the recognition read compares the documents with the recognition entries posted so far,
  // which the operation's own entry is not one of
  await writeEntries(tx, [{ head, lines }, ...(await recognitionEntries(tx, [head.studentId], head.createdBy))]);
}

/** A student's customer_credit and deposits_held balances in the ledger (the caller holds the student's lock to spend them). */
export async function studentBalances(db: Queryable, studentId: string): Promise<{ customerCredit: Cents; depositsHeld: Cents }> {
  const { rows } = await db.query<{ credit: string; held: string }>(
    `select coalesce(sum(credit - debit) filter (where account = 'customer_credit'), 0)::text as credit,
            coalesce(sum(credit - debit) filter (where account = 'deposits_held'), 0)::text as held
     from journal_lines where "studentId" = $1 and account in ('customer_credit', 'deposits_held')`,
    [studentId],
  );
  return { customerCredit: cents(rows[0]?.credit), depositsHeld: cents(rows[0]?.held) };
}

// ── revenue recognition ────────────────────────────────────────────────────────────────────────

export interface RecognitionGap {
  paymentAdviceId: string;
  name: string | null;
  companyId: string;
  studentId: string;
  /** Its class (null: the PA's fees) and month whose figure differs. */
  classId: string | null;
  revenueMonth: string | null;
  /** Which of the revenue report's figures differs: billed, credited or recognised. */
  figure: RecognitionPart["figure"];
  /** What the revenue model states for it today (server/finance/revenueLines.ts). */
  target: Cents;
  /** What the PA's recognition entries state for it so far. */
  posted: Cents;
}

/**
 * The figures (billed, credited, recognised) of each class and month of the PAs (of the students given, or all) whose
 * ledger lines differ from what the revenue model states today: live PAs by the model, voided, withdrawn and deleted
 * ones at zero, recognition lines posted before the split (no class, no month) at zero.
 */
export async function recognitionGaps(db: Queryable, studentIds: readonly string[] | null): Promise<RecognitionGap[]> {
  // Two statements, not `$1 is null or …`: a prepared statement's generic plan for that scans every PA (~0.3 s a
  // PA issued at scale 20000, the billing run's cost), where the students' own filter uses their index; so does the
  // entries' (documentType, documentId) index, once the type is named (without it: a scan of every entry, ~0.15 s).
  const mine = studentIds === null ? `$1::uuid[] is null` : `pa."studentId" = any($1::uuid[])`;
  const { rows } = await db.query<{ id: string; name: string | null; companyId: string; studentId: string; classId: string | null; revenueMonth: string | null; figure: RecognitionPart["figure"]; target: string; posted: string }>(
    `with ${revenueLinesSql(mine)},
     parts as (
       select pa, class_id::uuid as class_id, date_trunc('month', date)::date as month, figure, target, 0::numeric as posted
       from revenue_lines cross join lateral (values ('billed', cents), ('credited', credited), ('recognised', case when held then cents - credited else 0 end)) v(figure, target)
       union all
       select e."documentId", l."classId", l."revenueMonth", coalesce(l."revenueFigure", 'recognised'), 0,
         sum(case when l."revenueFigure" = 'credited' then l.debit - l.credit else l.credit - l.debit end) * 100
       from journal_entries e join journal_lines l on l."entryId" = e.id
       where e.operation = 'revenue_recognised' and (l.account = 'revenue_recognised' or l."revenueFigure" is not null)
         and ${studentIds === null ? `$1::uuid[] is null` : `e."documentType" = 'payment_advice' and e."documentId" in (select p.id from payment_advices p where p."studentId" = any($1::uuid[]))`}
       group by 1, 2, 3, 4
     ), gaps as (
       select pa, class_id, month, figure, sum(target) as target, sum(posted) as posted from parts group by 1, 2, 3, 4 having sum(target) <> sum(posted)
     )
     select pa.id, pa.name, pa."companyId", pa."studentId", g.class_id as "classId", g.month::text as "revenueMonth", g.figure,
       (g.target / 100.0)::numeric(14,2)::text as target, (g.posted / 100.0)::numeric(14,2)::text as posted
     from gaps g join payment_advices pa on pa.id = g.pa
     order by pa."studentId", pa.id, g.class_id nulls first, g.month nulls first, g.figure`,
    [studentIds],
    // prepared once per connection: planning this statement (~20–40 ms) cost more than running it for a student
    { reuse: true },
  );
  return rows.map((r) => ({
    paymentAdviceId: r.id, name: r.name, companyId: r.companyId, studentId: r.studentId, classId: r.classId, revenueMonth: r.revenueMonth, figure: r.figure, target: cents(r.target), posted: cents(r.posted),
  }));
}

/**
 * Recognition entries for the students given (the caller holds their locks): one per PA whose figures differ from
 * the model's in any class and month, dated today, moving each part's difference on lines naming the part
 * (`revenueRecognisedByPart`). Idempotent: a second run the same day finds
 * nothing to move. Returns how many entries were written.
 */
export async function recogniseRevenue(tx: Queryable, studentIds: readonly string[], by: string | null): Promise<number> {
  await withoutJit(tx);
  return writeEntries(tx, await recognitionEntries(tx, studentIds, by));
}

/** The recognition entries recogniseRevenue writes, in a finance transaction (which has turned JIT off already: server/finance/transaction.ts). */
async function recognitionEntries(tx: Queryable, studentIds: readonly string[], by: string | null): Promise<Entry[]> {
  const byPa = new Map<string, RecognitionGap[]>();
  for (const g of await recognitionGaps(tx, studentIds)) byPa.set(g.paymentAdviceId, [...(byPa.get(g.paymentAdviceId) ?? []), g]);
  const day = todayInSingapore();
  return [...byPa.values()].map((parts) => {
    const g = parts[0]!;
    return {
      head: { companyId: g.companyId, studentId: g.studentId, day, operation: "revenue_recognised", documentType: "payment_advice", documentId: g.paymentAdviceId, documentNumber: g.name, createdBy: by },
      lines: revenueRecognisedByPart(parts),
    };
  });
}

// ── payment advices and their receipts ─────────────────────────────────────────────────────────

/** The ledger figures of a PA's stored summary. */
export function paFigures(summary: PaRow["paymentSummaryStatic"]): PaFigures {
  return {
    totalBeforeGst: cents(summary?.totalBeforeGst),
    gst: cents(summary?.gst),
    deposit: cents(summary?.deposit),
    deductedDeposit: cents(summary?.deductedDeposit),
    totalPayable: cents(summary?.totalPayable),
  };
}

export interface PaHead {
  id: string;
  name: string | null;
  companyId: string;
  studentId: string;
  paymentStatus: string;
  paymentSummaryStatic: PaRow["paymentSummaryStatic"];
}

async function readPa(tx: Queryable, paId: string): Promise<PaHead> {
  const { rows } = await tx.query<PaHead>(`select id, name, "companyId", "studentId", "paymentStatus", "paymentSummaryStatic" from payment_advices where id = $1`, [paId]);
  return rows[0]!;
}

const LIVE_PA = ["unpaid", "paid", "overpaid", "overdue"];

/** Where PA $1 and its receipts stand in the ledger: receivable; deposits billed and not yet paid. */
const STANDING_SQL = `select coalesce(sum(case when l.account = 'receivable' then l.debit - l.credit end), 0)::text as receivable,
         coalesce(sum(case when l.account = 'deposits_billed' then l.credit - l.debit end), 0)::text as billed
  from journal_entries e join journal_lines l on l."entryId" = e.id
  where (e."documentType" = 'payment_advice' and e."documentId" = $1)
     or (e."documentType" = 'receipt' and e."documentId" in (select id from receipts where "paymentAdviceId" = $1))`;

/** Where a PA and its receipts stand in the ledger (receivable; deposits billed and not yet paid). */
export async function paStanding(db: Queryable, paId: string): Promise<PaStanding> {
  const { rows } = await db.query<{ receivable: string; billed: string }>(STANDING_SQL, [paId]);
  return { receivable: cents(rows[0]?.receivable), depositsBilled: cents(rows[0]?.billed) };
}

/**
 * Where a PA stands in the ledger, and what it should leave standing now from its documents (the money received on
 * its live invoices), in one statement.
 */
async function paStandingAndTarget(tx: Queryable, pa: PaHead): Promise<{ standing: PaStanding; target: PaStanding }> {
  const { rows } = await tx.query<{ receivable: string; billed: string; received: string }>(
    `select s.receivable, s.billed,
       (select coalesce(sum(ip.amount), 0) from invoice_payments ip join invoices i on i.id = ip."invoiceId"
        where i."paymentAdviceId" = $1 and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success')::text as received
     from (${STANDING_SQL}) s`,
    [pa.id],
  );
  const f = paFigures(pa.paymentSummaryStatic);
  return {
    standing: { receivable: cents(rows[0]?.receivable), depositsBilled: cents(rows[0]?.billed) },
    target: paTarget({ live: LIVE_PA.includes(pa.paymentStatus), totalPayable: f.totalPayable, deposit: f.deposit, received: cents(rows[0]?.received) }),
  };
}

const paHead = (pa: PaHead, operation: LedgerOperation, by: string | null): EntryHead => ({
  companyId: pa.companyId, studentId: pa.studentId, day: todayInSingapore(), operation, documentType: "payment_advice", documentId: pa.id, documentNumber: pa.name, createdBy: by,
});

/**
 * A draft issued: its summary as the figures. `recognise: false` leaves the student's revenue recognition to the
 * caller (the billing run recognises its students in one pass after its PAs: docs/DECISIONS.md, issue 39).
 */
export async function postPaIssued(tx: Queryable, issued: string | PaHead, by: string | null, recognise = true): Promise<void> {
  // the issuer may hand the row it just wrote (the billing run: a statement less per PA)
  const pa = typeof issued === "string" ? await readPa(tx, issued) : issued;
  const head = paHead(pa, "pa_issued", by);
  const lines = paIssued(paFigures(pa.paymentSummaryStatic));
  if (recognise) await postEntry(tx, head, lines);
  else await writeEntries(tx, [{ head, lines }]);
}

/** An unpaid PA edited: the difference between the summary before (the row read before the edit) and now. */
export async function postPaEdited(tx: Queryable, before: Pick<PaRow, "paymentStatus" | "paymentSummaryStatic">, paId: string, by: string | null): Promise<void> {
  if (before.paymentStatus !== "unpaid") return;
  const pa = await readPa(tx, paId);
  await postEntry(tx, paHead(pa, "pa_edited", by), paEdited(paFigures(before.paymentSummaryStatic), paFigures(pa.paymentSummaryStatic)));
}

/** An unpaid PA with no payment voided or withdrawn: its issue reversed. */
export async function postPaReversed(tx: Queryable, paId: string, operation: "pa_voided_unpaid" | "pa_withdrawn", by: string | null): Promise<void> {
  const pa = await readPa(tx, paId);
  await postEntry(tx, paHead(pa, operation, by), paReversed(paFigures(pa.paymentSummaryStatic)));
}

/** A paid PA voided: the sale reversed, what its payments settled turned into customer credit. */
export async function postPaVoidedPaid(tx: Queryable, paId: string, by: string | null): Promise<void> {
  const pa = await readPa(tx, paId);
  await postEntry(tx, paHead(pa, "pa_voided_paid", by), paVoidedPaid(paFigures(pa.paymentSummaryStatic), await paStanding(tx, paId), await creditedBefore(tx, paId)));
}

/** A credit note or refund line made from a PA (or its receipts), live or on its way: its status and its part before GST and GST. */
export interface CreditTaken {
  kind: "credit_note" | "refund";
  /** The credit note's type (suspension, overpaid); "withdrawal" for a refund line. */
  type: string;
  /** The credit note's or refund's status. */
  status: string;
  net: Cents;
  gst: Cents;
  /** A refund line's other payments less deductions (part of `net`); 0 for a credit note. */
  fees: Cents;
}

/**
 * Every credit note (of the PA, or made from one of its receipts) and every refund line (from one of its receipts)
 * not rejected, voided or deleted — what was given back, or is on its way to be, from the money the PA received.
 * A refund line is priced by the refund's own function at the PA's GST rate.
 */
export async function creditsFromPa(tx: Queryable, paId: string): Promise<CreditTaken[]> {
  const receipts = `(select r.id from receipts r where r."paymentAdviceId" = $1 or r."invoiceId" in (select i.id from invoices i where i."paymentAdviceId" = $1))`;
  const { rows: notes } = await tx.query<{ type: string; creditNoteStatus: string; subTotal: string | null; gst: string | null; total: string | null }>(
    `select cn.type, cn."creditNoteStatus", cn.summary->>'subTotal' as "subTotal", cn.summary->>'gst' as gst, cn.summary->>'total' as total
     from credit_notes cn left join credit_note_fees f on f.id = cn."creditNoteFeeId"
     where (cn."paymentAdviceId" = $1 or f."receiptId" in ${receipts}) and cn.status <> 'deleted' and cn."creditNoteStatus" not in ('rejected', 'voided', 'delete')`,
    [paId],
  );
  const { rows: lines } = await tx.query<{ refundStatus: string; unitPrice: string; leftLessonNo: number; oweLessonNo: number; deduction: string; otherPayments: Array<{ amount: string }> | null; gst: string }>(
    `select rf."refundStatus", rc."unitPrice"::text as "unitPrice", rc."leftLessonNo", rc."oweLessonNo", rc.deduction::text as deduction, rc."otherPayments",
            (select pa.gst::text from payment_advices pa where pa.id = $1) as gst
     from refund_classes rc join refunds rf on rf.id = rc."refundId"
     where rc."receiptId" in ${receipts} and rc.status <> 'deleted' and rf.status <> 'deleted' and rf."refundStatus" not in ('rejected_by_sale', 'rejected_by_finance')`,
    [paId],
  );
  return [
    ...notes.map((n): CreditTaken => ({ kind: "credit_note", type: n.type, status: n.creditNoteStatus, net: cents(n.subTotal), gst: n.gst === null ? cents(n.total) - cents(n.subTotal) : cents(n.gst), fees: 0 })),
    ...lines.map((l): CreditTaken => {
      const f = refundClassFigures({
        unitPrice: cents(l.unitPrice), leftLessonNo: l.leftLessonNo, oweLessonNo: l.oweLessonNo, deduction: cents(l.deduction),
        otherPayments: (l.otherPayments ?? []).map((p) => ({ name: "", amount: cents(p.amount) })), gstPercent: Number(l.gst) as GstPercent,
      });
      return { kind: "refund", type: "withdrawal", status: l.refundStatus, net: f.amount - f.gst, gst: f.gst, fees: f.otherPayments - cents(l.deduction) };
    }),
  ];
}

/** What the issued or used suspension credit notes and the refunded lessons took out of a PA's sale: before GST and GST. */
export async function creditedBefore(tx: Queryable, paId: string): Promise<AlreadyCredited> {
  const credited = { net: 0, gst: 0, fees: 0 };
  for (const c of await creditsFromPa(tx, paId)) {
    const took = c.kind === "refund" ? c.status === "refunded" : c.type === "suspension" && (c.status === "issued" || c.status === "used");
    if (!took) continue;
    credited.net += c.net;
    credited.gst += c.gst;
    credited.fees += c.fees;
  }
  return credited;
}

export interface ReceiptHead {
  id: string;
  name: string | null;
  companyId: string;
  studentId: string;
  paymentAdviceId: string;
  amount: string;
  paymentMethod: string;
  receiptDate: string;
}

async function readReceipt(tx: Queryable, receiptId: string): Promise<ReceiptHead> {
  const { rows } = await tx.query<ReceiptHead>(
    `select id, name, "companyId", "studentId", "paymentAdviceId", amount::text as amount, "paymentMethod", "receiptDate"::text as "receiptDate" from receipts where id = $1`,
    [receiptId],
  );
  return rows[0]!;
}

/**
 * A payment recorded (after the invoice and the PA have settled): the money in, the PA's standing after it. The
 * caller hands the receipt it just wrote and the PA as it stands after settling (no statement reads them again).
 */
export async function postPayment(tx: Queryable, r: ReceiptHead, pa: PaHead, by: string | null): Promise<void> {
  const { standing, target } = await paStandingAndTarget(tx, pa);
  const lines = paymentReceived({ amount: cents(r.amount), method: r.paymentMethod }, standing, target);
  await postEntry(tx, { companyId: r.companyId, studentId: r.studentId, day: r.receiptDate, operation: "payment_received", documentType: "receipt", documentId: r.id, documentNumber: r.name, createdBy: by }, lines);
}

/** A receipt voided (after the invoice and the PA have settled): the payment taken back. */
export async function postReceiptVoided(tx: Queryable, receiptId: string, by: string | null): Promise<void> {
  const r = await readReceipt(tx, receiptId);
  const pa = await readPa(tx, r.paymentAdviceId);
  const { standing, target } = await paStandingAndTarget(tx, pa);
  const lines = receiptVoided({ amount: cents(r.amount), method: r.paymentMethod }, standing, target);
  await postEntry(tx, { companyId: r.companyId, studentId: r.studentId, day: todayInSingapore(), operation: "receipt_voided", documentType: "receipt", documentId: r.id, documentNumber: r.name, createdBy: by }, lines);
}

// ── credit notes and refunds ───────────────────────────────────────────────────────────────────

export interface CnHead {
  id: string;
  name: string | null;
  companyId: string;
  studentId: string;
  type: "suspension" | "overpaid";
  summary: { subTotal?: string; gst?: string; total?: string } | null;
}

export const creditNoteFigures = (cn: Pick<CnHead, "type" | "summary">): CreditNoteFigures => ({
  type: cn.type, subTotal: cents(cn.summary?.subTotal), gst: cents(cn.summary?.gst), total: cents(cn.summary?.total),
});

/** A credit note issued (approved) or voided; the caller may hand the row as it now stands (a statement less). */
export async function postCreditNote(tx: Queryable, note: string | CnHead, operation: "credit_note_issued" | "credit_note_voided", by: string | null): Promise<void> {
  const cn =
    typeof note === "string" ? (await tx.query<CnHead>(`select id, name, "companyId", "studentId", type, summary from credit_notes where id = $1`, [note])).rows[0]! : note;
  const figures = creditNoteFigures(cn);
  const lines = operation === "credit_note_issued" ? creditNoteIssued(figures) : creditNoteVoided(figures);
  await postEntry(tx, { companyId: cn.companyId, studentId: cn.studentId, day: todayInSingapore(), operation, documentType: "credit_note", documentId: cn.id, documentNumber: cn.name, createdBy: by }, lines);
}

/** What the ledger reads of a refund row. */
export interface RefundHead {
  id: string;
  name: string | null;
  companyId: string;
  studentId: string;
  summary: { creditNoteAmount?: string; depositAmount?: string } | null;
  refundMethod: string | null;
}

/**
 * The ledger figures of a refund: its class lines priced again (GST at each receipt's PA rate), its included amounts
 * (from the row, read here unless the caller hands it).
 */
export async function refundFigures(db: Queryable, refundId: string, head?: Pick<RefundHead, "summary" | "refundMethod">): Promise<RefundFigures> {
  const { rows: classes } = await db.query<{ unitPrice: string; leftLessonNo: number; oweLessonNo: number; deduction: string; otherPayments: Array<{ amount: string }> | null; gst: string | null }>(
    `select rc."unitPrice"::text as "unitPrice", rc."leftLessonNo", rc."oweLessonNo", rc.deduction::text as deduction, rc."otherPayments",
            (select pa.gst::text from receipts r join payment_advices pa on pa.id = r."paymentAdviceId" where r.id = rc."receiptId") as gst
     from refund_classes rc where rc."refundId" = $1 and rc.status = 'active'`,
    [refundId],
  );
  const row = head ?? (await db.query<Pick<RefundHead, "summary" | "refundMethod">>(`select summary, "refundMethod" from refunds where id = $1`, [refundId])).rows[0];
  let classNet = 0;
  let classFees = 0;
  let classGst = 0;
  for (const c of classes) {
    const f = refundClassFigures({
      unitPrice: cents(c.unitPrice), leftLessonNo: c.leftLessonNo, oweLessonNo: c.oweLessonNo, deduction: cents(c.deduction),
      otherPayments: (c.otherPayments ?? []).map((p) => ({ name: "", amount: cents(p.amount) })), gstPercent: Number(c.gst ?? 0) as GstPercent,
    });
    classNet += f.leftLessonAmount - f.oweAmount;
    classFees += f.otherPayments - cents(c.deduction);
    classGst += f.gst;
  }
  return { classNet, classFees, classGst, creditNotes: cents(row?.summary?.creditNoteAmount), deposits: cents(row?.summary?.depositAmount), method: row?.refundMethod ?? "unknown" };
}

/** A refund refunded: paid out by its method. The caller may hand the row as it now stands (statements less). */
export async function postRefund(tx: Queryable, refund: string | RefundHead, by: string | null): Promise<void> {
  const r =
    typeof refund === "string"
      ? (await tx.query<RefundHead>(`select id, name, "companyId", "studentId", summary, "refundMethod" from refunds where id = $1`, [refund])).rows[0]!
      : refund;
  const lines = refundRefunded(await refundFigures(tx, r.id, r));
  await postEntry(tx, { companyId: r.companyId, studentId: r.studentId, day: todayInSingapore(), operation: "refund_refunded", documentType: "refund", documentId: r.id, documentNumber: r.name, createdBy: by }, lines);
}
