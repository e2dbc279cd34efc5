/**
 * Every declared resource is checked against the data contract (STYLE: "a test loads every resource and
 * fails when a field, filter, sort or relation names something the database metadata does not have"):
 * the table is tracked in hasura/metadata, every column it names exists in the migrated database, each
 * relation's column is an object relationship to the target's table (or a jsonb list for "many"), and
 * enum values are the ones the table's CHECK constraint allows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { resources } from "../../resources/index.ts";
import { allColumns } from "../../src/framework/selection.ts";
import { defineResource, ResourceDeclarationError } from "../../src/framework/defineResource.ts";
import { text, relation, longText, amountRows } from "../../src/framework/fields.ts";
import type { Resource } from "../../src/framework/types.ts";
import type { Db } from "../../server/db/types.ts";
import { openTestDb } from "../support/db.ts";

const tablesDir = path.resolve(import.meta.dirname, "../../hasura/metadata/databases/default/tables");

interface TableMetadata {
  table: { name: string; schema: string };
  object_relationships?: { name: string; using: { foreign_key_constraint_on?: string | { column: string; table: { name: string } } } }[];
}

function trackedTables(): Map<string, TableMetadata> {
  const list = YAML.parse(readFileSync(path.join(tablesDir, "tables.yaml"), "utf8")) as (string | TableMetadata)[];
  const out = new Map<string, TableMetadata>();
  for (const entry of list) {
    const meta = typeof entry === "string" ? (YAML.parse(readFileSync(path.join(tablesDir, entry.replace(/^"!include |"$/g, "").replace(/^!include /, "")), "utf8")) as TableMetadata) : entry;
    out.set(meta.table.name, meta);
  }
  return out;
}

/** Problems of one resource against the metadata and the live columns; empty when all is well. */
export function resourceProblems(
  r: Resource,
  tracked: ReadonlyMap<string, TableMetadata>,
  columns: ReadonlyMap<string, ReadonlyMap<string, string>>,
  checks: ReadonlyMap<string, string>,
  declared: readonly Resource[],
): string[] {
  const problems: string[] = [];
  const meta = tracked.get(r.table);
  if (!meta) return [`${r.table}: table is not tracked in hasura/metadata`];
  const cols = columns.get(r.table) ?? new Map<string, string>();
  for (const c of allColumns(r)) if (!cols.has(c)) problems.push(`${r.table}.${c}: no such column`);
  if (r.parent && !declared.some((d) => d.table === r.parent!.table)) problems.push(`${r.table}: parent ${r.parent.table} is not a declared resource`);
  for (const inline of r.inlines ?? []) {
    const child = declared.find((d) => d.table === inline);
    if (!child) problems.push(`${r.table}: inline ${inline} is not a declared resource`);
    else if (child.parent?.table !== r.table) problems.push(`${r.table}: inline ${inline} does not name ${r.table} as its parent`);
  }
  for (const f of r.fieldList) {
    if (f.kind === "relation") {
      if (!tracked.has(f.target)) problems.push(`${r.table}.${f.name}: relation target ${f.target} is not tracked`);
      const label = f.labelField ?? declared.find((d) => d.table === f.target)?.recordLabel ?? "name";
      if (!columns.get(f.target)?.has(label)) problems.push(`${r.table}.${f.name}: label ${f.target}.${label} does not exist`);
      if (f.many) {
        if (cols.get(f.name) !== "jsonb") problems.push(`${r.table}.${f.name}: a many-relation needs a jsonb column`);
      } else {
        const rel = meta.object_relationships?.find((o) => o.using.foreign_key_constraint_on === f.name);
        if (!rel) problems.push(`${r.table}.${f.name}: no object relationship on this column in hasura/metadata`);
      }
    }
    const type = cols.get(f.name);
    const expected: Partial<Record<string, string[]>> = {
      money: ["numeric"],
      number: ["integer", "numeric", "bigint", "smallint"],
      boolean: ["boolean"],
      // a list of days (jsonb array) reads as days, but is neither filtered nor sorted as one
      date: f.filter || f.sortable ? ["date"] : ["date", "jsonb"],
      dateTime: ["timestamp with time zone"],
      time: ["time without time zone", "text"],
      phone: ["jsonb"],
      amountRows: ["jsonb"],
      relation: f.kind === "relation" && f.many ? ["jsonb"] : ["uuid"],
    };
    const want = expected[f.kind];
    if (type && want && !want.includes(type)) problems.push(`${r.table}.${f.name}: a ${f.kind} field over a ${type} column`);
    if (f.kind === "enum") {
      const check = checks.get(`${r.table}.${f.name}`);
      if (check) for (const v of Object.keys(f.values)) if (!check.includes(`'${v}'`)) problems.push(`${r.table}.${f.name}: enum value ${v} is not allowed by the CHECK constraint`);
    }
  }
  if (r.softDelete && !cols.has("status")) problems.push(`${r.table}: soft deletion needs a status column`);
  return problems;
}

