/**
 * The reward report (issue 17, `/reward/report`): per month, the referrals registered and how they stand, and the
 * referral discounts used on the PAs issued that month (how many, how much). Computed from referrals and the
 * PAs' class cards, not stored.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

export async function rewardReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ month: string; referrals: number; successful: number; rewarded: number; cancelled: number; discounts: number; discountAmount: string }>(
    `with months as (select to_char(m, 'YYYY-MM') as month from generate_series(date_trunc('month', $1::date), date_trunc('month', $2::date), interval '1 month') m),
     refs as (
       select to_char("registrationDate", 'YYYY-MM') as month, count(*)::int as referrals,
         count(*) filter (where "referralStattus" in ('successful', 'rewarded'))::int as successful,
         count(*) filter (where "referralStattus" = 'rewarded')::int as rewarded, count(*) filter (where "referralStattus" = 'cancelled')::int as cancelled
       from referrals where status = 'active' and "registrationDate" between $1::date and $2::date and ($3::uuid is null or "companyId" = $3) group by 1),
     used as (
       select to_char(pa."issueDate", 'YYYY-MM') as month, count(*)::int as discounts, coalesce(sum((d->>'amount')::numeric), 0) as amount
       from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") card
         cross join lateral jsonb_array_elements(coalesce(card->'responses'->'discounts', '[]'::jsonb)) d
         join discounts dd on dd.id::text = d->>'id' and dd.type = 'referral_discount'
       where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and pa."issueDate" between $1::date and $2::date
         and ($3::uuid is null or pa."companyId" = $3) group by 1)
     select m.month, coalesce(r.referrals, 0) as referrals, coalesce(r.successful, 0) as successful, coalesce(r.rewarded, 0) as rewarded, coalesce(r.cancelled, 0) as cancelled,
       coalesce(u.discounts, 0) as discounts, coalesce(u.amount, 0)::numeric(14,2)::text as "discountAmount"
     from months m left join refs r on r.month = m.month left join used u on u.month = m.month order by m.month`,
    [f.from, f.to, f.companyId],
  );
  const sum = (k: "referrals" | "successful" | "rewarded" | "cancelled" | "discounts") => rows.reduce((s, r) => s + r[k], 0);
  const amount = rows.reduce((s, r) => s + (numericToCents(r.discountAmount) ?? 0), 0);
  return {
    columns: [
      { key: "month", title: "Month", kind: "text" },
      { key: "referrals", title: "Referrals", kind: "number" },
      { key: "successful", title: "Successful", kind: "number" },
      { key: "rewarded", title: "Rewarded", kind: "number" },
      { key: "cancelled", title: "Cancelled", kind: "number" },
      { key: "discounts", title: "Referral Discounts Used", kind: "number" },
      { key: "discountAmount", title: "Discount Amount", kind: "money" },
    ],
    rows,
    totals: { month: "Total", referrals: sum("referrals"), successful: sum("successful"), rewarded: sum("rewarded"), cancelled: sum("cancelled"), discounts: sum("discounts"), discountAmount: centsToNumeric(amount) },
    chart: { title: "Referral discounts by month", category: "Month", value: "Discount Amount", data: rows.map((r) => ({ category: r.month, value: (numericToCents(r.discountAmount) ?? 0) / 100 })) },
  };
}
