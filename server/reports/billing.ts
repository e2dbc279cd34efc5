/**
 * Billing (issue 17): the PA listing (PAs issued in a period with their status — Overdue derived — total,
 * received and balance) and the overpaid report (overpaid invoices and what became of the excess).
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { displayPaStatus } from "../../src/domain/finance/paymentAdviceStatus.ts";
import { valueLabel } from "../../src/domain/enumLabels.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";
import type { PagedReport } from "./paging.ts";

const cents = (v: string | null | undefined) => numericToCents(v ?? "0") ?? 0;
/** A PA that still asks for money: issued, not voided and not withdrawn. */
const isLivePa = (paymentStatus: string) => paymentStatus === "unpaid" || paymentStatus === "paid" || paymentStatus === "overpaid";

/**
 * What FINANCE.md §6 calls the amount received: Σ live payments of a PA's live invoices, read as Σ their amounts
 * received (`paidAmount`, kept with each payment; `npm run reconcile` checks it = Σ its live payments per invoice).
 */
const LIVE_INVOICE = `i."invoiceStatus" <> 'voided' and i.status <> 'deleted'`;

/** The PAs the listing holds ($1 from, $2 to, $3 company, $4 branch): in issue order by payment_advices_listing_idx (migration 1763700731000). */
const LISTED = `pa.status = 'active' and pa."paymentStatus" <> 'draft' and pa."issueDate" between $1::date and $2::date
  and ($3::uuid is null or pa."companyId" = $3) and ($4::uuid is null or pa."branchId" = $4)`;

type PaListingRow = { name: string; student: string | null; branch: string | null; issueDate: string; dueDate: string | null; paymentStatus: string; total: string; received: string };

/** The Overdue rule converts the due day in Singapore time: once per status and due date of a run, not once per PA. */
function statusLabels(): (status: string, dueDate: string | null) => string {
  const now = new Date();
  const shown = new Map<string, string>();
  return (status, dueDate) => {
    const key = `${status}/${dueDate}`;
    if (!shown.has(key)) shown.set(key, valueLabel("payment_advices", "paymentStatus", displayPaStatus(status, dueDate, now)));
    return shown.get(key)!;
  };
}

/**
 * PAs issued in the period, paged (server/reports/paging.ts). Listed, all of them; summed, only the live ones (a
 * voided or withdrawn PA asks for nothing): balance = total − received, negative when overpaid, so the totals row
 * reads total − received = balance (FINANCE.md §6).
 */
export const paListingReport: PagedReport<PaListingRow> = {
  columns: [
    { key: "name", title: "PA No.", kind: "text" },
    { key: "student", title: "Student", kind: "text" },
    { key: "branch", title: "Branch", kind: "text" },
    { key: "issueDate", title: "Issue Date", kind: "date" },
    { key: "dueDate", title: "Due Date", kind: "date" },
    { key: "status", title: "Status", kind: "text" },
    { key: "total", title: "Total", kind: "money" },
    { key: "received", title: "Received", kind: "money" },
    { key: "balance", title: "Balance", kind: "money" },
  ],
  source: (f) => ({
    // the amount received per listed row (a page reads 50 PAs' invoices, not every invoice of the period)
    select: `select pa.name, u."fullName" as student, b.name as branch, pa."issueDate"::text as "issueDate", pa."dueDate"::text as "dueDate", pa."paymentStatus",
       coalesce(pa.summary->>'total', '0') as total, rc.received::text as received
     from payment_advices pa left join users u on u.id = pa."studentId" left join branches b on b.id = pa."branchId" cross join lateral (select coalesce(sum(i."paidAmount"), 0) as received from invoices i where i."paymentAdviceId" = pa.id and ${LIVE_INVOICE}) rc
     where ${LISTED}`,
    orderBy: `pa."issueDate", pa.name, pa.id`,
    params: [f.from, f.to, f.companyId, f.branchId],
  }),
  lines: () => {
    const statusOf = statusLabels();
    return ({ paymentStatus, ...r }) => ({ ...r, status: statusOf(paymentStatus, r.dueDate), balance: isLivePa(paymentStatus) ? centsToNumeric(cents(r.total) - cents(r.received)) : null });
  },
  whole: async (db, source) => {
    // one group per stored status and due date (the shown status follows from them), in the order of their first issue
    // day: from the sums per issue day the triggers of migration 1763700771000 keep (npm run reconcile checks them)
    const { rows } = await db.query<{ paymentStatus: string; dueDate: string | null; n: number; total: string; received: string }>(
      `select d."paymentStatus", d."dueDate"::text as "dueDate", sum(d.pas)::int as n, sum(d.total)::text as total, sum(d.received)::text as received
       from app_internal.pa_listing_days d
       where d."issueDate" between $1::date and $2::date and ($3::uuid is null or d."companyId" = $3) and ($4::uuid is null or d."branchId" = $4)
       group by 1, 2 having sum(d.pas) <> 0 order by min(d."issueDate"), 1, 2`,
      source.params,
    );
    const statusOf = statusLabels();
    const live = rows.filter((g) => isLivePa(g.paymentStatus));
    const sum = (k: "total" | "received") => live.reduce((s, g) => s + cents(g[k]), 0);
    const byStatus = new Map<string, number>();
    for (const g of rows) byStatus.set(statusOf(g.paymentStatus, g.dueDate), (byStatus.get(statusOf(g.paymentStatus, g.dueDate)) ?? 0) + cents(g.total));
    const count = rows.reduce((s, g) => s + g.n, 0);
    return {
      count,
      totals: { name: `${count} PAs (voided and withdrawn ones not summed)`, total: centsToNumeric(sum("total")), received: centsToNumeric(sum("received")), balance: centsToNumeric(sum("total") - sum("received")) },
      chart: { title: "PA totals by status", category: "Status", value: "Total", data: [...byStatus].map(([category, c]) => ({ category, value: c / 100 })) },
    };
  },
};

