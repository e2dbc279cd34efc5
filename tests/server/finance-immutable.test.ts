/**
 * Immutability for every role (issue 31 §4, FINANCE.md §1): over GraphQL an administrator's token, the admin secret
 * and a finance manager alike cannot set an issued PA back to unpaid, rename its number, change a receipt's amount,
 * insert a payment without a receipt, or insert or delete a log row — each refused with a message, nothing written.
 * A remarks edit goes through and writes a log row naming the caller. The admin secret's run_sql stays the one
 * break-glass door and every call is logged. Numbers that a numeric(12,2) column would round are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { bearer, signIn, startTestServer, userId, type TestServer } from "../support/auth.ts";

const SECRET = "break-glass-secret";
type GqlAnswer = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string; path?: string } }[] };
type Caller = "admin token" | "admin secret" | "finance_manager";
const CALLERS: Caller[] = ["admin token", "admin secret", "finance_manager"];

describe.each(databaseLanes())("finance immutability for every role [%s]", (lane) => {
  let server: TestServer;
  const headers = {} as Record<Caller, Record<string, string>>;
  const createdBy = {} as Record<Caller, string | null>;

  beforeAll(async () => {
    server = await startTestServer(lane, { config: { adminSecret: SECRET } });
    headers["admin token"] = bearer((await signIn(server.app, "admin")).accessToken);
    headers["admin secret"] = { "x-hasura-admin-secret": SECRET };
    headers.finance_manager = bearer((await signIn(server.app, "finance_manager")).accessToken);
    createdBy["admin token"] = await userId(server.db, "admin");
    createdBy["admin secret"] = null; // no user behind the secret
    createdBy.finance_manager = await userId(server.db, "finance_manager");
  });
  afterAll(async () => {
    await server?.close();
  });

  const gql = async (caller: Caller, query: string, variables?: Record<string, unknown>): Promise<GqlAnswer> =>
    (await server.app.inject({ method: "POST", url: "/v1/graphql", headers: headers[caller], payload: { query, variables } })).json() as GqlAnswer;
  const one = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await server.db.query<T>(sql, params)).rows[0]!;

  /** Everything a refused write could have touched. */
  const finances = () =>
    one<Record<string, string>>(
      `select (select md5(string_agg(p.id || p.name || p."paymentStatus" || coalesce(p.remarks, ''), ',' order by p.id)) from payment_advices p) as pas,
              (select md5(string_agg(r.id || r.amount::text || r.status, ',' order by r.id)) from receipts r) as receipts,
              (select count(*)::text from invoice_payments) as payments,
              (select count(*)::text from payment_advice_logs) as logs`,
    );
  const paidPa = () => one<{ id: string; name: string }>(`select id, name from payment_advices where name is not null and "paymentStatus" = 'paid' order by id limit 1`);
  const refused = (res: GqlAnswer, message: RegExp) => {
    expect(res.data ?? undefined, JSON.stringify(res)).toBeUndefined();
    expect(res.errors?.[0]?.message, JSON.stringify(res)).toMatch(message);
  };

  describe.each(CALLERS)("%s", (caller) => {
    // The finance manager's role has no such mutation (or column) over GraphQL at all; admin reaches the database's guard.
    const guard = (message: RegExp) => (caller === "finance_manager" ? /not found in type|permission|Only remarks|written by the finance service|cannot be changed/ : message);

    it("cannot set a paid PA back to unpaid or rename its number; nothing is written", async () => {
      const pa = await paidPa();
      const before = await finances();
      refused(await gql(caller, `mutation($id: uuid!) { update_payment_advices_by_pk(pk_columns: {id: $id}, _set: {paymentStatus: "unpaid"}) { id } }`, { id: pa.id }), guard(/Only remarks and notes .*\(not paymentStatus\)/));
      refused(await gql(caller, `mutation($id: uuid!) { update_payment_advices_by_pk(pk_columns: {id: $id}, _set: {name: "PA-FORGED-2026-00001"}) { id } }`, { id: pa.id }), guard(/Only remarks and notes .*\(not name\)/));
      expect(await finances()).toEqual(before);
      expect(await one(`select name, "paymentStatus" from payment_advices where id = $1`, [pa.id])).toEqual({ name: pa.name, paymentStatus: "paid" });
    });

    it("cannot change a receipt's amount", async () => {
      const receipt = await one<{ id: string; amount: string }>(`select id, amount::text from receipts where amount > 0 order by id limit 1`);
      const before = await finances();
      refused(await gql(caller, `mutation($id: uuid!) { update_receipts_by_pk(pk_columns: {id: $id}, _set: {amount: "1.00"}) { id } }`, { id: receipt.id }), guard(/Only remarks and notes .*\(not amount\)/));
      refused(await gql(caller, `mutation($id: uuid!) { update_receipts(where: {id: {_eq: $id}}, _inc: {amount: "100"}) { affected_rows } }`, { id: receipt.id }), guard(/Only remarks and notes .*\(not amount\)/));
      expect(await finances()).toEqual(before);
    });

    it("cannot insert a payment without a receipt", async () => {
      const invoice = await one<{ id: string }>(`select id from invoices where "invoiceStatus" <> 'voided' order by id limit 1`);
      const before = await finances();
      refused(
        await gql(caller, `mutation($i: uuid!) { insert_invoice_payments_one(object: {invoiceId: $i, amount: "500.00", paymentMethod: "cash"}) { id } }`, { i: invoice.id }),
        guard(/created and removed only through the finance screens/),
      );
      expect(await finances()).toEqual(before);
    });

    it("cannot insert or delete a log row", async () => {
      const pa = await paidPa();
      const before = await finances();
      refused(
        await gql(caller, `mutation($p: uuid!) { insert_payment_advice_logs_one(object: {paymentAdviceId: $p, type: "update", valueAfter: {paymentAdvice: {paymentStatus: "unpaid"}}}) { id } }`, { p: pa.id }),
        guard(/Finance logs and ledger entries are written by the finance service only/),
      );
      refused(await gql(caller, `mutation($p: uuid!) { delete_payment_advice_logs(where: {paymentAdviceId: {_eq: $p}}) { affected_rows } }`, { p: pa.id }), guard(/Finance logs and ledger entries cannot be changed or deleted/));
      expect(await finances()).toEqual(before);
    });

    it("edits a PA's remarks and a log row records it, with the caller", async () => {
      const pa = await paidPa();
      const remarks = `Parent called (${caller})`;
      const old = await one<{ remarks: string | null }>(`select remarks from payment_advices where id = $1`, [pa.id]);
      const res = await gql(caller, `mutation($id: uuid!, $r: String) { update_payment_advices_by_pk(pk_columns: {id: $id}, _set: {remarks: $r}) { remarks paymentStatus name } }`, { id: pa.id, r: remarks });
      expect(res).toEqual({ data: { update_payment_advices_by_pk: { remarks, paymentStatus: "paid", name: pa.name } } });
      const log = await one<{ type: string; valueBefore: unknown; valueAfter: unknown; createdBy: string | null }>(
        `select type, "valueBefore", "valueAfter", "createdBy" from payment_advice_logs where "paymentAdviceId" = $1 order by "createdAt" desc, id desc limit 1`,
        [pa.id],
      );
      expect(log).toEqual({ type: "update", valueBefore: { paymentAdvice: { remarks: old.remarks } }, valueAfter: { paymentAdvice: { remarks } }, createdBy: createdBy[caller] });
    });
  });

  it("a credit note's remarks edit is logged in the credit note's log; an edit that changes nothing logs nothing", async () => {
    const cn = await one<{ id: string; remarks: string | null }>(`select id, remarks from credit_notes order by id limit 1`);
    const count = async () => (await one<{ n: number }>(`select count(*)::int as n from credit_note_logs where "creditNoteId" = $1`, [cn.id])).n;
    const before = await count();
    const set = (r: string) => gql("finance_manager", `mutation($id: uuid!, $r: String) { update_credit_notes_by_pk(pk_columns: {id: $id}, _set: {remarks: $r}) { remarks } }`, { id: cn.id, r });
    expect((await set("Checked with the parent")).errors).toBeUndefined();
    expect(await count()).toBe(before + 1);
    expect((await set("Checked with the parent")).errors).toBeUndefined();
    expect(await count()).toBe(before + 1);
    const log = await one<{ valueAfter: unknown; createdBy: string }>(`select "valueAfter", "createdBy" from credit_note_logs where "creditNoteId" = $1 order by "createdAt" desc, id desc limit 1`, [cn.id]);
    expect(log).toEqual({ valueAfter: { remarks: "Checked with the parent" }, createdBy: createdBy.finance_manager });
  });

  it("an invoice's notes edit (it has no log of its own) is logged in its PA's log", async () => {
    const inv = await one<{ id: string; name: string; notes: string | null; paymentAdviceId: string }>(`select id, name, notes, "paymentAdviceId" from invoices where "paymentAdviceId" is not null order by id limit 1`);
    const res = await gql("finance_manager", `mutation($id: uuid!) { update_invoices_by_pk(pk_columns: {id: $id}, _set: {notes: "Paid by the grandparents"}) { notes } }`, { id: inv.id });
    expect(res).toEqual({ data: { update_invoices_by_pk: { notes: "Paid by the grandparents" } } });
    const log = await one(`select type, "valueBefore", "valueAfter", "createdBy" from payment_advice_logs where "paymentAdviceId" = $1 order by "createdAt" desc, id desc limit 1`, [inv.paymentAdviceId]);
    expect(log).toEqual({
      type: "update",
      valueBefore: { invoice: { name: inv.name, notes: inv.notes } },
      valueAfter: { invoice: { name: inv.name, notes: "Paid by the grandparents" } },
      createdBy: createdBy.finance_manager,
    });
  });

  it("the admin secret's v1 insert meets the same guard", async () => {
    const invoice = await one<{ id: string }>(`select id from invoices order by id limit 1`);
    const before = await finances();
    const res = await server.app.inject({
      method: "POST",
      url: "/v1/query",
      headers: headers["admin secret"],
      payload: { type: "insert", args: { table: "invoice_payments", objects: [{ invoiceId: invoice.id, amount: "500.00" }] } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/created and removed only through the finance screens/);
    expect(await finances()).toEqual(before);
  });

  describe("run_sql: the break-glass door, logged", () => {
    const runSql = (sql: string, extra: Record<string, string> = {}) =>
      server.app.inject({ method: "POST", url: "/v2/query", headers: { ...headers["admin secret"], "user-agent": "ops-console/1.0", "x-forwarded-for": "203.0.113.7", ...extra }, payload: { type: "run_sql", args: { sql } } });
    const lastLogged = () => one<{ sql: string; sqlLength: number; clientIp: string; userAgent: string; recent: boolean }>(
      `select "sql", "sqlLength", "clientIp", "userAgent", "at" > now() - interval '1 hour' as recent from app_internal.run_sql_log order by id desc limit 1`,
    );

    it("still changes a receipt (the documented exception) and records the SQL, time, address and client", async () => {
      const receipt = await one<{ id: string; amount: string }>(`select id, amount::text from receipts order by id limit 1`);
      const sql = `update receipts set amount = amount where id = '${receipt.id}'`;
      const res = await runSql(sql);
      expect(res.statusCode, res.body).toBe(200);
      expect(await lastLogged()).toEqual({ sql, sqlLength: sql.length, clientIp: "203.0.113.7", userAgent: "ops-console/1.0", recent: true });
    });

    it("records a call that fails too, and keeps at most 20,000 characters of a long one", async () => {
      const failing = "select * from no_such_table";
      expect((await runSql(failing)).statusCode).toBe(400);
      expect((await lastLogged()).sql).toBe(failing);
      const long = `select 1 ${"-- padding\n".repeat(3_000)}`;
      expect((await runSql(long)).statusCode).toBe(200);
      const logged = await lastLogged();
      expect(logged.sql.length).toBe(20_000);
      expect(logged.sqlLength).toBe(long.length);
    });

    it("its log cannot be rewritten over run_sql without the rewrite being logged first", async () => {
      const res = await runSql(`delete from app_internal.run_sql_log`);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain("The run_sql log is append-only.");
      expect((await lastLogged()).sql).toBe(`delete from app_internal.run_sql_log`);
    });
  });

  describe("numbers a numeric(12,2) column would round are refused, never rounded", () => {
    const pricing = () => one<{ id: string; pricePerLesson: string }>(`select id, "pricePerLesson"::text as "pricePerLesson" from academic_program_type_pricings where status <> 'deleted' order by id limit 1`);

    it.each(["admin token", "finance_manager"] as const)("pricePerLesson 12.345 is refused with a message and nothing is written; 12.34 is saved (%s)", async (caller) => {
      const row = await pricing();
      const set = (v: unknown) => gql(caller, `mutation($id: uuid!, $v: numeric) { update_academic_program_type_pricings_by_pk(pk_columns: {id: $id}, _set: {pricePerLesson: $v}) { pricePerLesson } }`, { id: row.id, v });
      for (const v of [12.345, "12.345", "1.2345e1"]) {
        const res = await set(v);
        refused(res, /pricePerLesson of academic_program_type_pricings takes at most 2 decimal places; .* has 3\. Nothing was saved/);
        expect(res.errors?.[0]?.extensions?.code).toBe("validation-failed");
      }
      const literal = await gql(caller, `mutation($id: uuid!) { update_academic_program_type_pricings_by_pk(pk_columns: {id: $id}, _set: {pricePerLesson: 12.345}) { pricePerLesson } }`, { id: row.id });
      refused(literal, /takes at most 2 decimal places/);
      refused(await set("123456789012.00"), /takes at most 10 digits before the decimal point; 123456789012.00 has 12/);
      expect((await pricing()).pricePerLesson).toBe(row.pricePerLesson);
      expect((await set("12.340")).errors).toBeUndefined();
      expect((await pricing()).pricePerLesson).toBe("12.34");
    });

    it("a discount amount: insert and _inc with 12.345 are refused, nothing is written; 12.34 is inserted as is", async () => {
      const company = await one<{ id: string }>(`select id from companies order by id limit 1`);
      const count = async () => (await one<{ n: number }>(`select count(*)::int as n from discounts where name = 'Scale check'`)).n;
      const insert = (amount: unknown) =>
        gql("finance_manager", `mutation($c: uuid!, $a: numeric) { insert_discounts_one(object: {name: "Scale check", amount: $a, unit: "amount", companyId: $c}) { id amount } }`, { c: company.id, a: amount });
      refused(await insert(12.345), /amount of discounts takes at most 2 decimal places; 12.345 has 3/);
      expect(await count()).toBe(0);
      const ok = await insert(12.34);
      expect(ok.errors, JSON.stringify(ok)).toBeUndefined();
      const id = (ok.data!.insert_discounts_one as { id: string }).id;
      refused(await gql("admin token", `mutation($id: uuid!) { update_discounts(where: {id: {_eq: $id}}, _inc: {amount: 0.005}) { affected_rows } }`, { id }), /takes at most 2 decimal places; 0.005 has 3/);
      expect(await one(`select amount::text from discounts where id = $1`, [id])).toEqual({ amount: "12.34" });
    });
  });
});
