import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes, openTestDb } from "../support/db.ts";
import type { Db } from "../../server/db/types.ts";
import { createEngine } from "../../server/graphql/engine.ts";
import { loadMetadataDir } from "../../server/graphql/metadata/load.ts";
import { MetadataError } from "../../server/graphql/metadata/types.ts";
import { admin, testConfig, TEST_METADATA, TEST_SCHEMA_SQL } from "./graphql-helpers.ts";

describe("reading hasura/metadata (Hasura CLI v3 layout)", () => {
  it("resolves the CLI's \"!include file\" strings relative to the including file", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "md-"));
    mkdirSync(path.join(dir, "databases/default/tables"), { recursive: true });
    writeFileSync(path.join(dir, "version.yaml"), "version: 3\n");
    writeFileSync(path.join(dir, "databases/databases.yaml"), `- name: default\n  kind: postgres\n  tables: "!include default/tables/tables.yaml"\n`);
    writeFileSync(path.join(dir, "databases/default/tables/tables.yaml"), `- "!include public_a.yaml"\n- !include public_b.yaml\n`);
    writeFileSync(path.join(dir, "databases/default/tables/public_a.yaml"), `table:\n  name: a\n  schema: public\n`);
    writeFileSync(path.join(dir, "databases/default/tables/public_b.yaml"), `table:\n  name: b\n  schema: public\narray_relationships: []\n`);
    const md = loadMetadataDir(dir);
    expect(md.sources[0].tables).toEqual([{ table: { name: "a", schema: "public" } }, { table: { name: "b", schema: "public" }, array_relationships: [] }]);
    expect(loadMetadataDir(path.join(dir, "absent")).sources[0].tables).toEqual([]);
  });

  it("the project's hasura/metadata reads", () => {
    const md = loadMetadataDir("hasura/metadata");
    expect(md.version).toBe(3);
    expect(Array.isArray(md.sources[0].tables)).toBe(true);
  });
});

describe.each(databaseLanes())("engine metadata lifecycle (%s)", (lane) => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb(lane);
  });
  afterAll(async () => db?.close());

  it("loads hasura/metadata on first start, checks it against the database, and stores it", async () => {
    const engine = await createEngine({ db, config: testConfig() });
    const stored = await db.query<{ n: number }>("select count(*)::int as n from hdb_catalog.hdb_metadata");
    expect(stored.rows[0].n).toBe(1);
    expect(engine.getMetadata().sources[0].tables.length).toBe(loadMetadataDir("hasura/metadata").sources[0].tables.length);
    await engine.close();
  });

  it("replaceMetadata validates, persists and keeps the old metadata on error; the stored metadata wins on restart", async () => {
    await db.exec(TEST_SCHEMA_SQL);
    const engine = await createEngine({ db, config: testConfig() });
    await engine.replaceMetadata(TEST_METADATA);
    const bad = structuredClone(TEST_METADATA);
    bad.sources[0].tables.push({ table: { schema: "public", name: "no_such_table" } });
    await expect(engine.replaceMetadata(bad)).rejects.toMatchObject({ code: "not-exists" });
    await expect(engine.replaceMetadata(bad)).rejects.toBeInstanceOf(MetadataError);
    const dup = structuredClone(TEST_METADATA);
    dup.sources[0].tables.push({ table: { schema: "public", name: "gql_author" } });
    await expect(engine.replaceMetadata(dup)).rejects.toMatchObject({ code: "already-tracked" });
    // A permission filter is compiled when written: a column or relationship that does not exist is refused.
    for (const filter of [{ no_such_column: { _eq: 1 } }, { author: { no_such_column: { _eq: 1 } } }, { views: { _no_such_op: 1 } }]) {
      const badFilter = structuredClone(TEST_METADATA);
      badFilter.sources[0].tables[1].select_permissions![0].permission.filter = filter;
      await expect(engine.replaceMetadata(badFilter)).rejects.toMatchObject({ code: "validation-failed", message: expect.stringContaining("gql_article.select_permissions.filter") });
    }
    expect(engine.getMetadata()).toEqual(TEST_METADATA);
    await engine.close();
    const again = await createEngine({ db, config: testConfig() });
    expect(again.getMetadata()).toEqual(TEST_METADATA);
    const triggers = await db.query("select 1 from pg_trigger where tgname = 'hdb_live_notify' and tgrelid = 'public.gql_article'::regclass");
    expect(triggers.rows).toHaveLength(1);

    await db.exec("drop table gql_article");
    await again.reloadCatalog();
    expect(again.getMetadata().sources[0].tables.map((x) => x.table.name)).toEqual(["gql_author"]);
    expect(again.getMetadata().sources[0].tables[0].array_relationships).toEqual([]);
    const r = await again.execute({ query: "{ gql_author(limit: 1) { name } }" }, admin);
    expect(r.body).toEqual({ data: { gql_author: [{ name: "Ada" }] } });
    await again.close();
  });
});
