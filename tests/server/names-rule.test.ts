/**
 * Issue 32 §4: people's names obey one rule whichever client writes them. The REST calls refused a first
 * name holding a link; GraphQL stored it and it reached the parents. The rule (src/domain/validators.ts
 * nameLike) now sits in the database too (migration 1763700260000_name_rule): a GraphQL insert or update of
 * a name, a parent's, an emergency contact's or a referrer's name that breaks it is refused in Hasura's
 * shape with the spec's message, and nothing changes; REST keeps its own per-field message; names stored
 * before the rule do not block edits of other columns; the database's rule is nameLike, code point for code
 * point.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { MESSAGES, nameLike } from "../../src/domain/validators.ts";

const EVIL = `<a href="https://evil.example/pay">Outstanding fees: click to pay</a>`;

describe.each(databaseLanes())("names obey nameLike in the database [%s]", (lane) => {
  let server: TestServer;
  let frontDesk: string;
  let studentId: string;
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows;
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(frontDesk), payload: { query, variables } });
    return res.json() as { data?: Record<string, unknown>; errors?: Array<{ message: string; extensions: { code: string; path: string } }> };
  };
  const refused = (body: Awaited<ReturnType<typeof gql>>) => {
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.extensions.code).toBe("constraint-violation");
    expect(body.errors![0]!.message).toBe(`Check constraint violation. ${MESSAGES.nameLike}`);
  };
  const person = async () => (await q<Record<string, unknown>>(`select "firstName", "lastName", "fullName", parents, "emergencyContact", "references", address from users where id = $1`, [studentId]))[0];

  beforeAll(async () => {
    server = await startTestServer(lane);
    frontDesk = (await signIn(server.app, "front_desk")).accessToken;
    studentId = (await q<{ id: string }>(`select id from users where type = 'student' and status = 'active' and jsonb_array_length(parents) > 0 order by username limit 1`))[0]!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a GraphQL update of a student's first name to a link is refused with the spec's message, and nothing changes", async () => {
    const before = await person();
    refused(await gql(`mutation($id: uuid!, $n: String) { update_users_by_pk(pk_columns: {id: $id}, _set: {firstName: $n}) { id } }`, { id: studentId, n: EVIL }));
    refused(await gql(`mutation($id: uuid!, $n: String) { update_users_by_pk(pk_columns: {id: $id}, _set: {fullName: $n}) { id } }`, { id: studentId, n: EVIL }));
    refused(await gql(`mutation($id: uuid!, $p: jsonb) { update_users_by_pk(pk_columns: {id: $id}, _set: {parents: $p}) { id } }`, {
      id: studentId, p: [{ firstName: EVIL, lastName: "Tan", email: "p@example.com", primaryContact: true }],
    }));
    refused(await gql(`mutation($id: uuid!, $e: jsonb) { update_users_by_pk(pk_columns: {id: $id}, _set: {emergencyContact: $e}) { id } }`, { id: studentId, e: { firstName: "Ann", lastName: "<b>x</b>" } }));
    refused(await gql(`mutation($id: uuid!, $r: jsonb) { update_users_by_pk(pk_columns: {id: $id}, _set: {references: $r}) { id } }`, { id: studentId, r: [{ name: "Bob!", discountCode: "X" }] }));
    expect(await person()).toEqual(before);
  });

  it("a GraphQL insert of a student with such a name is refused; a name of any script with hyphens and apostrophes is taken", async () => {
    refused(await gql(`mutation($o: users_insert_input!) { insert_users_one(object: $o) { id } }`, { o: { username: "evil.name.32", type: "student", firstName: EVIL, lastName: "Tan" } }));
    expect(await q(`select id from users where username = 'evil.name.32'`)).toEqual([]);
    const ok = await gql(`mutation($o: users_insert_input!) { insert_users_one(object: $o) { id fullName } }`, {
      o: { username: "good.name.32", type: "student", firstName: "Mary-Ann", lastName: "O'Neil 陈大文", parents: [{ firstName: "Nguyễn", lastName: "Văn A" }] },
    });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.insert_users_one).toMatchObject({ fullName: "Mary-Ann O'Neil 陈大文" });
  });

  it("REST still answers with its per-field message", async () => {
    const res = await api(server.app, "PUT", "/student-profiles", frontDesk, { id: studentId, firstName: EVIL });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(MESSAGES.nameLike);
  });

  it("a name stored before the rule does not block editing the row's other columns", async () => {
    await server.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(`update users set "firstName" = 'Old!Name', "fullName" = trim('Old!Name ' || coalesce("lastName", '')) where id = $1`, [studentId]);
    });
    const res = await gql(`mutation($id: uuid!) { update_users_by_pk(pk_columns: {id: $id}, _set: {address: "1 New Road"}) { id address } }`, { id: studentId });
    expect(res.errors).toBeUndefined();
    expect((await person())!.address).toBe("1 New Road");
  });

  it("every name of the demo data passes the rule", async () => {
    const [row] = await q<{ n: number }>(
      `select count(*)::int as n from users u where u.username not in ('good.name.32') and u.id <> $1 and not (
         app_internal.is_name_like(u."firstName") and app_internal.is_name_like(u."lastName") and app_internal.is_name_like(u."fullName")
         and not exists (select 1 from jsonb_array_elements(u.parents) p where not (app_internal.is_name_like(p->>'firstName') and app_internal.is_name_like(p->>'lastName')))
         and app_internal.is_name_like(u."emergencyContact"->>'firstName') and app_internal.is_name_like(u."emergencyContact"->>'lastName'))`,
      [studentId],
    );
    expect(row!.n).toBe(0);
  });

  it("the database's rule is nameLike for every character of the BMP and a sample of the other planes, alone and between words", async () => {
    const codePoints: number[] = [];
    for (let c = 1; c <= 0xffff; c++) if (c < 0xd800 || c > 0xdfff) codePoints.push(c);
    for (let c = 0x10000; c <= 0x10ffff; c += 97) codePoints.push(c);
    const samples = codePoints.flatMap((c) => [String.fromCodePoint(c), `a${String.fromCodePoint(c)}b`]);
    const { rows } = await server.db.query<{ i: number }>(`select i::int from unnest($1::text[]) with ordinality as x(v, i) where app_internal.is_name_like(v)`, [samples]);
    const accepted = new Set(rows.map((r) => r.i - 1));
    const differing = samples.filter((s, i) => (nameLike(s) === null) !== accepted.has(i)).map((s) => [...s].map((ch) => ch.codePointAt(0)!.toString(16)).join(" "));
    expect(differing).toEqual([]);
  });
});
