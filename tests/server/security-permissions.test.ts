/**
 * Issue 10, items 1, 2, 3 and 6: the escalations and data leaks a probe with staff accounts found, each
 * reproduced and refused. Per-rule permissions (each policy line its own filter, check and columns), the
 * database's role guard (REST and GraphQL alike), the finance guard, and who reads which users.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, userId, type TestServer } from "../support/auth.ts";
import { testConfig } from "./graphql-helpers.ts";
import { createEngine } from "../../server/graphql/engine.ts";
import { generateHasuraPermissions } from "../../server/auth/policy/hasura.ts";
import { parsePolicy } from "../../server/auth/policy/rules.ts";
import { recordCaller } from "../../server/auth/caller.ts";
import type { Session } from "../../server/auth/types.ts";

type GqlAnswer = { data?: Record<string, unknown>; errors?: { message: string }[] };

async function gql(app: FastifyInstance, token: string, query: string, variables?: Record<string, unknown>): Promise<GqlAnswer> {
  const res = await app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query, variables } });
  return res.json() as GqlAnswer;
}

describe.each(databaseLanes())("issue 10: permissions per rule, role and finance guards, users per role [%s]", (lane) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const rolesOf = async (username: string) => {
    const { rows } = await server.db.query<{ role: string; multipleRoles: string[]; type: string }>(`select role, "multipleRoles", type from users where username = $1`, [username]);
    return rows[0];
  };
  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["admin", "hr", "attendance_checker", "front_desk", "fulltime_tutor", "parttime_tutor", "sales", "finance_staff"]) {
      tokens[role] = (await signIn(server.app, role)).accessToken;
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("1. each policy line keeps its own filter, check and columns", () => {
    it("hr cannot make a staff member admin by turning the row into a student row (the probe's mutation)", async () => {
      const before = await rolesOf("sales");
      const res = await gql(server.app, tokens.hr, `mutation { update_users(where: {username: {_eq: "sales"}}, _set: {type: "student", role: "admin", multipleRoles: ["admin"]}) { affected_rows } }`);
      expect(res.errors?.length, JSON.stringify(res)).toBeGreaterThan(0);
      expect(await rolesOf("sales")).toEqual(before);
      const signedIn = await signIn(server.app, "sales");
      const claims = JSON.parse(Buffer.from(signedIn.accessToken.split(".")[1]!, "base64url").toString("utf8"));
      expect(claims["https://hasura.io/jwt/claims"]["x-hasura-allowed-roles"]).not.toContain("admin");
    });

    it("a row admitted by one rule must meet that rule's check, not another's (two rules, every column)", async () => {
      // The shape of hr's two users rules before issue 10: staff rows and student rows, every column.
      const rules = parsePolicy([
        "p, hr, data:users, select",
        'p, hr, data:users, update, {"type":{"_neq":"student"}}',
        'p, hr, data:users, update, {"type":{"_eq":"student"}}',
      ].join("\n"));
      const engine = await createEngine({ db: server.db, config: testConfig() });
      try {
        engine.setGeneratedPermissions(generateHasuraPermissions(rules, ["hr"]));
        const hr: Session = { roles: ["hr"], isAdmin: false, userId: await userId(server.db, "hr"), variables: { "x-hasura-user-id": await userId(server.db, "hr"), "x-hasura-role": "hr" } };
        // A student row made staff (a staff row's identity is the database's guard's since issue 32, before any check).
        const student = (await server.db.query<{ username: string }>(`select username from users where type = 'student' and status = 'active' order by username limit 1`)).rows[0]!.username;
        const moved = (await engine.execute({ query: `mutation { update_users(where: {username: {_eq: "${student}"}}, _set: {type: "admin"}) { affected_rows } }` }, hr)).body as GqlAnswer;
        expect(moved.errors?.[0]?.message).toMatch(/check constraint of an insert\/update permission has failed/);
        expect((await rolesOf(student)).type).toBe("student");
        // Within one rule the write goes through.
        const renamed = (await engine.execute({ query: `mutation { update_users(where: {username: {_eq: "sales"}}, _set: {firstName: "Sally"}) { affected_rows } }` }, hr)).body as GqlAnswer;
        expect(renamed).toEqual({ data: { update_users: { affected_rows: 1 } } });
      } finally {
        await engine.close();
      }
    });

    it("columns are limited per line: a student's roles are not among the columns front desk may write", async () => {
      const res = await gql(server.app, tokens.front_desk, `mutation { update_users(where: {type: {_eq: "student"}}, _set: {role: "hr"}) { affected_rows } }`);
      expect(res.errors?.[0]?.message).toMatch(/role/);
      const { rows } = await server.db.query<{ n: number }>(`select count(*)::int as n from users where type = 'student' and role = 'hr'`);
      expect(rows[0]!.n).toBe(0);
    });
  });

  describe("2. roles change only by hr and admin, never on one's own account; only admin grants admin", () => {
    it("attendance_checker cannot grant itself hr through PUT /api/v2/users/{id}", async () => {
      const me = await userId(server.db, "attendance_checker");
      const res = await api(server.app, "PUT", `/users/${me}`, tokens.attendance_checker, { multipleRoles: ["attendance_checker", "hr"] });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("Only HR and administrators can change roles.");
      expect((await rolesOf("attendance_checker")).multipleRoles).not.toContain("hr");
      // …nor grant it to someone else
      const other = await api(server.app, "PUT", `/users/${await userId(server.db, "sales")}`, tokens.attendance_checker, { role: "hr" });
      expect(other.statusCode).toBe(403);
      expect((await rolesOf("sales")).role).not.toBe("hr");
    });

    it("attendance_checker cannot grant itself hr through GraphQL", async () => {
      const me = await userId(server.db, "attendance_checker");
      const res = await gql(server.app, tokens.attendance_checker, `mutation($id: uuid!) { update_users_by_pk(pk_columns: {id: $id}, _set: {role: "hr", multipleRoles: ["hr"]}) { id } }`, { id: me });
      expect(res.errors?.length).toBeGreaterThan(0);
      expect(await rolesOf("attendance_checker")).toMatchObject({ role: "attendance_checker" });
    });

    it("hr changes no staff member's roles since issue 32 §1 (an admin does), and not its own (REST and GraphQL)", async () => {
      const intern = await userId(server.db, "intern");
      const byHr = await api(server.app, "PUT", `/users/${intern}`, tokens.hr, { multipleRoles: ["intern", "sales"] });
      expect(byHr.statusCode, byHr.body).toBe(403);
      const ok = await api(server.app, "PUT", `/users/${intern}`, tokens.admin, { multipleRoles: ["intern", "sales"] });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await rolesOf("intern")).multipleRoles).toEqual(["intern", "sales"]);

      const me = await userId(server.db, "hr");
      const rest = await api(server.app, "PUT", `/users/${me}`, tokens.hr, { multipleRoles: ["hr", "finance_manager"] });
      expect(rest.statusCode).toBe(403);
      expect(rest.json().message).toBe("You cannot change the roles of your own account.");
      const graph = await gql(server.app, tokens.hr, `mutation($id: uuid!) { update_users_by_pk(pk_columns: {id: $id}, _set: {multipleRoles: ["hr", "finance_manager"]}) { id } }`, { id: me });
      expect(graph.errors?.[0]?.message).toBe("You cannot change the roles of your own account.");
      expect((await rolesOf("hr")).multipleRoles).not.toContain("finance_manager");
    });

    it("the guard is in the database: any writer that records an hr caller (as Hasura does) cannot grant admin", async () => {
      const hr = await userId(server.db, "hr");
      const sales = await userId(server.db, "sales");
      const attempt = server.db.transaction(async (tx) => {
        await recordCaller(tx, { "x-hasura-user-id": hr, "x-hasura-role": "hr" }, false);
        await tx.query(`update users set "multipleRoles" = '["admin"]', role = 'admin' where id = $1`, [sales]);
      });
      await expect(attempt).rejects.toThrow("Only an administrator can grant or change the admin role.");
      const admin = await gql(server.app, tokens.admin, `mutation($id: uuid!) { update_users_by_pk(pk_columns: {id: $id}, _set: {multipleRoles: ["sales", "admin"]}) { id } }`, { id: sales });
      expect(admin.errors).toBeUndefined();
      expect((await rolesOf("sales")).multipleRoles).toContain("admin");
      await server.db.query(`update users set "multipleRoles" = '["sales"]', role = 'sales' where id = $1`, [sales]);
    });
  });

  describe("3. finance documents change only through the finance service", () => {
    it("front desk cannot mark payment advices paid, zero invoice totals, or touch the logs over GraphQL", async () => {
      const { rows: before } = await server.db.query<{ paid: number; zero: number; logs: string }>(
        `select (select count(*)::int from payment_advices where "paymentStatus" = 'paid') as paid,
                (select count(*)::int from invoices where total = 0) as zero,
                (select md5(string_agg(l::text, ',' order by id)) from payment_advice_logs l) as logs`,
      );
      for (const mutation of [
        `update_payment_advices(where: {}, _set: {paymentStatus: "paid"}) { affected_rows }`,
        `update_invoices(where: {}, _set: {total: 0}) { affected_rows }`,
        `update_payment_advice_logs(where: {}, _set: {type: "update"}) { affected_rows }`,
        `delete_payment_advice_logs(where: {}) { affected_rows }`,
        `insert_payment_advices(objects: [{name: "forged"}]) { affected_rows }`,
      ]) {
        const res = await gql(server.app, tokens.front_desk, `mutation { ${mutation} }`);
        expect(res.errors?.length, mutation).toBeGreaterThan(0);
      }
      const { rows: after } = await server.db.query(
        `select (select count(*)::int from payment_advices where "paymentStatus" = 'paid') as paid,
                (select count(*)::int from invoices where total = 0) as zero,
                (select md5(string_agg(l::text, ',' order by id)) from payment_advice_logs l) as logs`,
      );
      expect(after).toEqual(before);
    });

    it("front desk still writes the remarks of a payment advice", async () => {
      const { rows } = await server.db.query<{ id: string }>(`select id from payment_advices order by id limit 1`);
      const res = await gql(server.app, tokens.front_desk, `mutation($id: uuid!) { update_payment_advices_by_pk(pk_columns: {id: $id}, _set: {remarks: "Called the parent"}) { remarks } }`, { id: rows[0]!.id });
      expect(res).toEqual({ data: { update_payment_advices_by_pk: { remarks: "Called the parent" } } });
    });

    it("the database refuses non-service writers whatever the policy says; the finance service passes, admin does not; logs stay append-only", async () => {
      const frontDesk = await userId(server.db, "front_desk");
      const { rows } = await server.db.query<{ id: string }>(`select id from payment_advices where "paymentStatus" <> 'paid' order by id limit 1`);
      const id = rows[0]!.id;
      const asFrontDesk = server.db.transaction(async (tx) => {
        await recordCaller(tx, { "x-hasura-user-id": frontDesk, "x-hasura-role": "front_desk" }, false);
        await tx.query(`update payment_advices set "paymentStatus" = 'paid' where id = $1`, [id]);
      });
      await expect(asFrontDesk).rejects.toThrow(/Only remarks and notes/);
      // The finance service marks its transactions (its caller recorded or not).
      await server.db.transaction(async (tx) => {
        await recordCaller(tx, { "x-hasura-user-id": frontDesk, "x-hasura-role": "front_desk" }, false);
        await tx.query(`select set_config('backoffice.writer', 'finance', true)`);
        await tx.query(`update payment_advices set "paymentStatus" = 'overdue' where id = $1 and "paymentStatus" <> 'overdue'`, [id]);
        await tx.query(`update payment_advices set "paymentStatus" = 'paid' where id = $1`, [id]);
      });
      const { rows: now } = await server.db.query<{ paymentStatus: string }>(`select "paymentStatus" from payment_advices where id = $1`, [id]);
      expect(now[0]!.paymentStatus).toBe("paid");
      const admin = await gql(server.app, tokens.admin, `mutation { update_payment_advice_logs(where: {}, _set: {type: "update"}) { affected_rows } }`);
      expect(admin.errors?.[0]?.message).toBe("Finance logs and ledger entries cannot be changed or deleted.");
    });
  });

  describe("6. who reads which users", () => {
    const students = `{ users(where: {type: {_eq: "student"}}) { id dob address parents } }`;

    it("a part-time tutor reads only the students of its own lessons, names without parents, addresses or dates of birth", async () => {
      const tutor = await userId(server.db, "parttime_tutor");
      const { rows } = await server.db.query<{ id: string }>(
        `select distinct u.id from users u join lessons_students ls on ls."studentId" = u.id join lesson_sessions s on s."lessonId" = ls."lessonId"
         where u.type = 'student' and s."tutorIds" ? $1`,
        [tutor],
      );
      const res = await gql(server.app, tokens.parttime_tutor, `{ users(where: {type: {_eq: "student"}}) { id fullName dob address parents } }`);
      expect(res.errors).toBeUndefined();
      const seen = res.data!.users as { id: string; fullName: string; dob: unknown; address: unknown; parents: unknown }[];
      expect(seen.map((u) => u.id).sort()).toEqual(rows.map((r) => r.id).sort());
      const { rows: all } = await server.db.query<{ n: number }>(`select count(*)::int as n from users where type = 'student'`);
      expect(seen.length).toBeLessThan(all[0]!.n);
      for (const u of seen) expect([u.dob, u.address, u.parents]).toEqual([null, null, null]);
      expect(seen.every((u) => u.fullName)).toBe(true);
      const bank = await gql(server.app, tokens.parttime_tutor, `{ users(limit: 1) { bankNumber } }`);
      expect(bank.errors?.[0]?.message).toMatch(/bankNumber/);
    });

    it("sales reads students' names but not their parents; front desk reads parents; neither reads bank numbers", async () => {
      const sales = (await gql(server.app, tokens.sales, students)).data!.users as { parents: unknown; dob: unknown }[];
      expect(sales.length).toBeGreaterThan(0);
      expect(sales.every((u) => u.parents === null && u.dob === null)).toBe(true);
      const desk = (await gql(server.app, tokens.front_desk, students)).data!.users as { parents: unknown[]; dob: unknown }[];
      expect(desk.some((u) => Array.isArray(u.parents) && u.parents.length > 0 && u.dob)).toBe(true);
      for (const role of ["sales", "front_desk", "attendance_checker", "fulltime_tutor"]) {
        const res = await gql(server.app, tokens[role], `{ users(limit: 1) { bankNumber } }`);
        expect(res.errors?.[0]?.message, role).toMatch(/bankNumber/);
      }
    });

    it("hr and finance read staff bank numbers", async () => {
      for (const role of ["hr", "finance_staff"]) {
        const res = await gql(server.app, tokens[role], `{ users(where: {bankNumber: {_is_null: false}}, limit: 3) { bankNumber } }`);
        expect(res.errors, role).toBeUndefined();
        expect((res.data!.users as unknown[]).length, role).toBeGreaterThan(0);
      }
    });
  });
});
