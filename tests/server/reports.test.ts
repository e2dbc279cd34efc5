/**
 * Reports (issue 17; FINANCE.md §6) on the seeded data plus today's payments: the day's receipts by method equal
 * the daily closing's collections, voided payments shown apart and never counted; deposits collected = held +
 * used + refunded; the PA listing's received and balance; each report's roles; bad periods refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { issuedPa, pickClasses, studentsOf, type ClassPick } from "../support/finance.ts";
import { numericToCents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import type { ReportResult } from "../../src/domain/reports.ts";

describe.each(databaseLanes())("reports [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let classes: ClassPick[];
  const today = todayInSingapore();
  const year = today.slice(0, 4);

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff", "finance_manager", "sales", "hr"]) token[role] = (await signIn(server.app, role)).accessToken;
    classes = await pickClasses(server);
    const students = await studentsOf(server, classes[0]!.companyId, 3);
    // today's money: a cash and a NETS payment, a credit card payment then voided
    for (const [i, method] of (["cash", "nets", "credit_card"] as const).entries()) {
      const pa = await issuedPa(server, token.front_desk!, classes[i % classes.length]!, students[i]!);
      const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: "120.50", paymentMethod: method, cardType: method === "credit_card" ? "visa" : undefined } });
      expect(paid.statusCode, paid.body).toBe(201);
      if (method === "credit_card") {
        const voided = await api(server.app, "POST", `/finances/receipts/${paid.json().data.receipt.id}/void`, token.finance_staff, { reason: "Wrong card" });
        expect(voided.statusCode, voided.body).toBe(200);
      }
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const report = async (role: string, name: string, q: string): Promise<ReportResult> => {
    const res = await api(server.app, "GET", `/reports/${name}?${q}`, token[role]);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const cents = (v: unknown) => numericToCents(String(v ?? "0"))!;

  it("the day's receipts by method equal the daily closing's collections; voided payments apart and not counted", async () => {
    const receipts = await report("hr", "daily-receipt", `date=${today}`);
    const closing = await report("hr", "daily-closing", `from=${today}&to=${today}`);
    expect(receipts.rows.length).toBeGreaterThanOrEqual(2);
    expect(receipts.rows.some((r) => r.method === "Credit Card")).toBe(false); // its receipt was voided
    const byMethod = Object.fromEntries((receipts.summary ?? []).map((s) => [s.label, cents(s.value)]));
    for (const col of closing.columns.filter((c) => c.kind === "money" && c.key !== "total" && c.key !== "voided")) {
      expect(cents(closing.totals![col.key]), col.title).toBe(byMethod[col.title]);
    }
    expect(cents(closing.totals!.total)).toBe(cents(receipts.totals!.amount));
    expect(cents(receipts.totals!.amount)).toBe(receipts.rows.reduce((s, r) => s + cents(r.amount), 0));
    expect(cents(closing.totals!.voided)).toBeGreaterThanOrEqual(12050);
    expect(Number(closing.totals!.voidedCount)).toBeGreaterThanOrEqual(1);
    // a branch filter keeps only that branch's rows
    const branch = await report("hr", "daily-closing", `from=${today}&to=${today}&branchId=${classes[0]!.branchId}`);
    expect(cents(branch.totals!.total)).toBeLessThanOrEqual(cents(closing.totals!.total));
  });

  it("deposits: collected = held + used + refunded; the PA listing's balance is total − received", async () => {
    const deposits = await report("finance_staff", "deposit", `from=${year}-01-01&to=${year}-12-31`);
    const s = Object.fromEntries((deposits.summary ?? []).map((x) => [x.label, cents(x.value)]));
    expect(s.Collected).toBe(s.Held! + s.Used! + s.Refunded!);
    expect(s.Collected).toBe(cents(deposits.totals!.amount));

    const listing = await report("finance_manager", "pa-listing", `from=${today}&to=${today}`);
    expect(listing.rows.length).toBeGreaterThanOrEqual(3);
    for (const r of listing.rows) {
      if (r.status === "Voided" || r.status === "Withdrawn") continue;
      expect(cents(r.balance), String(r.name)).toBe(Math.max(0, cents(r.total) - cents(r.received)));
    }
    const { rows } = await server.db.query<{ received: string }>(
      `select coalesce(sum(ip.amount), 0)::text as received from invoice_payments ip join invoices i on i.id = ip."invoiceId" join payment_advices pa on pa.id = i."paymentAdviceId"
       where pa."issueDate" = $1::date and pa.status = 'active' and pa."paymentStatus" not in ('draft', 'voided') and ip.status <> 'deleted' and i."invoiceStatus" <> 'voided'`,
      [today],
    );
    expect(cents(listing.totals!.received)).toBe(cents(rows[0]!.received));
  });

  it("each report answers its roles only; bad periods are refused", async () => {
    expect((await api(server.app, "GET", `/reports/daily-receipt?date=${today}`, token.sales)).statusCode).toBe(200);
    expect((await api(server.app, "GET", `/reports/daily-closing?from=${today}&to=${today}`, token.sales)).statusCode).toBe(403);
    expect((await api(server.app, "GET", `/reports/pa-listing?from=${today}&to=${today}`, token.front_desk)).statusCode).toBe(403);
    expect((await api(server.app, "GET", `/reports/overpaid?from=${today}&to=${today}`, token.finance_staff)).statusCode).toBe(200);
    const backwards = await api(server.app, "GET", `/reports/daily-closing?from=${today}&to=2000-01-01`, token.hr);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toMatchObject({ to: "The end date cannot be before the start date." });
    const long = await api(server.app, "GET", `/reports/daily-closing?from=2020-01-01&to=2022-01-01`, token.hr);
    expect(long.json().errors).toMatchObject({ to: "A report covers at most one year." });
  });
});
