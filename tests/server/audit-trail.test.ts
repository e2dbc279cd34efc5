/**
 * The audit trail (issue 36): every business table carries the audit trigger (but a named, reasoned set); changes
 * through GraphQL, REST and the finance service show who made them, with the request id and only the changed
 * columns before → after; secrets never enter it; it is append-only for everyone, admin included; a record's
 * History shows a reader only the columns their role reads.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, signInRaw, startTestServer, userId, type TestServer } from "../support/auth.ts";
import { purgeAuditLog } from "../../server/audit/retention.ts";
import { migrate } from "../../server/db/index.ts";
import { issuedPa, pickClasses, studentsOf } from "../support/finance.ts";

const SECRET = "audit-secret";

/** Public tables without the audit trigger, and why (docs/DECISIONS.md "Audit trail"). */
const NOT_AUDITED = [
  // logs: a trail already
  "backup_attendance_logs", "broadcast_logs", "credit_note_logs", "email_student_logs", "news_logs", "payment_advice_logs", "refund_logs",
  // the policy: policy_changes logs every save (who, when, the whole policy before → after), casbin_rule is rewritten by it
  "policy_changes", "casbin_rule",
  // secrets and sessions
  "password_reset_codes", "refresh_tokens", "signing_keys", "user_credentials",
  // the mail queue (sign-in codes, message bodies), the ledger (append-only), the document counters
  "outbox", "journal_entries", "journal_lines", "document_counters",
].sort();

interface AuditRow {
  op: string;
  userId: string | null;
  role: string | null;
  requestId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

describe.each(databaseLanes())("audit trail [%s]", (lane) => {
  let server: TestServer;
  let adminToken: string;
  let adminId: string;
  let financeToken: string;
  let financeId: string;

  beforeAll(async () => {
    server = await startTestServer(lane, { config: { adminSecret: SECRET } });
    adminToken = (await signIn(server.app, "admin")).accessToken;
    adminId = await userId(server.db, "admin");
    financeToken = (await signIn(server.app, "finance_manager")).accessToken;
    financeId = await userId(server.db, "finance_manager");
  });
  afterAll(async () => {
    await server?.close();
  });

  const trail = async (table: string, rowId: string) =>
    (await server.db.query<AuditRow>(`select op, "userId", role, "requestId", before, after from app_internal.audit_log where "tableName" = $1 and "rowId" = $2 order by id`, [table, rowId])).rows;
  const gql = async (headers: Record<string, string>, query: string, variables?: Record<string, unknown>) =>
    (await server.app.inject({ method: "POST", url: "/v1/graphql", headers, payload: { query, variables } })).json() as { data?: Record<string, unknown>; errors?: { message: string }[] };
  const aStudent = async () => (await server.db.query<{ id: string; address: string | null }>(`select id, address from users where type = 'student' and status = 'active' order by username limit 1`)).rows[0]!;

  it("every public table carries the audit trigger but the named set", async () => {
    const { rows } = await server.db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p')
         and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'audit_row' and not t.tgisinternal)
       order by 1`,
    );
    expect(rows.map((r) => r.name)).toEqual(NOT_AUDITED);
  });

  it("a GraphQL change shows who made it, the request, and only the changed column before → after", async () => {
    const student = await aStudent();
    const res = await gql(bearer(adminToken), `mutation($id: uuid!) { update_users_by_pk(pk_columns: {id: $id}, _set: {address: "Blk 1 Audit Road"}) { id } }`, { id: student.id });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const last = (await trail("users", student.id)).at(-1)!;
    expect(last).toMatchObject({ op: "update", userId: adminId, role: "admin", before: { address: student.address }, after: { address: "Blk 1 Audit Road" } });
    expect(last.requestId).toBeTruthy();
  });

  it("a REST change shows who made it", async () => {
    const company = (await server.db.query<Record<string, unknown>>(
      `select id, name, "shortName", uen, address, "telNo", "hasGstNo", "gstRefNo", "colorCode", "paNotes", "logoUrl" from companies where status = 'active' order by name limit 1`,
    )).rows[0]!;
    const { id: _id, ...body } = company;
    const res = await api(server.app, "PUT", `/companies/${company.id}`, financeToken, { ...body, address: "1 Audit Road, Singapore" });
    expect(res.statusCode, res.body).toBe(200);
    const last = (await trail("companies", company.id as string)).at(-1)!;
    expect(last).toMatchObject({ op: "update", userId: financeId, after: { address: "1 Audit Road, Singapore" } });
    expect(last.role).toContain("finance_manager");
    expect(last.requestId).toBeTruthy();
  });

  it("the finance service's changes (a PA issued) show who made them", async () => {
    const [c] = await pickClasses(server);
    const [studentId] = await studentsOf(server, c.companyId, 1);
    const pa = await issuedPa(server, financeToken, c, studentId);
    const rows = await trail("payment_advices", pa.id);
    expect(rows[0]).toMatchObject({ op: "insert", userId: financeId });
    expect(rows.find((r) => r.op === "update" && r.after?.name === pa.name)).toMatchObject({ userId: financeId });
  });

  it("password hashes, tokens and secrets never enter the trail", async () => {
    const me = await api(server.app, "PATCH", "/users/change-password", adminToken, { oldPassword: "Demo@12345", newPassword: "Audit@12345", confirmPassword: "Audit@12345" });
    expect([200, 201, 400, 404]).toContain(me.statusCode);
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from app_internal.audit_log where "before"::text ~* '(passwordHash|tokenHash|codeHash|argon2)' or "after"::text ~* '(passwordHash|tokenHash|codeHash|argon2)'`,
    );
    expect(rows[0].n).toBe(0);
    const redacted = await server.db.query<{ r: Record<string, unknown> }>(`select app_internal.audit_redact('{"name":"a","passwordHash":"x","refreshToken":"y","clientSecret":"z"}') as r`);
    expect(redacted.rows[0].r).toEqual({ name: "a" });
  });

