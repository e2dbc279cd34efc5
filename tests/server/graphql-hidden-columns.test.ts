/**
 * Issue 32 item 2: filters and ordering read nothing a role cannot select. A role whose rules show a column on some
 * rows only (attendance checker: staff users' e-mail, not students') may neither filter, order, distinct nor
 * aggregate on it, nor follow a relationship through it: each reference is refused as Hasura refuses a field its
 * role's input types lack. The sweep below derives every role's hidden columns from access/policy.csv itself.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessDir, KNOWN_ROLES, parsePolicy, type Rule } from "../../server/auth/policy/index.ts";
import { parseColumnList, roleWithGroups } from "../../server/auth/policy/rules.ts";
import { databaseLanes } from "../support/db.ts";
import { bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

const policy: Rule[] = parsePolicy(readFileSync(path.join(accessDir, "policy.csv"), "utf8"));

type SelectRule = { filter: string; columns?: ReturnType<typeof parseColumnList> };

/** The select rules per table of a user with these roles, as the policy file writes them: each its row filter and the columns it grants (undefined = all). */
function selectRules(...roles: string[]): Map<string, SelectRule[]> {
  const subjects = new Set(roles.flatMap((role) => roleWithGroups(role, policy)));
  const out = new Map<string, SelectRule[]>();
  for (const r of policy) {
    const [sub, obj, act, filter, columns] = r.values;
    if (r.ptype !== "p" || !subjects.has(sub) || !obj.startsWith("data:") || act !== "select") continue;
    const list = out.get(obj.slice(5)) ?? [];
    list.push({ filter: filter && filter !== "{}" ? filter : "", columns: columns ? parseColumnList(columns) : undefined });
    out.set(obj.slice(5), list);
  }
  return out;
}

/** A filter's top-level conditions (the items of a lone `_and`), as JSON texts. */
function conditions(filter: string): string[] {
  if (!filter) return [];
  const f = JSON.parse(filter) as Record<string, unknown>;
  return Object.keys(f).length === 1 && Array.isArray(f._and) ? f._and.map((x) => JSON.stringify(x)) : [JSON.stringify(f)];
}

/**
 * The columns some row the role sees hides: a rule does not grant the column, and no rule granting it admits all the
 * rows that one admits — every row, or rows under fewer of the same conditions (hr's unfiltered rule shows staff
 * rows' bank details, which the staff group's rule leaves out; front desk's students hold hod's).
 */
function hiddenColumns(all: readonly string[], rules: SelectRule[]): string[] {
  const grants = (c: string, r: SelectRule) => !r.columns || ("only" in r.columns ? r.columns.only.includes(c) : !r.columns.except.includes(c));
  const covers = (g: SelectRule, r: SelectRule) => conditions(g.filter).every((x) => conditions(r.filter).includes(x));
  return all.filter((c) => rules.some((r) => !grants(c, r) && !rules.some((g) => grants(c, g) && covers(g, r))));
}

const ROLES = KNOWN_ROLES.filter((r) => selectRules(r).size > 0);
/** Who is swept: each role's demo account, and multi_role (front desk + hod) for a union of roles. */
const ACCOUNTS: [string, string[]][] = [...ROLES.map((r): [string, string[]] => [r, [r]]), ["multi_role", ["front_desk", "hod"]]];

