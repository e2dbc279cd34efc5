/**
 * FINANCE.md §6 on the seeded demo data as it is (issue 31 scopes 6 and 7): the seed obeys the money model, and
 * every identity the reports can show holds — daily receipts vs daily closing per day and method (voided apart),
 * revenue per PA, the PA listing's totals, deposits held = collected − released − used − refunded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { moneyModelViolations } from "../support/moneyModel.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { revenueLinesSql } from "../../server/finance/revenueLines.ts";
import { readWithoutJit } from "../../server/db/jit.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { MAX_REPORT_PAGE_SIZE, type ReportResult } from "../../src/domain/reports.ts";
import { revenueByPa } from "../../server/reports/revenue.ts";

describe.each(databaseLanes())("reports on the seeded demo data [%s]", (lane) => {
  let server: TestServer;
  let token: string;
  const today = todayInSingapore();
  const from = `${today.slice(0, 4)}-01-01`;
  const to = `${today.slice(0, 4)}-12-31`;

  beforeAll(async () => {
    server = await startTestServer(lane);
    token = (await signIn(server.app, "finance_manager")).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });

  const report = async (name: string, q = `from=${from}&to=${to}`): Promise<ReportResult> => {
    const res = await api(server.app, "GET", `/reports/${name}?${q}&pageSize=${MAX_REPORT_PAGE_SIZE}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const cents = (v: unknown) => numericToCents(String(v ?? "0"))!;

  it("the seeded documents obey the money model (statuses, receipts = payments = invoices = PA status, deposits, numbers, money out ≤ money in)", async () => {
    expect(await moneyModelViolations(server.db)).toEqual({});
  });

  it("daily receipts = daily closing, day by day and method by method; voided ones in the Voided column of both", async () => {
    const receipts = await report("daily-receipt");
    const closing = await report("daily-closing");
    const titleToKey = new Map(closing.columns.map((c) => [c.title, c.key]));
    const fromReceipts = new Map<string, number>();
    const add = (m: Map<string, number>, k: string, v: number) => v && m.set(k, (m.get(k) ?? 0) + v);
    for (const r of receipts.rows) {
      if (r.voided !== null) add(fromReceipts, `${r.receiptDate} voided`, cents(r.voided));
      else add(fromReceipts, `${r.receiptDate} ${titleToKey.get(String(r.method)) ?? r.method}`, cents(r.amount));
    }
    const fromClosing = new Map<string, number>();
    const methods = closing.columns.filter((c) => c.kind === "money" && c.key !== "total" && c.key !== "voided").map((c) => c.key);
    for (const r of closing.rows) {
      for (const m of methods) add(fromClosing, `${r.day} ${m}`, cents(r[m]));
      add(fromClosing, `${r.day} voided`, cents(r.voided));
    }
    expect(receipts.rows.filter((r) => r.voided === null).length).toBeGreaterThan(50); // the seeded receipts are in the report, live
    expect(fromClosing).toEqual(fromReceipts);
    expect(cents(closing.totals!.total)).toBe(cents(receipts.totals!.amount));
    expect(cents(closing.totals!.voided)).toBe(cents(receipts.totals!.voided));
  });

  it("revenue: billed = each live PA's totalBeforeGst, and billed − credited = recognised + deferred, per PA and in total", async () => {
    const byPa = await revenueByPa(server.db, { from, to, companyId: null, branchId: null });
    const { rows } = await server.db.query<{ id: string; b: string }>(
      `select id, "paymentSummaryStatic"->>'totalBeforeGst' as b from payment_advices where status = 'active' and "paymentStatus" in ('unpaid', 'paid', 'overpaid') and "issueDate" between $1::date and $2::date`,
      [from, to],
    );
    expect(new Map(byPa.map((p) => [p.paymentAdviceId, cents(p.billed)]))).toEqual(new Map(rows.map((r) => [r.id, cents(r.b)])));
    for (const p of byPa) expect(cents(p.recognised) + cents(p.deferred) + cents(p.credited), p.paymentAdviceId).toBe(cents(p.billed));
    const revenue = await report("revenue");
    for (const k of ["billed", "credited", "recognised", "deferred"]) expect(cents(revenue.totals![k]), k).toBe(byPa.reduce((s, p) => s + cents(p[k as "billed"]), 0));
    expect(byPa.some((p) => cents(p.recognised) > 0 && cents(p.deferred) > 0)).toBe(true);
  });

  it("revenue: a class total is recognised lesson by lesson (total ÷ lessons, the spare cents on the first lessons), fees when paid", async () => {
    const { rows } = await server.db.query<{ id: string; paid: boolean; billed: string; cards: Array<{ total: string; lessons: Array<{ date: string; id: string }> }> }>(
      `select pa.id, pa."paymentStatus" in ('paid', 'overpaid') as paid, pa."paymentSummaryStatic"->>'totalBeforeGst' as billed,
         (select json_agg(json_build_object('total', c->'responses'->>'total', 'lessons',
            (select coalesce(json_agg(json_build_object('date', l.date::text, 'id', l.id) order by l.date, l.id), '[]') from jsonb_array_elements_text(c->'responses'->'lessonIds') x join lessons l on l.id = x::uuid)))
          from jsonb_array_elements(pa."classInformations") c) as cards
       from payment_advices pa where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and pa."issueDate" between $1::date and $2::date`,
      [from, to],
    );
    const figures = new Map((await revenueByPa(server.db, { from, to, companyId: null, branchId: null })).map((p) => [p.paymentAdviceId, p]));
    let checked = 0;
    for (const pa of rows) {
      const f = figures.get(pa.id)!;
      if (cents(f.credited) > 0) continue;
      let recognised = 0;
      let classes = 0;
      for (const card of pa.cards) {
        const total = cents(card.total);
        classes += total;
        const n = card.lessons.length;
        card.lessons.forEach((l, k) => { if (l.date <= today) recognised += Math.floor(total / n) + (k < total % n ? 1 : 0); });
      }
      if (pa.paid) recognised += cents(pa.billed) - classes;
      expect(cents(f.recognised), pa.id).toBe(recognised);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("revenue from the ledger: recognition lines name the class and month of the lessons delivered, and the report's month × programme split is theirs", async () => {
    const { rows: cards } = await server.db.query<{ id: string; classId: string; programme: string; total: string; dates: string[] }>(
      `select pa.id, c->>'id' as "classId", p.name as programme, c->'responses'->>'total' as total,
         (select coalesce(json_agg(l.date::text order by l.date, l.id), '[]') from jsonb_array_elements_text(c->'responses'->'lessonIds') x join lessons l on l.id = x::uuid) as dates
       from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") c join classes k on k.id = (c->>'id')::uuid join programs p on p.id = k."programId"
       where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and pa."issueDate" between $1::date and $2::date`,
      [from, to],
    );
    const credited = new Set((await revenueByPa(server.db, { from, to, companyId: null, branchId: null })).filter((p) => cents(p.credited) > 0).map((p) => p.paymentAdviceId));
    const model = new Map<string, number>();
    for (const c of cards.filter((x) => !credited.has(x.id))) {
      const total = cents(c.total);
      c.dates.forEach((d, k) => {
        const key = `${c.id} ${c.classId} ${d.slice(0, 7)}`;
        if (d <= today) model.set(key, (model.get(key) ?? 0) + Math.floor(total / c.dates.length) + (k < total % c.dates.length ? 1 : 0));
      });
    }
    const { rows: lines } = await server.db.query<{ pa: string; classId: string | null; month: string | null; programme: string | null; amount: string }>(
      `select e."documentId" as pa, l."classId", to_char(l."revenueMonth", 'YYYY-MM') as month, p.name as programme, sum(l.credit - l.debit)::text as amount
       from journal_entries e join journal_lines l on l."entryId" = e.id join payment_advices pa on pa.id = e."documentId"
         left join classes k on k.id = l."classId" left join programs p on p.id = k."programId"
       where e.operation = 'revenue_recognised' and l.account = 'revenue_recognised' and pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid')
         and pa."issueDate" between $1::date and $2::date
       group by 1, 2, 3, 4 having sum(l.credit - l.debit) <> 0`,
      [from, to],
    );
    const ledger = new Map(lines.filter((l) => l.classId !== null && !credited.has(l.pa)).map((l) => [`${l.pa} ${l.classId} ${l.month}`, cents(l.amount)]));
    expect(ledger).toEqual(new Map([...model].filter(([, v]) => v !== 0)));
    expect(ledger.size).toBeGreaterThan(50);
    const byRow = new Map<string, number>();
    for (const l of lines) {
      const key = `${l.month} ${l.classId === null ? "Fees (registration, material, other)" : l.programme}`;
      byRow.set(key, (byRow.get(key) ?? 0) + cents(l.amount));
    }
    const revenue = await report("revenue");
    const shown = new Map(revenue.rows.filter((r) => cents(r.recognised) !== 0).map((r) => [`${r.month} ${r.programme}`, cents(r.recognised)]));
    expect(shown).toEqual(new Map([...byRow].filter(([, v]) => v !== 0)));
  });

  it("revenue from the ledger on the demo data: the report's rows are the journal lines' billed, credited and recognised, and the same rows and cents as the revenue model's", async () => {
    type Row = { key: string; billed: string; credited: string; recognised: string; deferred: string };
    const FEES = "Fees (registration, material, other)";
    const byKey = (rows: Row[]) => new Map(rows.map((r) => [r.key, [r.billed, r.credited, r.recognised, r.deferred].map(cents)]).filter(([, v]) => (v as number[]).some((x) => x !== 0)) as Array<[string, number[]]>);
    const shown = byKey((await report("revenue")).rows.map((r) => ({ key: `${r.month} ${r.programme}`, billed: String(r.billed), credited: String(r.credited), recognised: String(r.recognised), deferred: String(r.deferred) })));
    const name = `coalesce(to_char(month, 'YYYY-MM'), 'No lessons') || ' ' || case when fees then '${FEES}' else coalesce(p.name, '--') end`;
    // the model (what the report showed before it read the ledger): billed and credited from the PAs' lines, recognised when held
    const { rows: model } = await readWithoutJit(server.db, (tx) => tx.query<Row>(
      `with ${revenueLinesSql(`pa."issueDate" between $1::date and $2::date`)},
       x as (select date_trunc('month', date) as month, class_id is null as fees, class_id::uuid as class_id, cents, credited, held from revenue_lines)
       select ${name} as key, sum(cents)::text as billed, sum(credited)::text as credited, coalesce(sum(cents - credited) filter (where held), 0)::text as recognised,
         coalesce(sum(cents - credited) filter (where not held), 0)::text as deferred
       from x left join classes c on c.id = x.class_id left join programs p on p.id = c."programId" group by 1`,
      [from, to],
    ));
    const { rows: ledger } = await server.db.query<Row>(
      `with x as (
         select l."revenueMonth" as month, l."classId" is null as fees, l."classId",
           coalesce(sum(l.credit - l.debit) filter (where l."revenueFigure" = 'billed'), 0) as billed, coalesce(sum(l.debit - l.credit) filter (where l."revenueFigure" = 'credited'), 0) as credited,
           coalesce(sum(l.credit - l.debit) filter (where l.account = 'revenue_recognised'), 0) as recognised
         from journal_entries e join journal_lines l on l."entryId" = e.id join payment_advices pa on pa.id = e."documentId"
         where e.operation = 'revenue_recognised' and pa."issueDate" between $1::date and $2::date group by 1, 2, 3)
       select ${name} as key, (sum(billed) * 100)::text as billed, (sum(credited) * 100)::text as credited, (sum(recognised) * 100)::text as recognised,
         (sum(billed - credited - recognised) * 100)::text as deferred
       from x left join classes c on c.id = x."classId" left join programs p on p.id = c."programId" group by 1`,
      [from, to],
    );
    const inCents = (rows: Row[]) => byKey(rows.map((r) => ({ ...r, billed: centsToNumeric(Number(r.billed)), credited: centsToNumeric(Number(r.credited)), recognised: centsToNumeric(Number(r.recognised)), deferred: centsToNumeric(Number(r.deferred)) })));
    expect(shown.size).toBeGreaterThan(10);
    expect(shown).toEqual(inCents(ledger));
    expect(shown).toEqual(inCents(model));
  });

  it("PA listing: balance = total − received on every live PA and in total; voided and withdrawn PAs listed, not summed", async () => {
    const listing = await report("pa-listing");
    const live = listing.rows.filter((r) => r.status !== "Voided" && r.status !== "Withdrawn");
    expect(live.length).toBeLessThan(listing.rows.length);
    for (const r of live) expect(cents(r.balance), String(r.name)).toBe(cents(r.total) - cents(r.received));
    for (const k of ["total", "received", "balance"]) expect(cents(listing.totals![k]), k).toBe(live.reduce((s, r) => s + cents(r[k]), 0));
    expect(cents(listing.totals!.total) - cents(listing.totals!.received)).toBe(cents(listing.totals!.balance));
    expect(live.some((r) => cents(r.balance) < 0)).toBe(true); // the seeded overpaid PAs
  });

  it("deposits: per student held at start + collected − released − used − refunded = held, and held = the deposits the documents hold", async () => {
    const deposits = await report("deposit", `from=${from}&to=${today}`);
    const add = (r: Record<string, unknown>) => cents(r.opening) + cents(r.collected) - cents(r.released) - cents(r.used) - cents(r.refunded);
    for (const r of deposits.rows) expect(add(r), String(r.student)).toBe(cents(r.held));
    expect(add(deposits.totals!)).toBe(cents(deposits.totals!.held));
    const s = Object.fromEntries((deposits.summary ?? []).map((x) => [x.label, cents(x.value)]));
    expect(s.Held).toBe(cents(deposits.totals!.held));
    expect(s.Refunded).toBeGreaterThan(0);
    const { rows } = await server.db.query<{ c: string }>(`select coalesce(sum(amount), 0)::text as c from deposits where status = 'active' and "depositStatus" = 'paid'`);
    expect(s.Held).toBe(cents(rows[0]!.c));
  });

});
