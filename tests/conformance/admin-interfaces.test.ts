/**
 * Hasura's admin interfaces (/v1/query, /v2/query, /v1/metadata) as the fixtures' setups and Hasura's docs use them,
 * against the real server wiring on each database lane.
 */
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/types.ts";
import { adminPlugin } from "../../server/graphql/admin/index.ts";
import type { HasuraMetadata } from "../../server/graphql/admin/metadata-types.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { post, type ServerUnderTest } from "./http.ts";
import { startServer } from "./server.ts";

function tables(md: unknown): string[] {
  return ((md as HasuraMetadata).sources.find((s) => s.name === "default")?.tables ?? []).map((t) => t.table.name).filter((n) => n.startsWith("adm_"));
}

describe("admin interfaces are absent without an admin secret", () => {
  it("does not register the routes", async () => {
    const app = Fastify();
    const engine = { getMetadata: () => ({ version: 3 as const, sources: [] }), replaceMetadata: async () => undefined, reloadCatalog: async () => undefined, metadataChecker: () => ({ check: async () => undefined, schemaChanged: () => undefined }) };
    await app.register(adminPlugin, { engine, db: {} as Db, config: {} });
    const res = await app.inject({ method: "POST", url: "/v1/query", payload: { type: "export_metadata", args: {} } });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});

for (const lane of databaseLanes()) {
  describe(`${lane}: Hasura admin interfaces`, () => {
    let db: Db;
    let server: ServerUnderTest;
    const q = (body: unknown, headers?: Record<string, string>) => post(server, "/v1/query", body, headers);
    const meta = (body: unknown) => post(server, "/v1/metadata", body);

    beforeAll(async () => {
      db = await openTestDb(lane);
      server = await startServer(db);
      const r = await q({
        type: "run_sql",
        args: {
          sql: `create table adm_author (id serial primary key, name text not null, born date);
                create table adm_article (id serial primary key, title text, author_id int references adm_author(id));`,
        },
      });
      expect(r.status).toBe(200);
    });
    afterAll(async () => {
      await server?.close();
      await db?.close();
    });

    it("requires the admin secret, in Hasura's access-denied shape", async () => {
      const missing = await fetch(`${server.baseUrl}/v1/query`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual({ path: "$", error: "x-hasura-admin-secret/x-hasura-access-key required, but not found", code: "access-denied" });
      const wrong = await q({ type: "export_metadata", args: {} }, { "x-hasura-admin-secret": "nope" });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: "access-denied" });
      const role = await q({ type: "export_metadata", args: {} }, { "x-hasura-role": "user" });
      expect(role.status).toBe(400);
      expect(role.body).toMatchObject({ error: "restricted access : admin only", code: "access-denied" });
    });

    it("run_sql answers TuplesOk with headers and text values, CommandOk otherwise, postgres-error on failure", async () => {
      const rows = await q({ type: "run_sql", args: { sql: "select 1 as n, null::text as t, true as b, 1.50::numeric as d, '2020-01-02'::date as day", read_only: true } });
      expect(rows).toEqual({ status: 200, body: { result_type: "TuplesOk", result: [["n", "t", "b", "d", "day"], ["1", null, "t", "1.50", "2020-01-02"]] } });
      const none = await post(server, "/v2/query", { type: "run_sql", args: { sql: "create table adm_tmp (id int); drop table adm_tmp;" } });
      expect(none).toEqual({ status: 200, body: { result_type: "CommandOk", result: null } });
      const bad = await q({ type: "run_sql", args: { sql: "select * from adm_no_such_table" } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ path: "$", error: "query execution failed", code: "postgres-error" });
    });

    it("tracks tables and relationships in a bulk, and reports the failing step's path", async () => {
      const ok = await q({
        type: "bulk",
        args: [
          { type: "track_table", args: { schema: "public", name: "adm_author" } },
          { type: "track_table", args: { table: "adm_article" } },
          { type: "create_object_relationship", args: { table: "adm_article", name: "author", using: { foreign_key_constraint_on: "author_id" } } },
          {
            type: "create_array_relationship",
            args: { table: "adm_author", name: "articles", using: { foreign_key_constraint_on: { table: "adm_article", column: "author_id" } } },
          },
          { type: "create_select_permission", args: { table: "adm_article", role: "user", permission: { columns: ["id", "title"], filter: { author_id: "X-Hasura-User-Id" } } } },
        ],
      });
      expect(ok).toEqual({ status: 200, body: Array(5).fill({ message: "success" }) });

      const before = (await q({ type: "export_metadata", args: {} })).body;
      expect(tables(before)).toEqual(["adm_author", "adm_article"]);
      const again = await q({ type: "bulk", args: [{ type: "drop_select_permission", args: { table: "adm_article", role: "user" } }, { type: "track_table", args: "adm_author" }] });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: "already-tracked", path: "$.args[1].args" });
      // the bulk failed as a whole: the permission dropped by its first step is back
      expect((await q({ type: "export_metadata", args: {} })).body).toEqual(before);
    });

    it("a bulk is atomic: a failing step undoes the SQL of the steps before it, and their metadata", async () => {
      const before = (await q({ type: "export_metadata", args: {} })).body;
      const failed = await q({
        type: "bulk",
        args: [
          { type: "run_sql", args: { sql: "create table adm_draft (id serial primary key, note text); insert into adm_draft (note) values ('kept?');" } },
          { type: "track_table", args: { table: "adm_draft" } },
          { type: "run_sql", args: { sql: "select 1 / 0" } },
        ],
      });
      expect(failed).toMatchObject({ status: 400, body: { code: "postgres-error", path: "$.args[2]" } });
      const table = await q({ type: "run_sql", args: { sql: "select count(*) from pg_tables where tablename = 'adm_draft'", read_only: true } });
      expect(table.body).toEqual({ result_type: "TuplesOk", result: [["count"], ["0"]] });
      expect((await q({ type: "export_metadata", args: {} })).body).toEqual(before);

      // the same steps without the failing one: a table created by a step is tracked by the next, in one transaction
      const ok = await post(server, "/v2/query", { type: "bulk", args: [{ type: "run_sql", args: { sql: "create table adm_draft (id serial primary key, note text)" } }] });
      expect(ok.status).toBe(200);
      const tracked = await q({ type: "bulk", args: [{ type: "run_sql", args: { sql: "alter table adm_draft add column done boolean" } }, { type: "track_table", args: { table: "adm_draft" } }] });
      expect(tracked.status).toBe(200);
      expect((await post(server, "/v1/graphql", { query: "{ adm_draft { id note done } }" })).body).toEqual({ data: { adm_draft: [] } });
      expect((await q({ type: "run_sql", args: { sql: "drop table adm_draft", cascade: true } })).status).toBe(200);
      expect((await q({ type: "export_metadata", args: {} })).body).toEqual(before);
    });

    it("the GraphQL engine serves what was tracked; v1 insert writes as admin", async () => {
      const ins = await q({ type: "insert", args: { table: "adm_author", objects: [{ name: "Ann", born: "1990-05-01" }, { name: "Bob" }], returning: ["id", "name"] } });
      expect(ins).toEqual({ status: 200, body: { affected_rows: 2, returning: [{ id: 1, name: "Ann" }, { id: 2, name: "Bob" }] } });
      await q({ type: "insert", args: { table: "adm_article", objects: [{ title: "T", author_id: 1 }] } });
      const gql = await post(server, "/v1/graphql", { query: "{ adm_author(order_by: {id: asc}) { name articles { title } } }" });
      expect(gql).toEqual({ status: 200, body: { data: { adm_author: [{ name: "Ann", articles: [{ title: "T" }] }, { name: "Bob", articles: [] }] } } });
      const untracked = await q({ type: "insert", args: { table: "adm_nothing", objects: [{}] } });
      expect(untracked.status).toBe(400);
      const violation = await q({ type: "insert", args: { table: "adm_article", objects: [{ author_id: 99 }] } });
      expect(violation.status).toBe(400);
      expect(violation.body).toMatchObject({ code: "constraint-violation" });
    });

    it("run_sql refuses a drop that would leave a dangling relationship, unless cascade", async () => {
      const refused = await q({ type: "run_sql", args: { sql: "drop table adm_article" } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "dependency-error" });
      const stillThere = await q({ type: "run_sql", args: { sql: "select count(*) from adm_article", read_only: true } });
      expect(stillThere.body).toEqual({ result_type: "TuplesOk", result: [["count"], ["1"]] });
      const cascaded = await q({ type: "run_sql", args: { sql: "drop table adm_article", cascade: true } });
      expect(cascaded.status).toBe(200);
      const md = (await q({ type: "export_metadata", args: {} })).body as HasuraMetadata;
      expect(tables(md)).toEqual(["adm_author"]);
      expect(md.sources[0].tables.find((t) => t.table.name === "adm_author")?.array_relationships).toBeUndefined();
    });

    it("/v1/metadata takes the pg_ forms and export/replace/reload/clear", async () => {
      expect((await meta({ type: "pg_create_select_permission", args: { source: "default", table: "adm_author", role: "user", permission: { columns: "*", filter: {} } } })).status).toBe(200);
      const wrongSource = await meta({ type: "pg_track_table", args: { source: "elsewhere", table: "adm_author" } });
      expect(wrongSource).toMatchObject({ status: 400, body: { code: "not-exists" } });
      const exported = await meta({ type: "export_metadata", version: 2, args: {} });
      const md = (exported.body as { metadata: HasuraMetadata }).metadata;
      expect(tables(md)).toEqual(["adm_author"]);
      expect((await meta({ type: "pg_drop_select_permission", args: { table: "adm_author", role: "user" } })).status).toBe(200);
      expect((await meta({ type: "replace_metadata", args: md })).status).toBe(200);
      expect((await meta({ type: "export_metadata", args: {} })).body).toEqual(md);
      expect((await meta({ type: "reload_metadata", args: {} })).body).toMatchObject({ message: "success" });
      const unknownTable = await meta({ type: "pg_track_table", args: { table: "adm_missing" } });
      expect(unknownTable.status).toBe(400);
      expect((await meta({ type: "export_metadata", args: {} })).body).toEqual(md);
      expect((await meta({ type: "clear_metadata", args: {} })).status).toBe(200);
      expect(tables((await meta({ type: "export_metadata", args: {} })).body)).toEqual([]);
      expect((await post(server, "/v1/graphql", { query: "{ adm_author { name } }" })).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      expect((await meta({ type: "replace_metadata", args: { metadata: md, allow_inconsistent_metadata: false } })).status).toBe(200);
    });

    it("inherited roles: add/drop_inherited_role, the union of their roles' rows and columns, refusals", async () => {
      const before = (await meta({ type: "export_metadata", args: {} })).body as HasuraMetadata;
      const select = (role: string, columns: string[], id: number) =>
        meta({ type: "pg_create_select_permission", args: { table: "adm_author", role, permission: { columns, filter: { id: { _eq: id } } } } });
      expect((await select("reader_a", ["id", "name"], 1)).status).toBe(200);
      expect((await select("reader_b", ["id", "born"], 2)).status).toBe(200);
      expect(await meta({ type: "add_inherited_role", args: { role_name: "reader", role_set: ["reader_a", "reader_b"] } })).toEqual({ status: 200, body: { message: "success" } });
      const asReader = await post(server, "/v1/graphql", { query: "{ adm_author(order_by: {id: asc}) { id name born } }" }, { "x-hasura-role": "reader" });
      // each value shows on the rows of a role that grants its column (Ann's birthday is reader_b's column, her row reader_a's)
      expect(asReader.body).toEqual({ data: { adm_author: [{ id: 1, name: "Ann", born: null }, { id: 2, name: null, born: null }] } });
      expect(((await meta({ type: "export_metadata", args: {} })).body as HasuraMetadata).inherited_roles).toEqual([{ role_name: "reader", role_set: ["reader_a", "reader_b"] }]);

      expect(await meta({ type: "add_inherited_role", args: { role_name: "reader", role_set: ["reader_a"] } })).toMatchObject({ status: 400, body: { code: "already-exists" } });
      expect(await meta({ type: "add_inherited_role", args: { role_name: "loop", role_set: ["loop", "reader_a"] } })).toMatchObject({
        status: 400,
        body: { code: "invalid-params", error: "an inherited role name cannot be in the role combination" },
      });
      expect((await meta({ type: "add_inherited_role", args: { role_name: "c1", role_set: ["c2"] } })).status).toBe(200);
      expect(await meta({ type: "add_inherited_role", args: { role_name: "c2", role_set: ["c1"] } })).toMatchObject({ status: 400, body: { error: "found cycle(s) in roles: c1 → c2 → c1" } });
      expect((await meta({ type: "drop_inherited_role", args: { role_name: "c1" } })).status).toBe(200);

      expect((await meta({ type: "drop_inherited_role", args: { role_name: "reader" } })).status).toBe(200);
      expect(await meta({ type: "drop_inherited_role", args: { role_name: "reader" } })).toMatchObject({ status: 400, body: { code: "not-exists" } });
      expect((await post(server, "/v1/graphql", { query: "{ adm_author { id } }" }, { "x-hasura-role": "reader" })).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      expect((await meta({ type: "replace_metadata", args: before })).status).toBe(200);
    });

    it("a backend_only insert permission answers only with x-hasura-use-backend-only-permissions: true", async () => {
      const before = (await meta({ type: "export_metadata", args: {} })).body as HasuraMetadata;
      expect((await meta({ type: "pg_create_insert_permission", args: { table: "adm_author", role: "service", permission: { columns: ["name"], check: {}, backend_only: true } } })).status).toBe(200);
      const insert = { query: `mutation { insert_adm_author(objects: [{name: "Cy"}]) { affected_rows } }` };
      const frontend = await post(server, "/v1/graphql", insert, { "x-hasura-role": "service" });
      // the role has no other mutation: Hasura's answer for a schema without a mutation root
      expect(frontend.body).toMatchObject({ errors: [{ message: "no mutations exist", extensions: { code: "validation-failed" } }] });
      const backend = await post(server, "/v1/graphql", insert, { "x-hasura-role": "service", "x-hasura-use-backend-only-permissions": "true" });
      expect(backend.body).toEqual({ data: { insert_adm_author: { affected_rows: 1 } } });
      await q({ type: "run_sql", args: { sql: "delete from adm_author where name = 'Cy'" } });
      expect((await meta({ type: "replace_metadata", args: before })).status).toBe(200);
    });
  });
}
