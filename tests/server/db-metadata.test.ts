import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/types.ts";
import { openTestDb } from "../support/db.ts";

const metadataDir = path.resolve(import.meta.dirname, "../../hasura/metadata");
const SECRET = ["user_credentials", "refresh_tokens", "password_reset_codes", "signing_keys", "casbin_rule", "policy_changes", "outbox"];

/** Loads a YAML file, replacing "!include <file>" strings by the included document (relative to the including file). */
function load(file: string): unknown {
  const resolve = (value: unknown, dir: string): unknown => {
    if (typeof value === "string" && value.startsWith("!include ")) {
      const target = path.resolve(dir, value.slice("!include ".length).trim());
      return resolve(parse(readFileSync(target, "utf8")), path.dirname(target));
    }
    if (Array.isArray(value)) return value.map((v) => resolve(v, dir));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, dir)]));
    return value;
  };
  return resolve(parse(readFileSync(file, "utf8")), path.dirname(file));
}

interface Rel {
  name: string;
  using: { foreign_key_constraint_on: string | { column: string; table: { name: string; schema: string } } };
}
interface TableMeta {
  table: { name: string; schema: string };
  object_relationships?: Rel[];
  array_relationships?: Rel[];
}

describe("hasura metadata (v3)", () => {
  let db: Db;
  let tables: TableMeta[];
  beforeAll(async () => {
    db = await openTestDb("pglite");
    const sources = load(path.join(metadataDir, "databases/databases.yaml")) as Array<{ name: string; kind: string; tables: TableMeta[] }>;
    expect(sources.map((s) => s.name)).toEqual(["default"]);
    tables = sources[0].tables;
  });
  afterAll(async () => {
    await db?.close();
  });

  it("is version 3 with one file per table", () => {
    expect(parse(readFileSync(path.join(metadataDir, "version.yaml"), "utf8"))).toEqual({ version: 3 });
    const files = readdirSync(path.join(metadataDir, "databases/default/tables")).filter((f) => f.startsWith("public_"));
    expect(files.length).toBe(tables.length);
    for (const t of tables) expect(files).toContain(`public_${t.table.name}.yaml`);
  });

  it("tracks every spec table and none of the secret back-end tables", async () => {
    const all = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public'")).rows.map((r) => r.t);
    const tracked = tables.map((t) => t.table.name).sort();
    expect(tracked).toEqual(all.filter((t) => !SECRET.includes(t)).sort());
  });

  it("has a relationship for every foreign key, with names that clash with nothing", async () => {
    const fks = (await db.query<{ src: string; col: string; dst: string }>(`
      select c.conrelid::regclass::text as src, a.attname as col, c.confrelid::regclass::text as dst
      from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace and array_length(c.conkey, 1) = 1`)).rows;
    const columns = (await db.query<{ t: string; c: string }>("select table_name as t, column_name as c from information_schema.columns where table_schema = 'public'")).rows;
    const byName = new Map(tables.map((t) => [t.table.name, t]));
    for (const fk of fks) {
      if (!byName.has(fk.src) || !byName.has(fk.dst)) continue;
      const obj = byName.get(fk.src)!.object_relationships ?? [];
      expect(obj.some((r) => r.using.foreign_key_constraint_on === fk.col), `object relationship ${fk.src}.${fk.col}`).toBe(true);
      const arr = byName.get(fk.dst)!.array_relationships ?? [];
      expect(
        arr.some((r) => typeof r.using.foreign_key_constraint_on === "object" && r.using.foreign_key_constraint_on.column === fk.col && r.using.foreign_key_constraint_on.table.name === fk.src),
        `array relationship ${fk.dst} ← ${fk.src}.${fk.col}`,
      ).toBe(true);
    }
    for (const t of tables) {
      const names = [...(t.object_relationships ?? []), ...(t.array_relationships ?? [])].map((r) => r.name);
      expect(new Set(names).size, `${t.table.name}: duplicate relationship names`).toBe(names.length);
      const cols = new Set(columns.filter((c) => c.t === t.table.name).map((c) => c.c));
      for (const n of names) {
        expect(cols.has(n), `${t.table.name}.${n} clashes with a column`).toBe(false);
        expect(n, "a GraphQL name").toMatch(/^[_A-Za-z][_0-9A-Za-z]*$/);
      }
    }
  });

  it("names the spec's relationships as the spec does", () => {
    const rel = (table: string, kind: "object_relationships" | "array_relationships") => (tables.find((t) => t.table.name === table)?.[kind] ?? []).map((r) => r.name);
    expect(rel("academic_calendars", "object_relationships")).toContain("company");
    expect(rel("academic_calendars", "array_relationships")).toContain("terms");
    expect(rel("payment_advices", "object_relationships")).toContain("student");
    expect(rel("payment_advice_logs", "object_relationships")).toContain("creator");
    expect(rel("credit_notes", "object_relationships")).toEqual(expect.arrayContaining(["creditNoteClass", "creditNoteFee", "student"]));
    expect(rel("request_transfer_classes", "object_relationships")).toEqual(expect.arrayContaining(["student", "fromClass", "toClass"]));
    expect(rel("referrals", "object_relationships")).toEqual(expect.arrayContaining(["referrer", "referree"]));
    expect(rel("three_times_absents", "object_relationships")).toEqual(expect.arrayContaining(["class", "student"]));
    expect(rel("programs", "object_relationships")).toContain("cate");
    expect(rel("lessons", "array_relationships")).toEqual(expect.arrayContaining(["sessions", "lessonsStudents"]));
    expect(rel("broadcasts", "array_relationships")).toContain("logs");
    expect(rel("branches", "array_relationships")).toContain("classrooms");
  });
});
