/**
 * Deposits (issue 17, FINANCE.md §6 "collected = held + used + refunded"): each deposit collected on a PA issued
 * in the period, and where it stands: held (paid, not yet used), used (deducted on a later PA) or refunded
 * (paid back by a refund: status `refunded`).
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import { DEPOSIT_STATUS_LABELS } from "../../src/domain/finance/invoice.ts";
import type { ReportFilters } from "./filters.ts";

const cents = (v: string | null | undefined) => numericToCents(v ?? "0") ?? 0;

export async function depositReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ name: string; student: string | null; pa: string | null; issueDate: string | null; amount: string; depositStatus: "paid" | "used" | "refunded" }>(
    `select d.name, u."fullName" as student, pa.name as pa, pa."issueDate"::text as "issueDate", d.amount::text as amount, d."depositStatus"
     from deposits d left join users u on u.id = d."studentId" left join payment_advices pa on pa.id = d."paymentAdviceId"
     where d.status = 'active' and d."depositStatus" in ('paid', 'used', 'refunded') and pa."issueDate" between $1::date and $2::date and ($3::uuid is null or d."companyId" = $3)
     order by pa."issueDate", d.name`,
    [f.from, f.to, f.companyId],
  );
  // a paid deposit is still held; the other two read as the deposit's own status label
  const stand = (r: (typeof rows)[number]) => (r.depositStatus === "paid" ? "Held" : DEPOSIT_STATUS_LABELS[r.depositStatus]);
  const sum = (s?: string) => centsToNumeric(rows.filter((r) => !s || stand(r) === s).reduce((t, r) => t + cents(r.amount), 0));
  return {
    columns: [
      { key: "name", title: "Deposit No.", kind: "text" },
      { key: "student", title: "Student", kind: "text" },
      { key: "pa", title: "PA No.", kind: "text" },
      { key: "issueDate", title: "PA Issue Date", kind: "date" },
      { key: "stand", title: "Status", kind: "text" },
      { key: "amount", title: "Collected", kind: "money" },
      { key: "held", title: "Held", kind: "money" },
      { key: "used", title: "Used", kind: "money" },
      { key: "refunded", title: "Refunded", kind: "money" },
    ],
    // each deposit's amount once under Collected and once under where it stands, so collected = held + used +
    // refunded reads on every line, per student and in total
    rows: rows.map((r) => {
      const at = stand(r);
      const put = (s: string) => (at === s ? r.amount : null);
      return { name: r.name, student: r.student, pa: r.pa, issueDate: r.issueDate, stand: at, amount: r.amount, held: put("Held"), used: put("Used"), refunded: put("Refunded") };
    }),
    totals: { name: `${rows.length} deposits`, amount: sum(), held: sum("Held"), used: sum("Used"), refunded: sum("Refunded") },
    summary: [
      { label: "Collected", value: sum(), kind: "money" },
      { label: "Held", value: sum("Held"), kind: "money" },
      { label: "Used", value: sum("Used"), kind: "money" },
      { label: "Refunded", value: sum("Refunded"), kind: "money" },
    ],
    chart: { title: "Deposits by status", category: "Status", value: "Amount", data: ["Held", "Used", "Refunded"].map((s) => ({ category: s, value: cents(sum(s)) / 100 })) },
  };
}
