/**
 * The document-level identities of FINANCE.md §6 checked straight on the tables (what `npm run reconcile` will do
 * from the ledger): each check answers the offending documents, so a failing test names them.
 */
import type { Queryable } from "../../server/db/index.ts";

export const MONEY_MODEL_CHECKS: Record<string, string> = {
  // receipts carry the finance service's statuses only
  "receipt status": `select name from receipts where status not in ('active', 'voided')`,
  // every receipt is one payment of the same amount, method and day; voided together
  "receipt = its payment": `select r.name from receipts r left join invoice_payments p on p."receiptId" = r.id
    where p.id is null or p.amount <> r.amount or p."paymentMethod" <> r."paymentMethod"
      or to_char(p."paidAt" at time zone 'Asia/Singapore', 'YYYY-MM-DD') <> r."receiptDate"::text or ((p.status = 'deleted') <> (r.status = 'voided'))`,
  "payment without receipt": `select id::text as name from invoice_payments where "receiptId" is null`,
  // invoice: Σ non-voided payments = amount received, its status from it; the PA follows
  "invoice received": `select i.name from invoices i left join lateral (select coalesce(sum(amount), 0) as got from invoice_payments p
      where p."invoiceId" = i.id and p.status <> 'deleted' and p."transactionStatus" = 'success') x on true
    where i.status <> 'deleted' and (i."paidAmount" <> x.got or (i."invoiceStatus" <> 'voided' and i."invoiceStatus" <> case when x.got <= 0 then 'active' when x.got < i.total then 'partial_payment' when x.got = i.total then 'paid' else 'overpaid' end))`,
  "invoice total = PA totalPayable": `select i.name from invoices i join payment_advices pa on pa.id = i."paymentAdviceId"
    where i.status <> 'deleted' and i."invoiceStatus" <> 'voided' and i.total <> (pa."paymentSummaryStatic"->>'totalPayable')::numeric`,
  "PA status = its invoice": `select pa.name from payment_advices pa join invoices i on i."paymentAdviceId" = pa.id and i.status <> 'deleted' and i."invoiceStatus" <> 'voided'
    where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid')
      and pa."paymentStatus" <> case when i."paidAmount" < i.total or i."paidAmount" <= 0 then 'unpaid' when i."paidAmount" = i.total then 'paid' else 'overpaid' end`,
  "dead PA with money": `select pa.name from payment_advices pa join invoices i on i."paymentAdviceId" = pa.id join invoice_payments p on p."invoiceId" = i.id
    where pa."paymentStatus" in ('draft', 'withdrawn') and p.status <> 'deleted'`,
  // deposits: paid with their PA, used only by a deduction, refunded only by a refunded refund
  "deposit follows its PA": `select d.name from deposits d join payment_advices pa on pa.id = d."paymentAdviceId"
    where d.status = 'active' and ((d."depositStatus" in ('paid', 'used', 'refunded')) <> (pa."paymentStatus" in ('paid', 'overpaid')))`,
  "deposit refunded by nothing": `select d.name from deposits d where d.status = 'active' and d."depositStatus" = 'refunded'
    and not exists (select 1 from refunds r where r."refundStatus" = 'refunded' and r."depositIds" ? d.id::text)`,
  "deposit used by nothing": `select d.name from deposits d where d.status = 'active' and d."depositStatus" = 'used'
    and not exists (select 1 from payment_advices pa, jsonb_array_elements(pa."classInformations") c, jsonb_array_elements(coalesce(c->'deductedDeposit', '[]'::jsonb)) dd
      where pa.status = 'active' and pa."paymentStatus" not in ('draft', 'voided') and dd->>'depositId' = d.id::text)`,
  // numbers: assigned on issue only, no gap, no duplicate per company, year and prefix
  "number gap or duplicate": `select t || ' ' || "companyId" || ' ' || y as name from (
      select t, "companyId", y, count(*) as n, count(distinct no) as d, max(no) as hi, min(no) as lo from (
        select t, "companyId", split_part(name, '-', 3) as y, split_part(name, '-', 4)::int as no from (
          select 'PA' as t, name, "companyId" from payment_advices union all select 'INV', name, "companyId" from invoices union all
          select 'RC', name, "companyId" from receipts union all select 'CN', name, "companyId" from credit_notes union all
          select 'RF', name, "companyId" from refunds union all select 'DEP', name, "companyId" from deposits) a where name is not null) b
      group by 1, 2, 3) c where n <> d or lo <> 1 or hi <> n`,
  "draft with a number": `select id::text as name from payment_advices where "paymentStatus" = 'draft' and name is not null
    union all select id::text from credit_notes where "creditNoteStatus" not in ('issued', 'used', 'voided') and name is not null
    union all select id::text from refunds where "refundStatus" <> 'refunded' and name is not null`,
  // money out within money in, per student (the weak form: lessons delivered are not valued here): credit notes
  // issued or used + refunds paid out (less the credit notes they include, already counted) ≤ received
  "money out over money in": `select o.s::text as name from (
      select s, sum(out) as out from (
        select "studentId" as s, (summary->>'total')::numeric as out from credit_notes where status = 'active' and "creditNoteStatus" in ('issued', 'used')
        union all select r."studentId", (r.summary->>'total')::numeric - coalesce((select sum((c.summary->>'total')::numeric) from credit_notes c where r."creditNoteIds" ? c.id::text), 0)
        from refunds r where r.status = 'active' and r."refundStatus" = 'refunded') x group by s) o
    where o.out > (select coalesce(sum(p.amount), 0) from invoice_payments p join invoices i on i.id = p."invoiceId" where i."studentId" = o.s and p.status <> 'deleted')`,
  "overpaid credit note over the excess": `select cn.name from credit_notes cn join credit_note_fees f on f.id = cn."creditNoteFeeId" join receipts r on r.id = f."receiptId" join invoices i on i.id = r."invoiceId"
    where cn.type = 'overpaid' and cn.status = 'active' and cn."creditNoteStatus" in ('issued', 'used') and i."invoiceStatus" <> 'voided' and (cn.summary->>'total')::numeric > i."paidAmount" - i.total`,
};

/** Each check's offending documents (an empty object when the data obeys the model). */
export async function moneyModelViolations(db: Queryable): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [check, sql] of Object.entries(MONEY_MODEL_CHECKS)) {
    const { rows } = await db.query<{ name: string }>(sql);
    if (rows.length) out[check] = rows.slice(0, 10).map((r) => r.name);
  }
  return out;
}
