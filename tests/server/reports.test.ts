/**
 * Reports (issue 17; FINANCE.md §6) on the seeded data plus today's payments: the day's receipts by method equal
 * the daily closing's collections, voided payments shown apart and never counted; deposits collected = held +
 * used + refunded; the PA listing's received and balance; each report's roles; bad periods refused.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes, recordingDb } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, pickClasses, studentsOf, type ClassPick, type Enrolment } from "../support/finance.ts";
import { revenueByPa } from "../../server/reports/revenue.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { MAX_REPORT_PAGE_SIZE, reportCsvCells, type ReportResult, type ReportRow } from "../../src/domain/reports.ts";
import { CSV_BOM, csvLine } from "../../src/domain/csv.ts";
import { paListingReport } from "../../server/reports/billing.ts";
import { streamReportCsv } from "../../server/reports/paging.ts";
import { reconcile } from "../../server/finance/reconcile.ts";
import { ATTENDED_SEAT, COUNTED_SEAT } from "../../server/reports/attendance.ts";
import { storedValueLabel } from "../../src/domain/enumLabels.ts";

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

  /** The whole report: the row-heavy ones are paged, the tests read one page of every row. */
  const report = async (role: string, name: string, q: string): Promise<ReportResult> => {
    const res = await api(server.app, "GET", `/reports/${name}?${q}&pageSize=${MAX_REPORT_PAGE_SIZE}`, token[role]);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const cents = (v: unknown) => numericToCents(String(v ?? "0"))!;

  /** The daily closing's figures of one day by method (live and voided) and the daily receipt report's, side by side. */
  const cashOfDay = async (day: string) => {
    const receipts = await report("hr", "daily-receipt", `date=${day}`);
    const closing = await report("hr", "daily-closing", `from=${day}&to=${day}`);
    const fromReceipts = { live: {} as Record<string, number>, voided: 0, voidedCount: 0 };
    for (const r of receipts.rows) {
      if (r.voided !== null) { fromReceipts.voided += cents(r.voided); fromReceipts.voidedCount++; }
      else fromReceipts.live[String(r.method)] = (fromReceipts.live[String(r.method)] ?? 0) + cents(r.amount);
    }
    const fromClosing: Record<string, number> = {};
    for (const col of closing.columns.filter((c) => c.kind === "money" && c.key !== "total" && c.key !== "voided")) fromClosing[col.title] = cents(closing.totals![col.key]);
    return { receipts, closing, fromReceipts, fromClosing };
  };

  it("the day's receipts by method equal the daily closing's collections; voided ones in the Voided column of both", async () => {
    const { receipts, closing, fromReceipts, fromClosing } = await cashOfDay(today);
    expect(receipts.rows.length).toBeGreaterThanOrEqual(3);
    expect(receipts.rows.find((r) => r.method === "Credit Card")).toMatchObject({ amount: null, voided: "120.50" }); // its receipt was voided
    expect(fromClosing).toEqual(fromReceipts.live);
    const byMethod = Object.fromEntries((receipts.summary ?? []).map((s) => [s.label, cents(s.value)]));
    expect(byMethod).toEqual(fromReceipts.live);
    expect(cents(closing.totals!.total)).toBe(cents(receipts.totals!.amount));
    expect(cents(receipts.totals!.amount)).toBe(receipts.rows.reduce((s, r) => s + cents(r.amount), 0));
    expect(cents(closing.totals!.voided)).toBe(fromReceipts.voided);
    expect(cents(receipts.totals!.voided)).toBe(fromReceipts.voided);
    expect(Number(closing.totals!.voidedCount)).toBe(fromReceipts.voidedCount);
    expect(fromReceipts.voided).toBeGreaterThanOrEqual(12050);
    // a branch filter keeps only that branch's rows
    const branch = await report("hr", "daily-closing", `from=${today}&to=${today}&branchId=${classes[0]!.branchId}`);
    expect(cents(branch.totals!.total)).toBeLessThanOrEqual(cents(closing.totals!.total));
  });

  it("after a paid PA is voided both reports show its payments in their Voided column on their original day, and still agree", async () => {
    const student = (await studentsOf(server, classes[0]!.companyId, 5))[4]!;
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, student);
    const day = (await server.db.query<{ d: string }>(`select ($1::date - 3)::text as d`, [today])).rows[0]!.d;
    const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cheque", paymentDate: day } });
    expect(paid.statusCode, paid.body).toBe(201);
    const before = await cashOfDay(day);
    const updatedAt = (await server.db.query<{ u: string }>(`select to_json("updatedAt") #>> '{}' as u from payment_advices where id = $1`, [pa.id])).rows[0]!.u;
    const voided = await api(server.app, "PATCH", "/finances/payment-advices/void-paid-pa", token.finance_manager, { id: pa.id, reason: "Billed the wrong student", updatedAt });
    expect(voided.statusCode, voided.body).toBe(200);
    const after = await cashOfDay(day);
    expect(after.fromClosing).toEqual(after.fromReceipts.live);
    expect(cents(after.closing.totals!.total)).toBe(cents(after.receipts.totals!.amount));
    expect(cents(after.closing.totals!.voided)).toBe(after.fromReceipts.voided);
    expect(cents(after.closing.totals!.total)).toBe(cents(before.closing.totals!.total) - cents(pa.summary.total));
    expect(cents(after.closing.totals!.voided)).toBe(cents(before.closing.totals!.voided) + cents(pa.summary.total));
    expect(after.receipts.rows.find((r) => r.name === paid.json().data.receipt.name)).toMatchObject({ receiptDate: day, amount: null, voided: pa.summary.total });
  });

  it("deposits: per student and in total, held at start + collected − released − used − refunded = held", async () => {
    const deposits = await report("finance_staff", "deposit", `from=${year}-01-01&to=${today}`);
    const add = (r: Record<string, unknown>) => cents(r.opening) + cents(r.collected) - cents(r.released) - cents(r.used) - cents(r.refunded);
    expect(deposits.rows.length).toBeGreaterThan(0);
    for (const r of deposits.rows) expect(add(r), String(r.student)).toBe(cents(r.held));
    const s = Object.fromEntries((deposits.summary ?? []).map((x) => [x.label, cents(x.value)]));
    for (const [label, key] of [["Collected", "collected"], ["Released", "released"], ["Used", "used"], ["Refunded", "refunded"], ["Held", "held"]]) expect(s[label], label).toBe(cents(deposits.totals![key!]));
  });

  it("deposits come from the ledger: a paid PA that deducted one deposit and collected another, then voided, releases the one and gives the other back", async () => {
    const student = (await studentsOf(server, classes[0]!.companyId, 7))[6]!;
    const pay = async (pa: { id: string; summary: { total: string } }) => {
      const res = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cash" } });
      expect(res.statusCode, res.body).toBe(201);
    };
    const first = await issuedPa(server, token.front_desk!, classes[0]!, student, { deposits: [{ name: "Deposit", amount: "50.00" }] });
    await pay(first);
    const kept = (await server.db.query<{ id: string }>(`select id from deposits where "paymentAdviceId" = $1`, [first.id])).rows[0]!;
    const second = await issuedPa(server, token.front_desk!, classes[1]!, student, {
      deposits: [{ name: "Deposit", amount: "80.00" }], deductedDeposit: [{ name: "Deposit", depositId: kept.id }], isDeductedDeposit: true,
    });
    await pay(second);
    const updatedAt = (await server.db.query<{ u: string }>(`select to_json("updatedAt") #>> '{}' as u from payment_advices where id = $1`, [second.id])).rows[0]!.u;
    const voided = await api(server.app, "PATCH", "/finances/payment-advices/void-paid-pa", token.finance_manager, { id: second.id, reason: "Billed twice", updatedAt });
    expect(voided.statusCode, voided.body).toBe(200);

    const name = (await server.db.query<{ n: string }>(`select coalesce("fullName", username) as n from users where id = $1`, [student])).rows[0]!.n;
    const row = (await report("finance_staff", "deposit", `from=${today}&to=${today}`)).rows.find((r) => r.student === name);
    expect(row).toMatchObject({ collected: "130.00", released: "80.00", used: "0.00", refunded: "0.00" });
    expect(cents(row!.held)).toBe(cents(row!.opening) + 5000);
    const ledger = await server.db.query<{ held: string }>(`select coalesce(sum(credit - debit), 0)::text as held from journal_lines where "studentId" = $1 and account = 'deposits_held'`, [student]);
    expect(cents(row!.held)).toBe(cents(ledger.rows[0]!.held));
  });


  it("PA listing: balance = total − received, negative when overpaid; the totals sum only live PAs and add up", async () => {
    const student = (await studentsOf(server, classes[0]!.companyId, 6))[5]!;
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, student);
    const over = centsToNumeric(cents(pa.summary.total) + 5000);
    const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: over, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    const listing = await report("finance_manager", "pa-listing", `from=${today}&to=${today}`);
    expect(listing.rows.find((r) => r.name === pa.name)).toMatchObject({ status: "OverPaid", total: pa.summary.total, received: over, balance: "-50.00" });
    const year = await report("finance_manager", "pa-listing", `from=${today.slice(0, 4)}-01-01&to=${today}`);
    expect(year.rows.some((r) => r.status === "Withdrawn")).toBe(true);
    expect(year.rows.some((r) => r.status === "Voided")).toBe(true);
    const live = year.rows.filter((r) => r.status !== "Voided" && r.status !== "Withdrawn");
    for (const r of live) expect(cents(r.balance), String(r.name)).toBe(cents(r.total) - cents(r.received));
    for (const k of ["total", "received", "balance"]) expect(cents(year.totals![k]), k).toBe(live.reduce((s, r) => s + cents(r[k]), 0));
    expect(cents(year.totals!.total) - cents(year.totals!.received)).toBe(cents(year.totals!.balance));
  });

  it("PA listing's totals follow a PA issued, a payment, its void and an edit (sums per issue day kept by triggers); reconcile checks those sums", async () => {
    // the day's listing as the report totals it and as the PAs and their live invoices add up
    const figures = async () => {
      const listing = await report("finance_manager", "pa-listing", `from=${today}&to=${today}`);
      return { pas: listing.page!.total, total: listing.totals!.total, received: listing.totals!.received, chart: listing.chart!.data };
    };
    const fromDocuments = async () => {
      const { rows } = await server.db.query<{ pas: number; total: string; received: string }>(
        `select count(*)::int as pas, coalesce(sum(coalesce(p.summary->>'total', '0')::numeric) filter (where p."paymentStatus" in ('unpaid', 'paid', 'overpaid')), 0)::numeric(14,2)::text as total,
           coalesce(sum((select sum(i."paidAmount") from invoices i where i."paymentAdviceId" = p.id and i."invoiceStatus" <> 'voided' and i.status <> 'deleted')) filter (where p."paymentStatus" in ('unpaid', 'paid', 'overpaid')), 0)::numeric(14,2)::text as received
         from payment_advices p where p.status = 'active' and p."paymentStatus" <> 'draft' and p."issueDate" = $1::date`,
        [today],
      );
      return rows[0]!;
    };
    const agree = async () => {
      const [shown, counted] = [await figures(), await fromDocuments()];
      expect({ pas: shown.pas, total: shown.total, received: shown.received }).toEqual(counted);
      return shown;
    };
    const before = await agree();
    const student = (await studentsOf(server, classes[1]!.companyId, 8))[7]!;
    const pa = await issuedPa(server, token.front_desk!, classes[1]!, student);
    const issued = await agree();
    expect(issued.pas).toBe(before.pas + 1);
    expect(cents(issued.total)).toBe(cents(before.total) + cents(pa.summary.total));
    const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: "40.00", paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(cents((await agree()).received)).toBe(cents(before.received) + 4000);
    const voided = await api(server.app, "POST", `/finances/receipts/${paid.json().data.receipt.id}/void`, token.finance_staff, { reason: "Wrong amount" });
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await agree()).received).toBe(before.received);
    // a due date moved moves the PA between the chart's groups, not out of the totals
    await server.db.query(`update payment_advices set "dueDate" = "dueDate" + 1 where id = $1`, [pa.id]);
    expect((await agree()).total).toBe(issued.total);

    // the stored sums agree with the PAs; one changed by hand is named by the reconciliation
    const listingChecks = async () => (await reconcile(server.db, [student])).filter((d) => d.check.startsWith("PA listing"));
    expect(await listingChecks()).toEqual([]);
    const group = (await server.db.query<{ paymentStatus: string; dueDate: string | null; branchId: string | null }>(
      `select "paymentStatus", "dueDate"::text as "dueDate", "branchId" from app_internal.pa_listing_days where "issueDate" = $1::date and "companyId" = $2 and pas > 0 limit 1`, [today, pa.companyId],
    )).rows[0]!;
    const stored = (by: string) => server.db.query(
      `update app_internal.pa_listing_days set received = received + $6::numeric
       where "issueDate" = $1::date and "companyId" = $2 and "paymentStatus" = $3 and "dueDate" is not distinct from $4::date and "branchId" is not distinct from $5::uuid`,
      [today, pa.companyId, group.paymentStatus, group.dueDate, group.branchId, by],
    );
    await stored("1.00");
    try {
      expect((await listingChecks()).map((d) => d.subject)).toEqual([today]);
    } finally {
      await stored("-1.00");
    }
  });

  const liveBilled = async (from: string, to: string) =>
    new Map((await server.db.query<{ id: string; b: string }>(
      `select id, "paymentSummaryStatic"->>'totalBeforeGst' as b from payment_advices where status = 'active' and "paymentStatus" in ('unpaid', 'paid', 'overpaid') and "issueDate" between $1::date and $2::date`,
      [from, to],
    )).rows.map((r) => [r.id, cents(r.b)]));

  it("PA listing over a year, paged and streamed: its pages are the whole listing, every page carries the whole totals, the CSV is read through a cursor in batches", async () => {
    const q = `from=${year}-01-01&to=${today}`;
    const whole = await report("finance_manager", "pa-listing", q);
    const n = whole.rows.length;
    expect(n).toBeGreaterThan(12);
    expect(whole.page).toEqual({ current: 1, pageSize: MAX_REPORT_PAGE_SIZE, total: n });
    const pageSize = Math.ceil(n / 3);
    const pages: ReportResult[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await api(server.app, "GET", `/reports/pa-listing?${q}&page=${page}&pageSize=${pageSize}`, token.finance_manager);
      expect(res.statusCode, res.body).toBe(200);
      pages.push(res.json().data);
    }
    expect(pages.flatMap((p) => p.rows)).toEqual(whole.rows);
    for (const p of pages) expect({ totals: p.totals, chart: p.chart, total: p.page!.total }).toEqual({ totals: whole.totals, chart: whole.chart, total: n });
    // the totals of the live rows, summed here from the unpaged rows
    const live = whole.rows.filter((r) => r.status !== "Voided" && r.status !== "Withdrawn");
    for (const k of ["total", "received", "balance"]) expect(cents(whole.totals![k]), k).toBe(live.reduce((s, r) => s + cents(r[k]), 0));

    // the CSV, streamed through a cursor 5 rows a fetch: header, every row in order, the totals row
    const statements: string[] = [];
    const db = recordingDb(server.db, (sql) => statements.push(sql));
    const chunks: string[] = [];
    const out = new PassThrough();
    out.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    await streamReportCsv(db, paListingReport, { from: `${year}-01-01`, to: today, companyId: null, branchId: null }, out, 5);
    const expected = CSV_BOM + [whole.columns.map((c) => c.title), ...[...whole.rows, whole.totals!].map((r) => reportCsvCells(whole.columns, r))].map(csvLine).join("");
    expect(chunks.join("")).toBe(expected);
    expect(statements.filter((s) => /^declare \w+ no scroll cursor/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => s === "fetch 5 from report_rows")).toHaveLength(Math.floor(n / 5) + 1);
    expect(statements.some((s) => /\blimit\b/.test(s))).toBe(false);
    const http = await api(server.app, "GET", `/reports/pa-listing?${q}&format=csv`, token.finance_manager);
    expect(http.statusCode).toBe(200);
    expect(http.headers["content-type"]).toMatch(/^text\/csv/);
    expect(http.body).toBe(expected);
  });

  it("revenue: billed = every live PA's totalBeforeGst; billed − credited = recognised + deferred on every line, every PA and in total", async () => {
    const [from, to] = [`${year}-01-01`, `${year}-12-31`];
    const revenue = await report("finance_staff", "revenue", `from=${from}&to=${to}`);
    expect(revenue.rows.length).toBeGreaterThan(0);
    for (const r of revenue.rows) expect(cents(r.recognised) + cents(r.deferred) + cents(r.credited), `${r.month} ${r.programme}`).toBe(cents(r.billed));
    expect(cents(revenue.totals!.recognised) + cents(revenue.totals!.deferred) + cents(revenue.totals!.credited)).toBe(cents(revenue.totals!.billed));
    const byPa = await revenueByPa(server.db, { from, to, companyId: null, branchId: null });
    const billed = await liveBilled(from, to);
    expect(new Map(byPa.map((p) => [p.paymentAdviceId, cents(p.billed)]))).toEqual(billed);
    for (const p of byPa) expect(cents(p.recognised) + cents(p.deferred) + cents(p.credited), p.paymentAdviceId).toBe(cents(p.billed));
    expect(cents(revenue.totals!.billed)).toBe([...billed.values()].reduce((s, v) => s + v, 0));
  });

  it("revenue: other fees less deductions are deferred until the PA is paid, then recognised", async () => {
    const student = (await studentsOf(server, classes[1]!.companyId, 7))[6]!;
    const pa = await issuedPa(server, token.front_desk!, classes[1]!, student, { otherPayments: [{ name: "Material", amount: "30.00" }], deductions: [{ name: "Goodwill", amount: "5.00" }] });
    const fees = async () => (await report("finance_staff", "revenue", `from=${today}&to=${today}`)).rows.find((r) => r.programme === "Fees (registration, material, other)" && r.month === today.slice(0, 7));
    expect(await fees()).toMatchObject({ billed: "25.00", recognised: "0.00", deferred: "25.00" });
    const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await fees()).toMatchObject({ billed: "25.00", recognised: "25.00", deferred: "0.00" });
    const mine = (await revenueByPa(server.db, { from: today, to: today, companyId: null, branchId: null })).find((p) => p.paymentAdviceId === pa.id)!;
    expect(cents(mine.billed)).toBe((await liveBilled(today, today)).get(pa.id));
  });

  /** A suspension credit note for the enrolment's first two lessons ahead, from the receipt, taken through to issued: its record. */
  const suspensionCreditNote = async (e: Enrolment, receiptId: string) => {
    const [l1, l2] = e.lessons;
    const created = await api(server.app, "POST", "/credit-notes", token.front_desk, { type: "suspension", studentId: e.studentId, classId: e.id, startDate: l1!.date, endDate: l2!.date, reason: "Overseas trip" });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.creditNoteId;
    const move = async (role: string, status: string, body: Record<string, unknown> = {}) => {
      const current = (await api(server.app, "GET", `/credit-notes/${id}`, token[role])).json().data;
      if (Object.keys(body).length) expect((await api(server.app, "PUT", `/credit-notes/${id}`, token[role], { updatedAt: current.updatedAt, ...body })).statusCode).toBe(200);
      const again = (await api(server.app, "GET", `/credit-notes/${id}`, token[role])).json().data;
      const res = await api(server.app, "PATCH", `/credit-notes/change-status-credit-note/${id}`, token[role], { status, updatedAt: again.updatedAt });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    await move("front_desk", "awaiting_finance_action");
    await move("finance_staff", "awaiting_finance_approval", { numberOfLesson: 2, receiptId, reason: "Overseas trip" });
    return move("finance_manager", "issued");
  };

  it("revenue: an issued suspension credit note reduces the PA's deferred revenue, not what was recognised", async () => {
    const [e] = await enrolmentsWithLessonsAhead(server, 1);
    const pa = await issuedPa(server, token.front_desk!, e!, e!.studentId);
    const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    const figures = async () => (await revenueByPa(server.db, { from: today, to: today, companyId: null, branchId: null })).find((p) => p.paymentAdviceId === pa.id)!;
    const before = await figures();
    const cn = await suspensionCreditNote(e!, paid.json().data.receipt.id);
    const after = await figures();
    expect(after.credited).toBe(cn.summary.subTotal);
    expect(after.recognised).toBe(before.recognised);
    expect(cents(after.deferred)).toBe(cents(before.deferred) - cents(cn.summary.subTotal));
    expect(cents(after.recognised) + cents(after.deferred) + cents(after.credited)).toBe(cents(after.billed));
  });

  it("revenue from the ledger: a PA issued, paid, credited and voided moves each month's billed, credited, recognised and deferred by its journal lines, to the cent", async () => {
    const e = (await enrolmentsWithLessonsAhead(server, 2))[1]!;
    type Figures = { billed: number; credited: number; recognised: number; deferred: number };
    const FIGURES = ["billed", "credited", "recognised", "deferred"] as const;
    const rowsOf = async () => new Map((await report("finance_manager", "revenue", `from=${today}&to=${today}`)).rows.map((r) => [`${r.month} ${r.programme}`, Object.fromEntries(FIGURES.map((k) => [k, cents(r[k])])) as Figures]));
    /** What the report moved since `start`, row by row (rows that moved nothing left out). */
    const movedSince = async (start: Map<string, Figures>) => {
      const out = new Map<string, Figures>();
      const now = await rowsOf();
      for (const [key, row] of now) {
        const was = start.get(key);
        const d = Object.fromEntries(FIGURES.map((k) => [k, row[k] - (was?.[k] ?? 0)])) as Figures;
        if (FIGURES.some((k) => d[k] !== 0)) out.set(key, d);
      }
      for (const [key, was] of start) if (!out.has(key) && !now.has(key)) out.set(key, Object.fromEntries(FIGURES.map((k) => [k, -was[k]])) as Figures);
      return out;
    };
    /** The PA's own figures in the ledger: its recognition entries' lines by month and programme. */
    const ledgerOf = async (paId: string) =>
      new Map(
        (
          await server.db.query<{ key: string; billed: string; credited: string; recognised: string }>(
            `select coalesce(to_char(l."revenueMonth", 'YYYY-MM'), 'No lessons') || ' ' || case when l."classId" is null then 'Fees (registration, material, other)' else p.name end as key,
               coalesce(sum(l.credit - l.debit) filter (where l."revenueFigure" = 'billed'), 0)::text as billed, coalesce(sum(l.debit - l.credit) filter (where l."revenueFigure" = 'credited'), 0)::text as credited,
               coalesce(sum(l.credit - l.debit) filter (where l.account = 'revenue_recognised'), 0)::text as recognised
             from journal_entries e join journal_lines l on l."entryId" = e.id left join classes c on c.id = l."classId" left join programs p on p.id = c."programId"
             where e.operation = 'revenue_recognised' and e."documentId" = $1 group by 1`,
            [paId],
          )
        ).rows
          .map((r) => [r.key, { billed: cents(r.billed), credited: cents(r.credited), recognised: cents(r.recognised), deferred: cents(r.billed) - cents(r.credited) - cents(r.recognised) }] as const)
          .filter(([, f]) => FIGURES.some((k) => f[k] !== 0)),
      );
    const start = await rowsOf();
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId, { otherPayments: [{ name: "Material", amount: "30.00" }] });
    // the model by hand: the card's total lesson by lesson (total ÷ lessons, a spare cent each on the first lessons), held up to today
    const { rows: [card] } = await server.db.query<{ total: string; programme: string; dates: string[] }>(
      `select c->'responses'->>'total' as total, p.name as programme,
         (select json_agg(l.date::text order by l.date, l.id) from jsonb_array_elements_text(c->'responses'->'lessonIds') x join lessons l on l.id = x::uuid) as dates
       from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") c join classes k on k.id = (c->>'id')::uuid join programs p on p.id = k."programId"
       where pa.id = $1`,
      [pa.id],
    );
    const total = cents(card!.total);
    const shares = card!.dates.map((d, k) => ({ month: d.slice(0, 7), held: d <= today, cents: Math.floor(total / card!.dates.length) + (k < total % card!.dates.length ? 1 : 0) }));
    expect(shares.some((x) => x.held) && shares.some((x) => !x.held), "lessons delivered and lessons ahead").toBe(true);
    const expected = (credit: number, feesRecognised: number) => {
      const out = new Map<string, Figures>();
      const add = (key: string, f: Partial<Figures>) => {
        const was = out.get(key) ?? { billed: 0, credited: 0, recognised: 0, deferred: 0 };
        out.set(key, Object.fromEntries(FIGURES.map((k) => [k, was[k] + (f[k] ?? 0)])) as Figures);
      };
      let left = credit; // a credit comes off the latest lessons not yet delivered first
      for (const x of [...shares].reverse()) {
        const credited = x.held ? 0 : Math.min(left, x.cents);
        left -= credited;
        add(`${x.month} ${card!.programme}`, { billed: x.cents, credited, recognised: x.held ? x.cents : 0, deferred: x.held ? 0 : x.cents - credited });
      }
      add(`${today.slice(0, 7)} Fees (registration, material, other)`, { billed: 3000, recognised: feesRecognised, deferred: 3000 - feesRecognised });
      return out;
    };
    const check = async (want: Map<string, Figures>) => {
      expect(await ledgerOf(pa.id)).toEqual(want);
      expect(await movedSince(start)).toEqual(want);
    };
    await check(expected(0, 0));
    const paid = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    await check(expected(0, 3000));
    const cn = await suspensionCreditNote(e, paid.json().data.receipt.id);
    expect(cents(cn.summary.subTotal)).toBeGreaterThan(0);
    await check(expected(cents(cn.summary.subTotal), 3000));
    expect(await reconcile(server.db, [e.studentId])).toEqual([]);
    const current = (await server.db.query<{ updatedAt: string }>(`select to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [pa.id])).rows[0]!;
    const voided = await api(server.app, "PATCH", "/finances/payment-advices/void-paid-pa", token.finance_manager, { id: pa.id, reason: "Wrong class", updatedAt: current.updatedAt });
    expect(voided.statusCode, voided.body).toBe(200);
    await check(new Map());
    expect(await reconcile(server.db, [e.studentId])).toEqual([]);
  });

  it("revenue sums follow a PA whose issue day or company changes (the trigger on payment_advices); reconcile's sums check agrees", async () => {
    const student = (await studentsOf(server, classes[2]!.companyId, 9))[8]!;
    const pa = await issuedPa(server, token.front_desk!, classes[2]!, student);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86400_000).toISOString().slice(0, 10);
    const other = (await server.db.query<{ id: string }>(`select id from companies where id <> $1 order by id limit 1`, [pa.companyId])).rows[0]!.id;
    /** The report's stored billed sum of a company's PAs issued on a day. */
    const billedOn = async (companyId: string, day: string) =>
      cents((await server.db.query<{ b: string }>(`select coalesce(sum(billed), 0)::text as b from app_internal.revenue_summary where "companyId" = $1 and "issueDate" = $2::date`, [companyId, day])).rows[0]!.b);
    const billed = cents(
      (await server.db.query<{ b: string }>(
        `select coalesce(sum(l.credit - l.debit) filter (where l."revenueFigure" = 'billed'), 0)::text as b from journal_entries e join journal_lines l on l."entryId" = e.id
         where e.operation = 'revenue_recognised' and e."documentId" = $1`,
        [pa.id],
      )).rows[0]!.b,
    );
    expect(billed).toBeGreaterThan(0);
    const start = { today: await billedOn(pa.companyId, today), yesterday: await billedOn(pa.companyId, yesterday), other: await billedOn(other, yesterday) };
    const sumsChecked = async () => (await reconcile(server.db)).filter((d) => d.check === "revenue report's sums = the ledger lines");
    await server.db.query(`update payment_advices set "issueDate" = $2::date where id = $1`, [pa.id, yesterday]);
    expect(await billedOn(pa.companyId, today)).toBe(start.today - billed);
    expect(await billedOn(pa.companyId, yesterday)).toBe(start.yesterday + billed);
    await server.db.query(`update payment_advices set "companyId" = $2 where id = $1`, [pa.id, other]);
    expect(await billedOn(pa.companyId, yesterday)).toBe(start.yesterday);
    expect(await billedOn(other, yesterday)).toBe(start.other + billed);
    expect(await sumsChecked()).toEqual([]);
    await server.db.query(`update payment_advices set "issueDate" = $2::date, "companyId" = $3 where id = $1`, [pa.id, today, pa.companyId]);
    expect({ today: await billedOn(pa.companyId, today), yesterday: await billedOn(pa.companyId, yesterday), other: await billedOn(other, yesterday) }).toEqual(start);
    expect(await sumsChecked()).toEqual([]);
  });

  it("attendance: attended + absent = lessons, the rate their ratio; enrolment lists by period and by students", async () => {
    const attendance = await report("hr", "student-attendance", `from=${year}-01-01&to=${today}`);
    for (const r of attendance.rows) {
      expect(Number(r.attended) + Number(r.absent)).toBe(Number(r.lessons));
      expect(r.rate).toBe(Math.round((Number(r.attended) / Number(r.lessons)) * 100));
    }
    const list = await report("hr", "enrollment-list", `from=${today}&to=${today}`);
    expect(list.rows.length).toBeGreaterThan(0);
    // statuses in words (issue 37): "Enrolled", "Transferred", never the stored "enrolled"
    expect(new Set(list.rows.map((r) => r.status))).toContain("Enrolled");
    expect(list.rows.filter((r) => /^[a-z]/.test(String(r.status)))).toEqual([]);
    const fresh = await report("hr", "enrollment-list-new", `from=${year}-01-01&to=${today}`);
    expect(new Set(fresh.rows.map((r) => r.username)).size).toBe(fresh.rows.length); // a student's first enrolment, once
    const { rows } = await server.db.query<{ id: string }>(`select distinct "userId" as id from student_classes where status = 'enrolled' limit 3`);
    const byIds = await api(server.app, "POST", "/reports/enrollment-list-by-user-ids", token.finance_manager, { userIds: rows.map((r) => r.id) });
    expect(byIds.statusCode, byIds.body).toBe(200);
    expect(byIds.json().data.rows.length).toBeGreaterThanOrEqual(3);
    expect((await api(server.app, "POST", "/reports/enrollment-list-by-user-ids", token.front_desk, { userIds: rows.map((r) => r.id) })).statusCode).toBe(403);
    expect((await api(server.app, "POST", "/reports/enrollment-list-by-user-ids", token.hr, { userIds: [] })).json().errors).toMatchObject({ userIds: "Please select students." });
  });

  it("attendance, read student by student, lists the rows and figures its seats count: a year, partial months at both ends, days within a month, a branch; pages in order", async () => {
    /** The report's rows as the seats count them (COUNTED_SEAT, every lesson of the period read, nothing stored). */
    const counted = async (from: string, to: string, branchId: string | null = null) =>
      (await server.db.query<ReportRow>(
        `select u."fullName" as student, u.username, c.name as "className", b.name as branch, count(*)::int as lessons, (count(*) filter (where ${ATTENDED_SEAT}))::int as attended
         from lessons_students ls join lessons l on l.id = ls."lessonId" join users u on u.id = ls."studentId" join classes c on c.id = l."classId" left join branches b on b.id = c."branchId"
         where ${COUNTED_SEAT} and l.date between $1::date and least($2::date, (now() at time zone 'Asia/Singapore')::date - 1) and ($3::uuid is null or c."branchId" = $3)
         group by u.id, c.id, b.name order by u."fullName", c.name, u.id, c.id`,
        [from, to, branchId],
      )).rows.map((r) => ({ ...r, absent: Number(r.lessons) - Number(r.attended), rate: Math.round((Number(r.attended) / Number(r.lessons)) * 100) }));
    const shown = async (q: string) => (await report("hr", "student-attendance", q)).rows;
    const day = (months: number, d: number) => { const t = new Date(`${today.slice(0, 8)}01T00:00:00Z`); t.setUTCMonth(t.getUTCMonth() + months, d); return t.toISOString().slice(0, 10); };
    for (const [from, to] of [[day(-11, 1), today], [day(-5, 12), day(-1, 17)], [day(-2, 3), day(-2, 20)]] as const) {
      const rows = await counted(from, to);
      expect(rows.length, `${from}…${to}`).toBeGreaterThan(0);
      expect(await shown(`from=${from}&to=${to}`), `${from}…${to}`).toEqual(rows);
    }
    const [from, to] = [day(-5, 12), day(-1, 17)];
    const rows = await counted(from, to);
    const page2 = await api(server.app, "GET", `/reports/student-attendance?from=${from}&to=${to}&page=2&pageSize=7`, token.hr);
    expect(page2.json().data.rows).toEqual(rows.slice(7, 14));
    expect(page2.json().data.page.total).toBe(rows.length);
    const branchId = classes[0]!.branchId;
    expect(await shown(`from=${from}&to=${to}&branchId=${branchId}`)).toEqual(await counted(from, to, branchId));
  });

  it("both enrolment lists, walked in their own order, list the period's enrolments as a flat join of them does; a second page; their totals", async () => {
    const from = `${year}-01-01`;
    const flat = async (where: string, orderBy: string) =>
      (await server.db.query<ReportRow>(
        `select c.name as "className", c."classCode", b.name as branch, u."fullName" as student, u.username, sc.status, coalesce(sc."lessonStartDate", c."startDate")::text as "lessonStartDate"
         from student_classes sc join classes c on c.id = sc."classId" join users u on u.id = sc."userId" left join branches b on b.id = c."branchId"
         where c.status = 'active' and ${where} order by ${orderBy}`,
        [from, today],
      )).rows.map((r): ReportRow => ({ ...r, status: storedValueLabel("student_classes", "status", String(r.status)) ?? r.status }));
    const lists = {
      "enrollment-list": await flat(`sc.status in ('enrolled', 'transferred', 'replacement', 'suspended', 'completed') and coalesce(sc."lessonStartDate", c."startDate", $2::date) <= $2::date and coalesce(sc."endDate", c."endDate", $1::date) >= $1::date`, `c.name, u."fullName", sc.id`),
      "enrollment-list-new": await flat(
        `sc.status <> 'deleted' and sc."createdAt" >= ($1::date::timestamp at time zone 'Asia/Singapore') and sc."createdAt" < (($2::date + 1)::timestamp at time zone 'Asia/Singapore')
         and not exists (select 1 from student_classes e where e."userId" = sc."userId" and e.status <> 'deleted' and e."createdAt" < sc."createdAt")`,
        `sc."createdAt", u."fullName", sc.id`,
      ),
    };
    for (const [name, rows] of Object.entries(lists)) {
      expect(rows.length, name).toBeGreaterThan(14);
      const whole = await report("hr", name, `from=${from}&to=${today}`);
      expect(whole.rows, name).toEqual(rows);
      expect(whole.totals!.classCode, name).toBe(`${new Set(rows.map((r) => r.className)).size} classes`);
      const page2 = (await api(server.app, "GET", `/reports/${name}?from=${from}&to=${today}&page=2&pageSize=7`, token.hr)).json().data;
      expect(page2.rows, name).toEqual(rows.slice(7, 14));
      expect(page2.page.total, name).toBe(rows.length);
    }
  });

  it("attendance over whole months and partial ones follows a mark, a lesson moved and a seat taken out; reconcile checks the stored monthly counts", async () => {
    const seat = (await server.db.query<{ id: string; lessonId: string; classId: string; studentId: string; username: string; className: string; date: string; hasAttended: boolean; first: string; last: string; next: string }>(
      `select ls.id, ls."lessonId", l."classId", ls."studentId", u.username, c.name as "className", l.date::text as date, ls.status = 'attended' as "hasAttended",
         date_trunc('month', l.date)::date::text as first, (date_trunc('month', l.date) + interval '1 month - 1 day')::date::text as last,
         (date_trunc('month', l.date) + interval '1 month')::date::text as next
       from lessons_students ls join lessons l on l.id = ls."lessonId" join users u on u.id = ls."studentId" join classes c on c.id = l."classId"
       where l.status = 'active' and l."lessonStatus" = 'active' and ls.type = 'enrolled' and ls.status in ('attended', 'not_attended')
         and l.date < date_trunc('month', (now() at time zone 'Asia/Singapore')::date) - interval '1 month' order by l.date desc, ls.id limit 1`,
    )).rows[0]!;
    const ops = (await signIn(server.app, "ops_manager")).accessToken;
    // the seat's student and class over its whole month (the stored counts) and over its day alone (the lessons)
    const figures = async () => {
      const line = async (from: string, to: string) => {
        const row = (await report("hr", "student-attendance", `from=${from}&to=${to}`)).rows.find((r) => r.username === seat.username && r.className === seat.className);
        return row ? { lessons: Number(row.lessons), attended: Number(row.attended) } : { lessons: 0, attended: 0 };
      };
      return { month: await line(seat.first, seat.last), day: await line(seat.date, seat.date) };
    };
    const before = await figures();
    expect(before.day.lessons).toBeGreaterThanOrEqual(1);
    const mark = await api(server.app, "PUT", `/classes/attendance/${seat.lessonId}`, ops, { students: [{ id: seat.id, hasAttended: !seat.hasAttended }] });
    expect(mark.statusCode, mark.body).toBe(200);
    const step = seat.hasAttended ? -1 : 1;
    const marked = await figures();
    expect(marked.month).toEqual({ lessons: before.month.lessons, attended: before.month.attended + step });
    expect(marked.day).toEqual({ lessons: before.day.lessons, attended: before.day.attended + step });
    // the lesson moved to the next month leaves this month's count; the seat taken out (withdrawn) leaves it too
    await server.db.query(`update lessons set date = $2::date where id = $1`, [seat.lessonId, seat.next]);
    expect((await figures()).month.lessons).toBe(before.month.lessons - 1);
    await server.db.query(`update lessons set date = $2::date where id = $1`, [seat.lessonId, seat.date]);
    await server.db.query(`update lessons_students set status = 'withdrawn' where id = $1`, [seat.id]);
    expect((await figures()).month.lessons).toBe(before.month.lessons - 1);
    await server.db.query(`update lessons_students set status = $2 where id = $1`, [seat.id, seat.hasAttended ? "attended" : "not_attended"]);
    expect(await figures()).toEqual(before);
    // the stored counts agree with the seats; one changed by hand is named by the reconciliation
    const stored = (by: number) => server.db.query(`update app_internal.attendance_months set attended = attended + $4 where "classId" = $1 and "studentId" = $2 and month = $3::date`, [seat.classId, seat.studentId, seat.first, by]);
    expect((await reconcile(server.db, [seat.studentId])).filter((d) => d.check.startsWith("attendance"))).toEqual([]);
    await stored(1);
    try {
      expect((await reconcile(server.db, [seat.studentId])).filter((d) => d.check === "attendance report's monthly counts = the seats").map((d) => d.message)).toEqual([expect.stringMatching(new RegExp(`^class .*, ${seat.first.slice(0, 7)}: \\d+ lessons, \\d+ attended stored, \\d+ lessons, \\d+ attended counted$`))]);
    } finally {
      await stored(-1);
    }
  });

  it("attendance's yearly rows follow a mark, a seat added and taken out and a transfer; the report's totals stay its rows' sums; reconcile checks the yearly rows", async () => {
    const seat = (await server.db.query<{ id: string; lessonId: string; classId: string; branchId: string; studentId: string; status: string; first: string; year: number; month: number; other: string; newcomer: string }>(
      `select ls.id, ls."lessonId", l."classId", c."branchId", ls."studentId", ls.status, date_trunc('month', l.date)::date::text as first, extract(year from l.date)::int as year, extract(month from l.date)::int as month,
         (select o.id from lessons o where o."classId" <> l."classId" and o.status = 'active' and o."lessonStatus" = 'active' and date_trunc('month', o.date) = date_trunc('month', l.date) order by o.id limit 1) as other,
         (select u.id from users u where u.type = 'student' and not exists (select 1 from lessons_students x where x."lessonId" = l.id and x."studentId" = u.id) order by u.id limit 1) as newcomer
       from lessons_students ls join lessons l on l.id = ls."lessonId" join classes c on c.id = l."classId"
       where ${COUNTED_SEAT} and ls.type = 'enrolled' and l.date < date_trunc('month', (now() at time zone 'Asia/Singapore')::date) - interval '1 month' order by l.date desc, ls.id limit 1`,
    )).rows[0]!;
    const ops = (await signIn(server.app, "ops_manager")).accessToken;
    const yearly = async (studentId: string, classId: string) =>
      (await server.db.query<{ l: number; a: number }>(`select coalesce(sum(l${seat.month}), 0)::int as l, coalesce(sum(a${seat.month}), 0)::int as a from app_internal.attendance_years where year = $1 and "studentId" = $2 and "classId" = $3`, [seat.year, studentId, classId])).rows[0]!;
    const other = (await server.db.query<{ classId: string }>(`select "classId" from lessons where id = $1`, [seat.other])).rows[0]!.classId;
    /** The seat's student in its class and in the other class, and the newcomer in the seat's class, as the yearly rows hold them; the report's totals are its rows' sums. */
    const figures = async (whole = false) => {
      const all = await report("hr", "student-attendance", `from=${seat.first}&to=${today}`);
      const sum = (k: string) => all.rows.reduce((n, r) => n + Number(r[k]), 0);
      expect(all.totals).toMatchObject({ lessons: sum("lessons"), attended: sum("attended"), student: `${all.rows.length} students × classes` });
      if (whole) {
        // a branch's rows (read from the yearly rows) are the whole report's rows of that branch; reconcile finds nothing
        const branch = await report("hr", "student-attendance", `from=${seat.first}&to=${today}&branchId=${seat.branchId}`);
        expect(branch.rows).toEqual(all.rows.filter((r) => r.branch === branch.rows[0]?.branch));
        expect((await reconcile(server.db, [seat.studentId, seat.newcomer])).filter((d) => d.check.startsWith("attendance"))).toEqual([]);
      }
      return { seat: await yearly(seat.studentId, seat.classId), other: await yearly(seat.studentId, other), newcomer: await yearly(seat.newcomer, seat.classId) };
    };
    const before = await figures(true);
    const attended = seat.status === "attended";
    const mark = await api(server.app, "PUT", `/classes/attendance/${seat.lessonId}`, ops, { students: [{ id: seat.id, hasAttended: !attended }] });
    expect(mark.statusCode, mark.body).toBe(200);
    expect((await figures()).seat).toEqual({ l: before.seat.l, a: before.seat.a + (attended ? -1 : 1) });
    const added = (await server.db.query<{ id: string }>(`insert into lessons_students ("lessonId", "studentId", type, status) values ($1, $2, 'enrolled', 'attended') returning id`, [seat.lessonId, seat.newcomer])).rows[0]!;
    expect((await figures()).newcomer).toEqual({ l: before.newcomer.l + 1, a: before.newcomer.a + 1 });
    await server.db.query(`delete from lessons_students where id = $1`, [added.id]);
    expect((await figures()).newcomer).toEqual(before.newcomer);
    // transferred out of this lesson into the other class's lesson of the same month
    await server.db.query(`update lessons_students set type = 'has_been_transferred' where id = $1`, [seat.id]);
    const moved = (await server.db.query<{ id: string }>(`insert into lessons_students ("lessonId", "studentId", type, status, "oldLessonId") values ($1, $2, 'transferred', 'not_attended', $3) returning id`, [seat.other, seat.studentId, seat.lessonId])).rows[0]!;
    const transferred = await figures(true);
    expect(transferred.seat.l).toBe(before.seat.l - 1);
    expect(transferred.other).toEqual({ l: before.other.l + 1, a: before.other.a });
    await server.db.query(`delete from lessons_students where id = $1`, [moved.id]);
    await server.db.query(`update lessons_students set type = 'enrolled', status = $2 where id = $1`, [seat.id, seat.status]);
    expect(await figures(true)).toEqual(before);
    // a yearly row changed by hand is named by the reconciliation
    const change = (by: number) => server.db.query(`update app_internal.attendance_years set l${seat.month} = l${seat.month} + $4 where year = $1 and "studentId" = $2 and "classId" = $3`, [seat.year, seat.studentId, seat.classId, by]);
    await change(1);
    try {
      expect((await reconcile(server.db, [seat.studentId])).filter((d) => d.check.startsWith("attendance")).map((d) => d.check)).toEqual(["attendance report's yearly rows = its monthly counts"]);
    } finally {
      await change(-1);
    }
  });

  it("rewards: one line per month of the period; the referrals counted are those registered in it", async () => {
    const reward = await report("front_desk", "reward", `from=${year}-01-01&to=${year}-12-31`);
    expect(reward.rows.map((r) => r.month)).toEqual(Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, "0")}`));
    const { rows } = await server.db.query<{ n: number }>(`select count(*)::int as n from referrals where status = 'active' and "registrationDate" between $1::date and $2::date`, [`${year}-01-01`, `${year}-12-31`]);
    expect(reward.totals!.referrals).toBe(rows[0]!.n);
    expect((await api(server.app, "GET", `/reports/reward?from=${today}&to=${today}`, token.hr)).statusCode).toBe(403);
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
