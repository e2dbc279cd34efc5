/**
 * Revenue recognition (issue 17, FINANCE.md §6): every issued PA that still asks for money (unpaid, paid,
 * overpaid) is billed at its totalBeforeGst (deposits and GST excluded), split into lines:
 * - each class card's class total, recognised lesson by lesson as its lessons are held (total ÷ lessons per
 *   lesson, the cents left over going to the first lessons so the shares add up exactly); a card with no lessons
 *   stays deferred under "No lessons";
 * - the rest of the bill (registration, material and other fees, less deductions), recognised when the PA is
 *   paid (dated on the day it was paid, else on its issue day).
 * What was credited back on the PA (issued or used suspension credit notes, refunded withdrawal lessons, both
 * before GST) reduces its deferred revenue first, from its latest lines, then its recognised revenue, so for every
 * PA and in total: billed − credited = recognised to date + deferred.
 * All money figures come from REVENUE_LINES below — the one place to switch to the ledger's revenue_* lines.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

export const FEES_LINE = "Fees (registration, material, other)";

/** One row per line: pa, programme, month, cents billed, credited, held (recognised once held). $1 from, $2 to, $3 company. */
const REVENUE_LINES = `
  pas as (
    select pa.id, pa."paymentStatus", pa."issueDate", pa."paidAt", pa."classInformations",
      round(coalesce((pa."paymentSummaryStatic"->>'totalBeforeGst')::numeric, 0) * 100)::bigint as billed
    from payment_advices pa
    where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and pa."issueDate" between $1::date and $2::date
      and ($3::uuid is null or pa."companyId" = $3)
  ), cards as (
    select p.id as pa, card->>'id' as class_id, round(coalesce((card->'responses'->>'total')::numeric, 0) * 100)::bigint as total,
      coalesce(card->'responses'->'lessonIds', '[]'::jsonb) as lesson_ids
    from pas p cross join lateral jsonb_array_elements(p."classInformations") card
  ), card_totals as (
    select pa, sum(total) as classes from cards group by pa
  ), lesson_groups as (
    -- a card's lessons counted by month and held-or-not (hashing, no per-lesson sort: a year at scale is ~10⁵ lessons billed)
    select c.pa, c.class_id, c.total, to_char(l.date, 'YYYY-MM') as month, l.date <= (now() at time zone 'Asia/Singapore')::date as held,
      count(*)::bigint as n, max(l.date) as last
    from cards c cross join lateral jsonb_array_elements_text(c.lesson_ids) lid join lessons l on l.id = lid::uuid
    group by 1, 2, 3, 4, 5
  ), ranked as (
    -- the lessons before this group in date order (held ones come first within a month): its lessons' ranks follow
    select g.*, (sum(n) over (partition by pa, class_id))::bigint as lessons,
      coalesce(sum(n) over (partition by pa, class_id order by month, held desc rows between unbounded preceding and 1 preceding), 0)::bigint as before
    from lesson_groups g
  ), lines as (
    -- lesson k of n gets total ÷ n, plus a cent while k ≤ total mod n: a group of ranks before+1 … before+n sums to this
    select pa, class_id, month || case when held then 'a' else 'b' end as ord, last as date,
      n * (total / lessons) + greatest(0, least(before + n, total % lessons) - before) as cents, held
    from ranked
    union all
    select pa, class_id, class_id, null, total, false from cards where jsonb_array_length(lesson_ids) = 0
    union all
    select p.id, null, '', coalesce((p."paidAt" at time zone 'Asia/Singapore')::date, p."issueDate"),
      p.billed - coalesce(t.classes, 0), p."paymentStatus" in ('paid', 'overpaid')
    from pas p left join card_totals t on t.pa = p.id
  ), credits as (
    select pa, sum(cents) as credited from (
      select coalesce(r."paymentAdviceId", cn."paymentAdviceId") as pa, round(coalesce((cn.summary->>'subTotal')::numeric, 0) * 100)::bigint as cents
      from credit_notes cn left join credit_note_fees f on f.id = cn."creditNoteFeeId" left join receipts r on r.id = f."receiptId"
      where cn.status = 'active' and cn.type = 'suspension' and cn."creditNoteStatus" in ('issued', 'used')
      union all
      select r."paymentAdviceId", round((rc."leftLessonAmount" - coalesce(rc."oweLessonNo", 0) * rc."unitPrice") * 100)::bigint
      from refund_classes rc join refunds rf on rf.id = rc."refundId" join receipts r on r.id = rc."receiptId"
      where rf."refundStatus" = 'refunded' and rf.status = 'active' and rc.status = 'active'
    ) x where pa in (select id from pas) group by pa
  ), cut as (
    select l.pa, least(coalesce(c.credited, 0), coalesce(sum(l.cents) filter (where not l.held), 0)) as deferred_cut,
      greatest(coalesce(c.credited, 0) - coalesce(sum(l.cents) filter (where not l.held), 0), 0) as recognised_cut
    from lines l left join credits c on c.pa = l.pa group by l.pa, c.credited
  ), revenue_lines as (
    select l.pa, l.class_id, l.date, l.cents, l.held,
      greatest(0, least(l.cents, case when l.held then k.recognised_cut else k.deferred_cut end
        - coalesce(sum(l.cents) over (partition by l.pa, l.held order by l.date desc nulls first, l.ord desc rows between unbounded preceding and 1 preceding), 0))) as credited
    from lines l join cut k on k.pa = l.pa
  )`;