describe.each(databaseLanes())("GraphQL inputs never read a column the role cannot select [%s]", (lane) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const columns = new Map<string, string[]>();
  let student: { id: string; email: string; phone: string; parents: string };
  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of [...ROLES, "multi_role"]) tokens[role] = (await signIn(server.app, role)).accessToken;
    const { rows } = await server.db.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
    );
    for (const r of rows) columns.set(r.table_name, [...(columns.get(r.table_name) ?? []), r.column_name]);
    student = (
      await server.db.query<typeof student>(
        `select id, email, phone->>'number' as phone, parents->0->'phone'->>'number' as parents from users
          where type = 'student' and email is not null and "curriculumId" is not null and jsonb_array_length(parents) > 0 order by "createdAt" limit 1`,
      )
    ).rows[0];
  });
  afterAll(async () => {
    await server?.close();
  });

  const gql = async (role: string, query: string, variables?: Record<string, unknown>): Promise<Answer> =>
    (await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(tokens[role]), payload: { query, variables } })).json();
  const refused = (a: Answer, message?: string) => {
    expect(a.data ?? undefined, JSON.stringify(a)).toBeUndefined();
    expect(a.errors?.[0]?.extensions?.code, JSON.stringify(a)).toBe("validation-failed");
    if (message) expect(a.errors![0].message).toBe(message);
  };
  const answered = (a: Answer) => {
    expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
    return a.data!;
  };

  it("the policy gives some role columns it sees on some rows only (the sweep is not empty)", () => {
    const users = hiddenColumns(columns.get("users")!, selectRules("attendance_checker").get("users")!);
    expect(users).toEqual(expect.arrayContaining(["email", "phone", "address", "parents", "dob"]));
  });

  it.each(ACCOUNTS)("%s: where, order_by and distinct_on on every column it may not select are refused; on the others they work", async (role, roles) => {
    for (const [table, rules] of selectRules(...roles)) {
      const all = columns.get(table);
      if (!all) continue;
      const hidden = hiddenColumns(all, rules);
      const shown = all.filter((c) => !hidden.includes(c));
      // The table answers, and a column shown on every row filters, orders and distincts: refusals below are about the column.
      const ok = shown.includes("id") ? "id" : shown[0];
      answered(await gql(role, `{ ${table}(where: {${ok}: {_is_null: false}}, order_by: {${ok}: asc}, distinct_on: [${ok}], limit: 1) { __typename } }`));
      // Every column shown on every row is still in the role's input types (nothing that worked stops working).
      const types = answered(await gql(role, `{ b: __type(name: "${table}_bool_exp") { inputFields { name } } o: __type(name: "${table}_order_by") { inputFields { name } } }`));
      for (const t of ["b", "o"]) expect((types[t] as { inputFields: { name: string }[] }).inputFields.map((f) => f.name), `${role} ${table}`).toEqual(expect.arrayContaining(shown));
      for (const c of hidden) {
        refused(await gql(role, `{ ${table}(where: {${c}: {_is_null: false}}, limit: 1) { __typename } }`), `field '${c}' not found in type: '${table}_bool_exp'`);
        refused(await gql(role, `{ ${table}(order_by: {${c}: asc}, limit: 1) { __typename } }`), `field '${c}' not found in type: '${table}_order_by'`);
        refused(await gql(role, `{ ${table}(distinct_on: [${c}], limit: 1) { __typename } }`), `unexpected value "${c}" for enum: '${table}_select_column'`);
        refused(await gql(role, `query ($w: ${table}_bool_exp) { ${table}(where: $w, limit: 1) { __typename } }`, { w: { [c]: { _is_null: false } } }), `field '${c}' not found in type: '${table}_bool_exp'`);
      }
    }
  });

  it("attendance checker cannot test a student's e-mail, phone or parents' phone, literally, through variables or _cast on jsonb", async () => {
    // It lists the student, whose e-mail reads null to it.
    const row = answered(await gql("attendance_checker", `{ users(where: {id: {_eq: "${student.id}"}}) { id email } }`));
    expect(row.users).toEqual([{ id: student.id, email: null }]);
    refused(await gql("attendance_checker", `{ users(where: {id: {_eq: "${student.id}"}, email: {_eq: "${student.email}"}}) { id } }`), "field 'email' not found in type: 'users_bool_exp'");
    refused(await gql("attendance_checker", `query ($w: users_bool_exp!) { users(where: $w) { id } }`, { w: { id: { _eq: student.id }, email: { _like: `${student.email.slice(0, 3)}%` } } }), "field 'email' not found in type: 'users_bool_exp'");
    refused(await gql("attendance_checker", `query ($w: users_bool_exp!) { users(where: $w) { id } }`, { w: { phone: { _cast: { String: { _like: `%${student.phone}%` } } } } }), "field 'phone' not found in type: 'users_bool_exp'");
    refused(await gql("attendance_checker", `{ users(where: {parents: {_cast: {String: {_like: "%${student.parents}%"}}}}) { id } }`), "field 'parents' not found in type: 'users_bool_exp'");
    refused(await gql("attendance_checker", `{ users(where: {_or: [{_not: {address: {_is_null: true}}}]}) { id } }`));
    refused(await gql("attendance_checker", `{ users(order_by: [{type: asc}, {email: desc_nulls_last}], limit: 3) { id } }`), "field 'email' not found in type: 'users_order_by'");
  });

  it("nor through relationships, aggregate predicates or aggregates", async () => {
    // A relationship from a table it reads fully to the student's row.
    refused(await gql("fulltime_tutor", `{ lessons_students(where: {student: {email: {_eq: "${student.email}"}}}) { id } }`), "field 'email' not found in type: 'users_bool_exp'");
    refused(await gql("hod", `{ lessons_students(order_by: {student: {phone: asc}}, limit: 1) { id } }`), "field 'phone' not found in type: 'users_order_by'");
    // A relationship whose joining column shows on some rows only: a student's curriculum is its curriculumId.
    const { rows } = await server.db.query<{ curriculumId: string }>(`select "curriculumId" from users where id = $1`, [student.id]);
    refused(await gql("attendance_checker", `{ users(where: {curriculum: {id: {_eq: "${rows[0].curriculumId}"}}}) { id } }`), "field 'curriculum' not found in type: 'users_bool_exp'");
    refused(await gql("attendance_checker", `{ users(order_by: {curriculum: {name: asc}}, limit: 1) { id } }`), "field 'curriculum' not found in type: 'users_order_by'");
    refused(await gql("attendance_checker", `{ users(where: {id: {_eq: "${student.id}"}}) { id curriculum { name } } }`), "field 'curriculum' not found in type: 'users'");
    // Array relationships' aggregate predicates and ordering by aggregates.
    refused(await gql("attendance_checker", `{ branches(where: {users_aggregate: {count: {predicate: {_gt: 0}, filter: {email: {_eq: "${student.email}"}}}}}) { id } }`), "field 'email' not found in type: 'users_bool_exp'");
    refused(await gql("attendance_checker", `{ branches(where: {users_aggregate: {count: {predicate: {_gt: 0}, arguments: [email], distinct: true}}}) { id } }`), `unexpected value "email" for enum: 'users_select_column'`);
    refused(await gql("attendance_checker", `{ branches(order_by: {users_aggregate: {max: {email: asc}}}) { id } }`), "field 'email' not found in type: 'users_max_order_by'");
    // Aggregates over the hidden column.
    refused(await gql("attendance_checker", `{ users_aggregate(where: {type: {_eq: "student"}}) { aggregate { max { email } } } }`), "field 'email' not found in type: 'users_max_fields'");
    refused(await gql("attendance_checker", `{ users_aggregate { aggregate { count(columns: [phone], distinct: true) } } }`), `unexpected value "phone" for enum: 'users_select_column'`);
    // The engine's count estimate (issue 38) takes the same where.
    refused(await gql("attendance_checker", `{ users_count_estimate(where: {email: {_eq: "${student.email}"}}) }`), "field 'email' not found in type: 'users_bool_exp'");
  });

  it("nor in a mutation's where", async () => {
    // attendance checker edits staff users; its where may not name what it cannot read on every row either.
    refused(await gql("attendance_checker", `mutation { update_users(where: {email: {_eq: "${student.email}"}}, _set: {firstName: "X"}) { affected_rows } }`), "field 'email' not found in type: 'users_bool_exp'");
    const { rows } = await server.db.query<{ firstName: string }>(`select "firstName" from users where id = $1`, [student.id]);
    expect(rows[0].firstName).not.toBe("X");
  });

  it("nor over the websocket (subscriptions)", async () => {
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = server.app.server.address() as { port: number };
    const { default: WebSocket } = await import("ws");
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/graphql`, "graphql-transport-ws");
    const messages: { type: string; id?: string; payload?: unknown }[] = [];
    const next = (type: string) =>
      new Promise<{ type: string; payload?: unknown }>((resolve) => {
        const seen = messages.find((m) => m.type === type);
        if (seen) return resolve(seen);
        ws.on("message", (raw) => {
          const m = JSON.parse(String(raw));
          if (m.type === type) resolve(m);
        });
      });
    ws.on("message", (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve) => ws.on("open", resolve));
    ws.send(JSON.stringify({ type: "connection_init", payload: { headers: { Authorization: `Bearer ${tokens.attendance_checker}` } } }));
    await next("connection_ack");
    ws.send(JSON.stringify({ type: "subscribe", id: "1", payload: { query: `subscription { users(where: {email: {_eq: "${student.email}"}}) { id } }` } }));
    const answer = await Promise.race([next("error"), next("next")]);
    ws.close();
    expect(answer.type, JSON.stringify(answer)).toBe("error");
    expect(JSON.stringify(answer.payload)).toContain("field 'email' not found in type: 'users_bool_exp'");
  });

  it("a union of roles reads a column wherever one of its roles shows it on those rows", async () => {
    // multi_role = front desk + hod: hod's students are among front desk's, who sees their e-mail.
    const d = answered(await gql("multi_role", `{ users(where: {id: {_eq: "${student.id}"}, email: {_eq: "${student.email}"}}, order_by: {phone: asc}) { id email } }`));
    expect(d.users).toEqual([{ id: student.id, email: student.email }]);
    // The attendance checker still filters and sorts by what every row it sees shows.
    answered(await gql("attendance_checker", `{ users(where: {type: {_neq: "student"}, username: {_eq: "hr"}}, order_by: {fullName: asc}) { id email } }`));
  });
});