export async function overpaidReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ pa: string | null; invoice: string; student: string | null; issueDate: string | null; total: string; received: string; creditNote: string | null; creditNoteStatus: string | null; refund: string | null }>(
    `select pa.name as pa, i.name as invoice, u."fullName" as student, pa."issueDate"::text as "issueDate", i.total::text as total, i."paidAmount"::text as received,
       cn.name as "creditNote", cn."creditNoteStatus", rf.name as refund
     from invoices i join payment_advices pa on pa.id = i."paymentAdviceId" left join users u on u.id = i."studentId"
       left join lateral (select c.id, c.name, c."creditNoteStatus" from credit_notes c where c."paymentAdviceId" = pa.id and c.type = 'overpaid' and c.status = 'active'
         order by c."createdAt" desc limit 1) cn on true
       left join lateral (select r.name from refunds r where r."refundStatus" = 'refunded' and r."creditNoteIds" ? cn.id::text limit 1) rf on true
     where i."invoiceStatus" = 'overpaid' and i.status <> 'deleted' and pa."issueDate" between $1::date and $2::date and ($3::uuid is null or i."companyId" = $3)
     order by pa."issueDate", pa.name`,
    [f.from, f.to, f.companyId],
  );
  const lines = rows.map((r) => ({
    pa: r.pa,
    invoice: r.invoice,
    student: r.student,
    issueDate: r.issueDate,
    total: r.total,
    received: r.received,
    excess: centsToNumeric(cents(r.received) - cents(r.total)),
    outcome: r.refund ? `Refunded (${r.refund})` : r.creditNote ? `Credit note ${r.creditNote} (${valueLabel("credit_notes", "creditNoteStatus", r.creditNoteStatus)})` : r.creditNoteStatus ? "Credit note awaiting approval" : "Not credited yet",
  }));
  return {
    columns: [
      { key: "pa", title: "PA No.", kind: "text" },
      { key: "invoice", title: "Invoice No.", kind: "text" },
      { key: "student", title: "Student", kind: "text" },
      { key: "issueDate", title: "Issue Date", kind: "date" },
      { key: "total", title: "Total", kind: "money" },
      { key: "received", title: "Received", kind: "money" },
      { key: "excess", title: "Overpaid", kind: "money" },
      { key: "outcome", title: "What became of it", kind: "text" },
    ],
    rows: lines,
    totals: { pa: `${lines.length} overpaid`, excess: centsToNumeric(lines.reduce((s, l) => s + cents(l.excess), 0)) },
  };
}