type Figures = { billed: string; credited: string; recognised: string; deferred: string };
const FIGURES = `(sum(x.cents) / 100.0)::numeric(14,2)::text as billed, (sum(x.credited) / 100.0)::numeric(14,2)::text as credited,
  (coalesce(sum(x.cents - x.credited) filter (where x.held), 0) / 100.0)::numeric(14,2)::text as recognised,
  (coalesce(sum(x.cents - x.credited) filter (where not x.held), 0) / 100.0)::numeric(14,2)::text as deferred`;

/** Per PA: billed (its totalBeforeGst), credited, recognised to date, deferred — what the identity of §6 is checked on. */
export async function revenueByPa(db: Queryable, f: ReportFilters): Promise<Array<Figures & { paymentAdviceId: string }>> {
  const { rows } = await db.query<Figures & { paymentAdviceId: string }>(`with ${REVENUE_LINES} select x.pa as "paymentAdviceId", ${FIGURES} from revenue_lines x group by x.pa`, [f.from, f.to, f.companyId]);
  return rows;
}

export async function revenueReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<Figures & { month: string | null; programme: string | null; fees: boolean }>(
    `with ${REVENUE_LINES}
     select to_char(x.date, 'YYYY-MM') as month, p.name as programme, x.class_id is null as fees, ${FIGURES}
     from revenue_lines x left join classes c on c.id = x.class_id::uuid left join programs p on p.id = c."programId"
     group by 1, 2, 3 order by 1 nulls last, 3, 2`,
    [f.from, f.to, f.companyId],
  );
  const cents = (v: string) => numericToCents(v) ?? 0;
  const lines = rows.map((r) => ({ month: r.month ?? "No lessons", programme: r.fees ? FEES_LINE : (r.programme ?? "--"), billed: r.billed, credited: r.credited, recognised: r.recognised, deferred: r.deferred }));
  const sum = (k: "billed" | "credited" | "recognised" | "deferred") => centsToNumeric(lines.reduce((s, l) => s + cents(l[k]), 0));
  const byMonth = new Map<string, number>();
  for (const l of lines) byMonth.set(l.month, (byMonth.get(l.month) ?? 0) + cents(l.billed));
  return {
    columns: [
      { key: "month", title: "Month", kind: "text" },
      { key: "programme", title: "Programme", kind: "text" },
      { key: "billed", title: "Billed", kind: "money" },
      { key: "credited", title: "Credited", kind: "money" },
      { key: "recognised", title: "Recognised", kind: "money" },
      { key: "deferred", title: "Deferred", kind: "money" },
    ],
    rows: lines,
    totals: { month: "Total", billed: sum("billed"), credited: sum("credited"), recognised: sum("recognised"), deferred: sum("deferred") },
    summary: [
      { label: "Billed", value: sum("billed"), kind: "money" },
      { label: "Credited", value: sum("credited"), kind: "money" },
      { label: "Recognised to date", value: sum("recognised"), kind: "money" },
      { label: "Deferred", value: sum("deferred"), kind: "money" },
    ],
    chart: { title: "Billed by month", category: "Month", value: "Billed", data: [...byMonth].map(([category, c]) => ({ category, value: c / 100 })) },
  };
}
