/**
 * Money collected (issue 17): the daily receipt report (each receipt of a day, totals by method) and the
 * daily closing report (per day and branch: collections by method, count, total; voided payments apart).
 * The closing report reads the payments, the receipt report the receipts: FINANCE.md §6 says they agree.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from "../../src/domain/finance/invoice.ts";
import type { ReportColumn, ReportResult, ReportRow } from "../../src/domain/reports.ts";
import { PERIOD_END, PERIOD_START, type ReportFilters } from "./filters.ts";

const cents = (v: string | null | undefined) => numericToCents(v ?? "0") ?? 0;
const label = (m: string) => PAYMENT_METHOD_LABELS[m as PaymentMethod] ?? m;

export async function dailyReceiptReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ name: string; receiptDate: string; student: string | null; paymentMethod: string; amount: string; branch: string | null; invoice: string | null }>(
    `select r.name, r."receiptDate"::text as "receiptDate", u."fullName" as student, r."paymentMethod", r.amount::text as amount, b.name as branch, i.name as invoice
     from receipts r left join users u on u.id = r."studentId" left join branches b on b.id = r."branchId" left join invoices i on i.id = r."invoiceId"
     where r."receiptDate" between $1::date and $2::date and r.status = 'active' and ($3::uuid is null or r."companyId" = $3) and ($4::uuid is null or r."branchId" = $4)
     order by r."receiptDate", r.name`,
    [f.from, f.to, f.companyId, f.branchId],
  );
  const byMethod = new Map<string, number>();
  for (const r of rows) byMethod.set(r.paymentMethod, (byMethod.get(r.paymentMethod) ?? 0) + cents(r.amount));
  const total = rows.reduce((s, r) => s + cents(r.amount), 0);
  return {
    columns: [
      { key: "name", title: "Receipt No.", kind: "text" },
      { key: "receiptDate", title: "Receipt Date", kind: "date" },
      { key: "student", title: "Student", kind: "text" },
      { key: "method", title: "Payment Method", kind: "text" },
      { key: "branch", title: "Branch", kind: "text" },
      { key: "invoice", title: "Invoice No.", kind: "text" },
      { key: "amount", title: "Amount", kind: "money" },
    ],
    rows: rows.map((r) => ({ name: r.name, receiptDate: r.receiptDate, student: r.student, method: label(r.paymentMethod), branch: r.branch, invoice: r.invoice, amount: r.amount })),
    totals: { name: `${rows.length} receipts`, amount: centsToNumeric(total) },
    summary: PAYMENT_METHODS.filter((m) => byMethod.has(m)).map((m) => ({ label: label(m), value: centsToNumeric(byMethod.get(m)!), kind: "money" as const })),
    chart: { title: "Receipts by payment method", category: "Payment Method", value: "Amount", data: [...byMethod].map(([m, c]) => ({ category: label(m), value: c / 100 })) },
  };
}

export async function dailyClosingReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ day: string; branch: string | null; paymentMethod: string; n: number; total: string; voidedN: number; voided: string }>(
    `select to_char(p."paidAt" at time zone 'Asia/Singapore', 'YYYY-MM-DD') as day, b.name as branch, p."paymentMethod",
       count(*) filter (where p.status <> 'deleted')::int as n, coalesce(sum(p.amount) filter (where p.status <> 'deleted'), 0)::text as total,
       count(*) filter (where p.status = 'deleted')::int as "voidedN", coalesce(sum(p.amount) filter (where p.status = 'deleted'), 0)::text as voided
     from invoice_payments p join invoices i on i.id = p."invoiceId" left join receipts r on r.id = p."receiptId" left join branches b on b.id = r."branchId"
     where p."paidAt" >= ${PERIOD_START(1)} and p."paidAt" < ${PERIOD_END(2)} and p."transactionStatus" = 'success'
       and ($3::uuid is null or i."companyId" = $3) and ($4::uuid is null or r."branchId" = $4)
     group by 1, 2, 3 order by 1, 2, 3`,
    [f.from, f.to, f.companyId, f.branchId],
  );
  const methods = PAYMENT_METHODS.filter((m) => rows.some((r) => r.paymentMethod === m && r.n > 0));
  const lines = new Map<string, ReportRow & { _total: number; _voided: number }>();
  const sums = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.day}/${r.branch ?? ""}`;
    const line = lines.get(key) ?? { day: r.day, branch: r.branch, count: 0, voidedCount: 0, _total: 0, _voided: 0 };
    line.count = Number(line.count) + r.n;
    line.voidedCount = Number(line.voidedCount) + r.voidedN;
    line._total += cents(r.total);
    line._voided += cents(r.voided);
    if (r.n > 0) line[r.paymentMethod] = centsToNumeric(cents(String(line[r.paymentMethod] ?? "0")) + cents(r.total));
    sums.set(r.paymentMethod, (sums.get(r.paymentMethod) ?? 0) + cents(r.total));
    lines.set(key, line);
  }
  const out: ReportRow[] = [...lines.values()].map(({ _total, _voided, ...line }) => ({ ...line, total: centsToNumeric(_total), voided: centsToNumeric(_voided) }));
  const columns: ReportColumn[] = [
    { key: "day", title: "Date", kind: "date" },
    { key: "branch", title: "Branch", kind: "text" },
    ...methods.map((m) => ({ key: m, title: label(m), kind: "money" as const })),
    { key: "count", title: "Payments", kind: "number" },
    { key: "total", title: "Total", kind: "money" },
    { key: "voidedCount", title: "Voided Payments", kind: "number" },
    { key: "voided", title: "Voided Amount", kind: "money" },
  ];
  const totalOf = (k: string) => out.reduce((s, l) => s + cents(l[k] as string | null), 0);
  const totals: ReportRow = { day: "Total", count: out.reduce((s, l) => s + Number(l.count), 0), voidedCount: out.reduce((s, l) => s + Number(l.voidedCount), 0), total: centsToNumeric(totalOf("total")), voided: centsToNumeric(totalOf("voided")) };
  for (const m of methods) totals[m] = centsToNumeric(totalOf(m));
  return {
    columns,
    rows: out,
    totals,
    chart: { title: "Collections by payment method", category: "Payment Method", value: "Amount", data: methods.map((m) => ({ category: label(m), value: (sums.get(m) ?? 0) / 100 })) },
  };
}
