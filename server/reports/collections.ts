/**
 * Money collected (issue 17): the daily receipt report (each receipt of a day, totals by method) and the
 * daily closing report (per day and branch: collections by method, count, total; voided payments apart).
 * Both read the same lines (cashLines.ts) the same way, so they agree day by day and method by method (FINANCE.md §6).
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { PAYMENT_METHODS } from "../../src/domain/finance/invoice.ts";
import { valueLabel } from "../../src/domain/enumLabels.ts";
import type { ReportColumn, ReportResult, ReportRow } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";
import { CASH_LINES } from "./cashLines.ts";

const cents = (v: string | null | undefined) => numericToCents(v ?? "0") ?? 0;
const label = (m: string) => valueLabel("receipts", "paymentMethod", m);

export async function dailyReceiptReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ name: string | null; day: string; student: string | null; method: string; amount: string; voided: boolean; branch: string | null; invoice: string | null }>(
    `select c."receiptName" as name, c.day::text as day, u."fullName" as student, c.method, c.amount::text as amount, c.voided, b.name as branch, c.invoice
     from ${CASH_LINES} c left join users u on u.id = c."studentId" left join branches b on b.id = c."branchId"
     order by c.day, c."receiptName"`,
    [f.from, f.to, f.companyId, f.branchId],
  );
  const byMethod = new Map<string, number>();
  for (const r of rows) if (!r.voided) byMethod.set(r.method, (byMethod.get(r.method) ?? 0) + cents(r.amount));
  const sum = (voided: boolean) => rows.filter((r) => r.voided === voided).reduce((s, r) => s + cents(r.amount), 0);
  return {
    columns: [
      { key: "name", title: "Receipt No.", kind: "text" },
      { key: "receiptDate", title: "Receipt Date", kind: "date" },
      { key: "student", title: "Student", kind: "text" },
      { key: "method", title: "Payment Method", kind: "text" },
      { key: "branch", title: "Branch", kind: "text" },
      { key: "invoice", title: "Invoice No.", kind: "text" },
      { key: "amount", title: "Amount", kind: "money" },
      { key: "voided", title: "Voided", kind: "money" },
    ],
    rows: rows.map((r) => ({ name: r.name, receiptDate: r.day, student: r.student, method: label(r.method), branch: r.branch, invoice: r.invoice, amount: r.voided ? null : r.amount, voided: r.voided ? r.amount : null })),
    totals: { name: `${rows.filter((r) => !r.voided).length} receipts`, amount: centsToNumeric(sum(false)), voided: centsToNumeric(sum(true)) },
    summary: PAYMENT_METHODS.filter((m) => byMethod.has(m)).map((m) => ({ label: label(m), value: centsToNumeric(byMethod.get(m)!), kind: "money" as const })),
    chart: { title: "Receipts by payment method", category: "Payment Method", value: "Amount", data: [...byMethod].map(([m, c]) => ({ category: label(m), value: c / 100 })) },
  };
}

export async function dailyClosingReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ day: string; branch: string | null; paymentMethod: string; n: number; total: string; voidedN: number; voided: string }>(
    // grouped on the day, branch id and method first (a year is ~26,000 payments), then named and ordered
    `select g.day::text as day, b.name as branch, g.method as "paymentMethod", g.n, g.total::text as total, g."voidedN", g.voided::text as voided
     from (select c.day, c."branchId", c.method,
         count(*) filter (where not c.voided)::int as n, coalesce(sum(c.amount) filter (where not c.voided), 0) as total,
         count(*) filter (where c.voided)::int as "voidedN", coalesce(sum(c.amount) filter (where c.voided), 0) as voided
       from ${CASH_LINES} c group by 1, 2, 3) g
     left join branches b on b.id = g."branchId"
     order by g.day, b.name, g.method`,
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
