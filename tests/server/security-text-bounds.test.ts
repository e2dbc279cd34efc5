/**
 * Issue 32 item 3(b), the database's half: every text and jsonb column is bounded by a length CHECK. A
 * payment advice's notes could be set to a megabyte over GraphQL (REST capped them at 100,000 characters)
 * and then froze the server while its PDF was made. A value over its column's limit is now refused with the
 * column and the limit named: Hasura's constraint-violation over GraphQL, a 400 naming the field over
 * REST; nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";

describe.each(databaseLanes())("every text column bounded in the database [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let paId: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "sales", "admin"]) token[role] = (await signIn(server.app, role)).accessToken;
    paId = (await server.db.query<{ id: string }>(`select id from payment_advices where status <> 'deleted' order by name limit 1`)).rows[0]!.id;
  });
  afterAll(async () => {
    await server?.close();
  });
  const gql = async (role: string, query: string, variables: Record<string, unknown>) =>
    (await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token[role]!), payload: { query, variables } })).json() as {
      data?: Record<string, unknown>;
      errors?: { message: string; extensions: { code: string; path: string } }[];
    };
  const setNotes = (notes: string) =>
    gql("front_desk", `mutation ($id: uuid!, $notes: String) { update_payment_advices_by_pk(pk_columns: { id: $id }, _set: { notes: $notes }) { id } }`, { id: paId, notes });
  const notesLength = async () => (await server.db.query<{ n: number }>(`select coalesce(char_length(notes), 0) as n from payment_advices where id = $1`, [paId])).rows[0]!.n;

  it("every text and jsonb column of every table of the public schema has a length check", async () => {
    const { rows } = await server.db.query<{ col: string }>(
      `select c.table_name || '.' || c.column_name as col
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
       join pg_attribute a on a.attrelid = format('public.%I', c.table_name)::regclass and a.attname = c.column_name
       where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'jsonb', 'json')
         and not exists (select 1 from pg_constraint k where k.conrelid = a.attrelid and k.contype = 'c' and k.conkey = array[a.attnum]
                           and pg_get_constraintdef(k.oid) ~ '(char_length|octet_length)\\(')
       order by 1`,
    );
    expect(rows.map((r) => r.col)).toEqual([]);
  });

  it("GraphQL: a PA's notes of a megabyte are refused as a constraint violation naming notes and its limit; the PA is unchanged", async () => {
    const before = await notesLength();
    const res = await setNotes("Late payment fee applies. ".repeat(40_000));
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0]?.extensions.code).toBe("constraint-violation");
    expect(res.errors?.[0]?.message).toContain("notes is too long: at most 100,000 characters.");
    expect(await notesLength()).toBe(before);
  });

  it("GraphQL: notes of exactly 100,000 characters, as REST allows, are still saved", async () => {
    const res = await setNotes("x".repeat(100_000));
    expect(res.errors).toBeUndefined();
    expect(await notesLength()).toBe(100_000);
  });

  it("GraphQL: a jsonb column over its limit is refused the same way, in bytes", async () => {
    const newsId = (await server.db.query<{ id: string }>(`select id from news order by id limit 1`)).rows[0]!.id;
    const res = await gql("admin", `mutation ($id: uuid!, $tags: jsonb) { update_news_by_pk(pk_columns: { id: $id }, _set: { hashtags: $tags }) { id } }`, {
      id: newsId,
      tags: Array.from({ length: 20_000 }, (_, i) => `tag-${i}`),
    });
    expect(res.errors?.[0]?.extensions.code).toBe("constraint-violation");
    expect(res.errors?.[0]?.message).toContain("hashtags is too long: at most 100,000 bytes.");
  });

  it("REST: a news message within the schema's limit that outgrows its column once sanitised is a 400 naming the field; nothing is written", async () => {
    const count = async () => (await server.db.query<{ n: number }>(`select count(*)::int as n from news`)).rows[0]!.n;
    const before = await count();
    // 150,000 characters pass the schema (200,000); sanitised, each & becomes &amp;: 750,000 characters
    const res = await api(server.app, "POST", "/news", token.sales, { title: "Fees", message: "&".repeat(150_000), recipientType: "student", send: false });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ success: false, message: "message is too long: at most 200,000 characters.", errors: { message: "message is too long: at most 200,000 characters." } });
    expect(await count()).toBe(before);
  });
});