describe("every resource names only what the data contract has", () => {
  let db: Db;
  const columns = new Map<string, Map<string, string>>();
  const checks = new Map<string, string>();
  const tracked = trackedTables();

  beforeAll(async () => {
    db = await openTestDb("pglite");
    const { rows } = await db.query<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns where table_schema = 'public'`,
    );
    for (const row of rows) {
      if (!columns.has(row.table_name)) columns.set(row.table_name, new Map());
      columns.get(row.table_name)!.set(row.column_name, row.data_type);
    }
    const c = await db.query<{ tbl: string; col: string; def: string }>(
      `select cl.relname as tbl, a.attname as col, pg_get_constraintdef(k.oid) as def
         from pg_constraint k join pg_class cl on cl.oid = k.conrelid join pg_namespace n on n.oid = cl.relnamespace
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
        where k.contype = 'c' and n.nspname = 'public' and array_length(k.conkey, 1) = 1
          and k.conname !~ '_(length|size)_max_[0-9]+$'`, // the length bounds (issue 32) say nothing of enum values
    );
    for (const row of c.rows) checks.set(`${row.tbl}.${row.col}`, row.def);
  });
  afterAll(async () => db?.close());

  it("resources/ declares at least the first four entities", () => {
    expect(resources.map((r) => r.table)).toEqual(expect.arrayContaining(["companies", "branches", "classrooms", "holidays", "enquiries"]));
    expect(readdirSync(tablesDir).length).toBeGreaterThan(1);
  });

  for (const r of resources) {
    it(`${r.table}: table, columns, filters, sorts and relations exist`, () => {
      expect(resourceProblems(r, tracked, columns, checks, resources)).toEqual([]);
    });
  }

  it("the check itself catches a wrong column, relation and label", () => {
    const bad = defineResource({
      table: "companies",
      label: "Bad",
      routes: { list: "/bad" },
      defaultSort: { field: "nope", order: "asc" },
      fields: {
        name: text("Name", { filter: true }),
        missing: text("Missing", { filter: true }),
        address: relation("Address", "branches"),
        shortName: relation("Short", "no_such_table", { labelField: "title" }),
        rows: amountRows("Rows"),
      },
    });
    const problems = resourceProblems(bad, tracked, columns, checks, resources);
    expect(problems).toEqual(
      expect.arrayContaining([
        "companies.missing: no such column",
        "companies.nope: no such column",
        "companies.rows: no such column",
        "companies.address: no object relationship on this column in hasura/metadata",
        "companies.address: a relation field over a text column",
        "companies.shortName: relation target no_such_table is not tracked",
      ]),
    );
    const untracked = defineResource({ table: "not_a_table", label: "X", routes: {}, fields: { name: longText() } });
    expect(resourceProblems(untracked, tracked, columns, checks, resources)).toEqual(["not_a_table: table is not tracked in hasura/metadata"]);
  });
});

describe("defineResource checks declarations at start-up (with a code)", () => {
  const base = { table: "things", label: "Things", fields: { name: text() } };
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as ResourceDeclarationError).code;
    }
    return "none";
  };
  it("fills every default", () => {
    const r = defineResource({ ...base, routes: { list: "/things", edit: "/things/:thingId/edit" } });
    expect(r).toMatchObject({ name: "things", singular: "Things", recordLabel: "name", softDelete: false, deletable: true, idParams: { edit: "thingId" } });
    expect(r.defaultSort).toEqual({ field: "updatedAt", order: "desc" });
    expect(r.fieldList[0]).toMatchObject({ name: "name", label: "Name", list: true, form: true, show: true, filter: false, sortable: true });
  });
  it("R001 bad table name", () => expect(code(() => defineResource({ ...base, table: "Things", routes: {} }))).toBe("R001"));
  it("R002 a filter the kind cannot have", () => expect(code(() => defineResource({ ...base, routes: {}, fields: { rows: amountRows("R", { filter: true }) } }))).toBe("R002"));
  it("R003 a sort the kind cannot have", () => expect(code(() => defineResource({ ...base, routes: {}, fields: { rows: amountRows("R", { sortable: true }) } }))).toBe("R003"));
  it("R005 an edit route without one id param", () => expect(code(() => defineResource({ ...base, routes: { edit: "/things/edit" } }))).toBe("R005"));
  it("R006 a child route without the parent's param", () =>
    expect(code(() => defineResource({ ...base, parent: { table: "p", field: "pId", param: "pId" }, routes: { create: "/things/create" } }))).toBe("R006"));
  it("R007 a recordLabel that is not a field", () => expect(code(() => defineResource({ ...base, routes: {}, recordLabel: "title" }))).toBe("R007"));
});