  it("is append-only for everyone: the admin secret's run_sql and the server's own connection alike", async () => {
    const before = (await server.db.query<{ n: number }>(`select count(*)::int as n from app_internal.audit_log`)).rows[0].n;
    expect(before).toBeGreaterThan(0);
    for (const sql of [`update app_internal.audit_log set "userId" = null`, `delete from app_internal.audit_log`, `truncate app_internal.audit_log`,
      `insert into app_internal.audit_log (op, "tableName", "rowId") values ('update', 'users', 'forged')`]) {
      const res = await server.app.inject({ method: "POST", url: "/v2/query", headers: { "x-hasura-admin-secret": SECRET }, payload: { type: "run_sql", args: { sql } } });
      expect(res.statusCode, sql).toBeGreaterThanOrEqual(400);
      expect(res.body).toMatch(/append-only/);
      await expect(server.db.query(sql)).rejects.toThrow(/append-only/);
    }
    expect((await server.db.query<{ n: number }>(`select count(*)::int as n from app_internal.audit_log`)).rows[0].n).toBe(before);
    // and no GraphQL role reaches it
    const res = await gql(bearer(adminToken), `{ audit_log { id } }`);
    expect(res.errors?.[0]?.message).toMatch(/not found/);
  });

  it("a record's History shows its reader only the columns their role reads, newest first, with the user's name", async () => {
    const student = await aStudent();
    await gql(bearer(adminToken), `mutation($id: uuid!) { update_users_by_pk(pk_columns: {id: $id}, _set: {address: "Blk 2 Audit Road"}) { id } }`, { id: student.id });
    const asAdmin = await api(server.app, "GET", `/history/users/${student.id}?page=1&pageSize=5`, adminToken);
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    const first = asAdmin.json().data.items[0];
    expect(first).toMatchObject({ op: "update", userId: adminId, changes: [{ column: "address", before: "Blk 1 Audit Road", after: "Blk 2 Audit Road" }] });
    expect(first.userName).toBeTruthy();
    // an attendance checker reads students but not their address: the address changes are not theirs to see
    const checker = (await signIn(server.app, "attendance_checker")).accessToken;
    const asChecker = await api(server.app, "GET", `/history/users/${student.id}?pageSize=100`, checker);
    expect(asChecker.statusCode, asChecker.body).toBe(200);
    const seen = (asChecker.json().data.items as { changes: { column: string }[] }[]).flatMap((e) => e.changes.map((c) => c.column));
    expect(seen).not.toContain("address");
    // a table the role cannot read, or a record that is not there: not found
    expect((await api(server.app, "GET", `/history/refresh_tokens/${student.id}`, checker)).statusCode).toBe(404);
    expect((await api(server.app, "GET", `/history/users/00000000-0000-0000-0000-000000000000`, adminToken)).statusCode).toBe(404);
    // the audit log is for admins
    expect((await api(server.app, "GET", `/audit-log?table=users&record=${student.id}`, financeToken)).statusCode).toBe(403);
    const log = await api(server.app, "GET", `/audit-log?table=users&record=${student.id}&userId=${adminId}`, adminToken);
    expect(log.json().data.total).toBeGreaterThanOrEqual(2);
    // the table filter offers the audited tables, to admins only
    expect((await api(server.app, "GET", "/audit-log/tables", financeToken)).statusCode).toBe(403);
    const tables = (await api(server.app, "GET", "/audit-log/tables", adminToken)).json().data as string[];
    expect(tables).toContain("users");
    expect(tables).not.toContain("refresh_tokens");
  });

