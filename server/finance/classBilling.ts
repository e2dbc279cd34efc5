/**
 * What a student was billed for one class, read for the credit notes and refunds that give money back
 * for it: the latest issued payment advice whose class cards include the class (its GST rate, the
 * class's billed unit price — its total after discounts ÷ lessons billed — and billed lessons) and the receipts of money received on the student's PAs of that class.
 */
import type { Queryable } from "../db/index.ts";
import { numericToCents, type Cents } from "../../src/domain/money.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { billedUnitPrice } from "../../src/domain/finance/caps.ts";

export interface ClassBilling {
  paymentAdviceId: string;
  paName: string | null;
  paymentStatus: string;
  companyId: string;
  gst: GstPercent;
  /** The billed per-lesson price (FINANCE.md §4), never the list price before discounts. */
  unitPrice: Cents;
  billedLessonIds: string[];
}

export interface ClassReceipt {
  id: string;
  name: string;
  amount: string;
  receiptDate: string;
  paymentAdviceId: string;
}

const BILLING_STATUSES = `('unpaid', 'paid', 'overpaid')`;

/**
 * The PA that billed the class last (issued, not voided or withdrawn), one with money received first — an
 * unpaid PA left after a withdrawal (per class card) bills only lessons nobody paid for — or null when none did.
 */
export async function classBilling(db: Queryable, studentId: string, classId: string, paymentAdviceId?: string | null): Promise<ClassBilling | null> {
  const { rows } = await db.query<{ id: string; name: string | null; paymentStatus: string; companyId: string; gst: string; card: { responses?: { total?: string; lessons?: number; lessonIds?: string[]; additionalLesson?: { quantity?: number } } } }>(
    `select pa.id, pa.name, pa."paymentStatus", pa."companyId", pa.gst::text as gst, card
     from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") card
     where pa."studentId" = $1 and pa.status = 'active' and pa."paymentStatus" in ${BILLING_STATUSES} and card->>'id' = $2
       and ($3::uuid is null or pa.id = $3::uuid)
     order by exists (select 1 from receipts r where r."paymentAdviceId" = pa.id and r.status = 'active') desc, pa."issueDate" desc nulls last, pa."createdAt" desc limit 1`,
    [studentId, classId, paymentAdviceId ?? null],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    paymentAdviceId: r.id,
    paName: r.name,
    paymentStatus: r.paymentStatus,
    companyId: r.companyId,
    gst: Number(r.gst) as GstPercent,
    unitPrice: billedUnitPrice(numericToCents(r.card.responses?.total ?? "0") ?? 0, (r.card.responses?.lessons ?? 0) + (r.card.responses?.additionalLesson?.quantity ?? 0)),
    billedLessonIds: r.card.responses?.lessonIds ?? [],
  };
}

/** `GET /refund/get-receipt-of-class`: active receipts of the student's issued PAs billing the class, newest first. */
export async function receiptsOfClass(db: Queryable, studentId: string, classId: string): Promise<ClassReceipt[]> {
  const { rows } = await db.query<ClassReceipt>(
    `select r.id, r.name, r.amount::text as amount, r."receiptDate"::text as "receiptDate", r."paymentAdviceId"
     from receipts r join payment_advices pa on pa.id = r."paymentAdviceId"
     where r."studentId" = $1 and r.status = 'active' and pa.status = 'active' and pa."paymentStatus" in ${BILLING_STATUSES}
       and exists (select 1 from jsonb_array_elements(pa."classInformations") card where card->>'id' = $2)
     order by r."receiptDate" desc, r.name desc`,
    [studentId, classId],
  );
  return rows;
}

/** A receipt of the student's (any class): its PA, for the GST rate and the unit price of the class. */
export async function studentReceipt(db: Queryable, studentId: string, receiptId: string): Promise<{ id: string; amount: Cents; paymentAdviceId: string | null } | null> {
  const { rows } = await db.query<{ id: string; amount: string; paymentAdviceId: string | null }>(
    `select id, amount::text as amount, "paymentAdviceId" from receipts where id = $1 and "studentId" = $2 and status = 'active'`,
    [receiptId, studentId],
  );
  const r = rows[0];
  return r ? { id: r.id, amount: numericToCents(r.amount) ?? 0, paymentAdviceId: r.paymentAdviceId } : null;
}
