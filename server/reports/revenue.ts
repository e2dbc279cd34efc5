/**
 * Revenue recognition (issue 17, FINANCE.md §6): each class card of an issued PA (not voided or withdrawn) is
 * billed at its class total (before GST, deposits excluded) and recognised lesson by lesson: total ÷ lessons per
 * lesson, the cents left over going to the first lessons so the shares add up exactly. By month of the lesson
 * and programme: billed, recognised to date (lessons held up to today), deferred = billed − recognised.
 * A card with no lessons is billed and deferred under "No lessons".
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

export async function revenueReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ month: string | null; programme: string | null; billed: string; recognised: string }>(
    `with cards as (
       select pa.id as pa, card->>'id' as class_id, round(coalesce((card->'responses'->>'total')::numeric, 0) * 100)::bigint as total, coalesce(card->'responses'->'lessonIds', '[]'::jsonb) as lesson_ids
       from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") card
       where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and pa."issueDate" between $1::date and $2::date
         and ($3::uuid is null or pa."companyId" = $3)
     ), shares as (
       select c.class_id, l.date, c.total, count(*) over w as n, row_number() over (w order by l.date, l.id) as k
       from cards c cross join lateral jsonb_array_elements_text(c.lesson_ids) lid join lessons l on l.id = lid::uuid
       window w as (partition by c.pa, c.class_id)
     ), lines as (
       select class_id, to_char(date, 'YYYY-MM') as month, (total / n + case when k <= total % n then 1 else 0 end) as cents,
         date <= (now() at time zone 'Asia/Singapore')::date as held
       from shares
       union all
       select class_id, null, total, false from cards where jsonb_array_length(lesson_ids) = 0
     )
     select x.month, p.name as programme, (sum(x.cents) / 100.0)::numeric(14,2)::text as billed,
       (coalesce(sum(x.cents) filter (where x.held), 0) / 100.0)::numeric(14,2)::text as recognised
     from lines x left join classes c on c.id = x.class_id::uuid left join programs p on p.id = c."programId"
     group by 1, 2 order by 1 nulls last, 2`,
    [f.from, f.to, f.companyId],
  );
  const cents = (v: string) => numericToCents(v) ?? 0;
  const lines = rows.map((r) => ({ month: r.month ?? "No lessons", programme: r.programme ?? "--", billed: r.billed, recognised: r.recognised, deferred: centsToNumeric(cents(r.billed) - cents(r.recognised)) }));
  const sum = (k: "billed" | "recognised" | "deferred") => centsToNumeric(lines.reduce((s, l) => s + cents(l[k]), 0));
  const byMonth = new Map<string, number>();
  for (const l of lines) byMonth.set(l.month, (byMonth.get(l.month) ?? 0) + cents(l.billed));
  return {
    columns: [
      { key: "month", title: "Month", kind: "text" },
      { key: "programme", title: "Programme", kind: "text" },
      { key: "billed", title: "Billed", kind: "money" },
      { key: "recognised", title: "Recognised", kind: "money" },
      { key: "deferred", title: "Deferred", kind: "money" },
    ],
    rows: lines,
    totals: { month: "Total", billed: sum("billed"), recognised: sum("recognised"), deferred: sum("deferred") },
    summary: [
      { label: "Billed", value: sum("billed"), kind: "money" },
      { label: "Recognised to date", value: sum("recognised"), kind: "money" },
      { label: "Deferred", value: sum("deferred"), kind: "money" },
    ],
    chart: { title: "Billed by month of lesson", category: "Month", value: "Billed", data: [...byMonth].map(([category, c]) => ({ category, value: c / 100 })) },
  };
}