  it("the audit log's CSV export (the server writes it) shows every enum value in words, as the screens do", async () => {
    const id = (await server.db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' order by username desc limit 1`)).rows[0]!.id;
    const setStatus = (status: string) => gql(bearer(adminToken), `mutation($id: uuid!, $s: String!) { update_users_by_pk(pk_columns: {id: $id}, _set: {status: $s}) { id } }`, { id, s: status });
    expect((await setStatus("inactive")).errors).toBeUndefined();
    expect((await setStatus("active")).errors).toBeUndefined();
    const csv = await api(server.app, "GET", `/audit-log?table=users&record=${id}&pageSize=10000&format=csv`, adminToken);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("Time,User,Role,Table,Record,Action,Changes,Request");
    expect(lines.filter((l) => l.includes("Status: "))).toEqual([expect.stringContaining("Status: Inactive → Active"), expect.stringContaining("Status: Active → Inactive")]);
    expect(lines[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2},.*,Admin,Users,/);
    expect((await api(server.app, "GET", `/audit-log?table=users&record=${id}&format=csv`, financeToken)).statusCode).toBe(403);
  });

  it("a deleted record's History tells a reader of its table who deleted it and when; its fields are for admins", async () => {
    const made = await gql(bearer(adminToken), `mutation { insert_banks_one(object: {name: "Audit Gone Bank"}) { id } }`);
    const id = (made.data?.insert_banks_one as { id: string }).id;
    expect((await gql(bearer(adminToken), `mutation($id: uuid!) { delete_banks_by_pk(id: $id) { id } }`, { id })).errors).toBeUndefined();
    const asFinance = await api(server.app, "GET", `/history/banks/${id}`, financeToken);
    expect(asFinance.statusCode, asFinance.body).toBe(200);
    const seen = asFinance.json().data as { deletion: { at: string; userName: string }; items: { op: string; userId: string; changes: unknown[] }[] };
    expect(seen.deletion.userName).toBe((await server.db.query<{ n: string }>(`select concat_ws(' ', "firstName", "lastName") as n from users where id = $1`, [adminId])).rows[0]!.n);
    expect(seen.items.map((e) => [e.op, e.userId, e.changes.length])).toEqual([["delete", adminId, 0], ["insert", adminId, 0]]);
    const asAdmin = (await api(server.app, "GET", `/history/banks/${id}`, adminToken)).json().data as { items: { changes: { column: string; before: unknown }[] }[] };
    expect(asAdmin.items[0]!.changes).toContainEqual(expect.objectContaining({ column: "name", before: "Audit Gone Bank" }));
  });

  it("failed sign-ins and the sign-in that clears them leave no entry in the user's history", async () => {
    const id = await userId(server.db, "ops_manager");
    const entries = async () => (await trail("users", id)).length;
    const before = await entries();
    expect((await signInRaw(server.app, "ops_manager", "Wrong@12345")).statusCode).toBe(401);
    expect((await server.db.query<{ n: number }>(`select "numOfFailed" as n from users where id = $1`, [id])).rows[0]!.n).toBe(1);
    expect((await signInRaw(server.app, "ops_manager")).statusCode).toBe(200);
    expect(await entries()).toBe(before);
  });

  it("the retention purge keeps the entries newer than its cut-off and logs itself", async () => {
    const student = await aStudent();
    const setAddress = (address: string) => gql(bearer(adminToken), `mutation($id: uuid!, $a: String) { update_users_by_pk(pk_columns: {id: $id}, _set: {address: $a}) { id } }`, { id: student.id, a: address });
    await setAddress("Blk 3 Audit Road");
    const cutOff = (await server.db.query<{ t: string }>(`select clock_timestamp()::text as t`)).rows[0]!.t;
    await setAddress("Blk 4 Audit Road");
    const older = (await server.db.query<{ n: number }>(`select count(*)::int as n from app_internal.audit_log where "at" < $1::timestamptz`, [cutOff])).rows[0]!.n;
    expect(older).toBeGreaterThan(0);
    expect(await purgeAuditLog(server.db, cutOff)).toBe(older);
    const addresses = (await trail("users", student.id)).map((r) => r.after?.address);
    expect(addresses).toEqual(["Blk 4 Audit Road"]);
    const purge = (await server.db.query<{ op: string; after: { purged: number } }>(`select op, "after" from app_internal.audit_log order by id desc limit 1`)).rows[0]!;
    expect(purge).toMatchObject({ op: "purge", after: { purged: older } });
    // still append-only outside the purge
    await expect(server.db.query(`delete from app_internal.audit_log`)).rejects.toThrow(/append-only/);
  });

  it("each audited table's trigger runs a function compiled from its columns, and a column a later migration adds is audited", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "audit-migration-"));
    try {
      mkdirSync(path.join(dir, "9999999999999_audit_probe"));
      writeFileSync(path.join(dir, "9999999999999_audit_probe", "up.sql"), `alter table banks add column "auditProbe" text`);
      await migrate(server.db, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const stale = await server.db.query<{ name: string }>(
      `select c.relname as name from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
       where g.tgname = 'audit_row' and p.prosrc is distinct from app_internal.audit_source(c.relname)`,
    );
    expect(stale.rows.map((r) => r.name)).toEqual([]);
    const bank = (await server.db.query<{ id: string }>(`select id from banks order by name limit 1`)).rows[0]!;
    await server.db.transaction(async (tx) => {
      await tx.query(`select set_config('app.user_id', $1, true), set_config('app.role', 'admin', true)`, [adminId]);
      await tx.query(`update banks set "auditProbe" = 'probe' where id = $1`, [bank.id]);
    });
    expect((await trail("banks", bank.id)).at(-1)).toMatchObject({ op: "update", userId: adminId, before: { auditProbe: null }, after: { auditProbe: "probe" } });
  });
});
