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
 * The report sums the ledger (FINANCE.md §7): the recognition entries' lines name the class and month of each figure —
 * billed and credited on revenue_deferred, recognised on revenue_recognised — posted from the model's lines
 * (server/finance/revenueLines.ts; `npm run reconcile` checks each PA's class and month in the ledger against them),
 * summed per PA issue day, company, programme and month in app_internal.revenue_summary; deferred is the rest.
 * `revenueByPa` reads the model itself: what the identity of §6 is checked on, PA by PA.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";
import { revenueLinesSql } from "../finance/revenueLines.ts";
import { readWithoutJit } from "../db/jit.ts";

export const FEES_LINE = "Fees (registration, material, other)";

/** $1 from, $2 to (PA issue dates), $3 company (or null). */
const REVENUE_LINES = revenueLinesSql(`pa."issueDate" between $1::date and $2::date and ($3::uuid is null or pa."companyId" = $3)`);

type Figures = { billed: string; credited: string; recognised: string; deferred: string };
const FIGURES = `(sum(x.cents) / 100.0)::numeric(14,2)::text as billed, (sum(x.credited) / 100.0)::numeric(14,2)::text as credited,
  (coalesce(sum(x.cents - x.credited) filter (where x.held), 0) / 100.0)::numeric(14,2)::text as recognised,
  (coalesce(sum(x.cents - x.credited) filter (where not x.held), 0) / 100.0)::numeric(14,2)::text as deferred`;

/** Per PA: billed (its totalBeforeGst), credited, recognised to date, deferred — what the identity of §6 is checked on. */
export async function revenueByPa(db: Queryable, f: ReportFilters): Promise<Array<Figures & { paymentAdviceId: string }>> {
  const { rows } = await readWithoutJit(db, (tx) =>
    tx.query<Figures & { paymentAdviceId: string }>(`with ${REVENUE_LINES} select x.pa as "paymentAdviceId", ${FIGURES} from revenue_lines x group by x.pa`, [f.from, f.to, f.companyId]),
  );
  return rows;
}

export async function revenueReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  // the ledger's figures by month and programme, summed per PA issue day in the same transaction as the lines
  const { rows } = await db.query<Figures & { month: string | null; programme: string | null; fees: boolean }>(
    `select to_char(s."revenueMonth", 'YYYY-MM') as month, p.name as programme, s.fees,
       sum(s.billed)::text as billed, sum(s.credited)::text as credited, sum(s.recognised)::text as recognised, sum(s.billed - s.credited - s.recognised)::text as deferred
     from app_internal.revenue_summary s left join programs p on p.id = s."programId"
     where s."issueDate" between $1::date and $2::date and ($3::uuid is null or s."companyId" = $3)
     group by 1, 2, 3 having sum(s.billed) <> 0 or sum(s.credited) <> 0 or sum(s.recognised) <> 0 order by 1 nulls last, 3, 2`,
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
