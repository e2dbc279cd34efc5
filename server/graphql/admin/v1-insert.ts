/**
 * The old /v1/query `insert` ({table, objects, returning?}), run as admin on a tracked table.
 * Values reach Postgres as one JSON parameter per object, cast by json_populate_record to the table's row type,
 * so identifiers come only from the object's keys checked against the catalogue.
 */
import type { Queryable } from "../../db/types.ts";
import type { HasuraMetadata, QualifiedTable } from "./metadata-types.ts";
import { AdminError, parseTable, showTable } from "./metadata-ops.ts";

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export interface V1InsertResult {
  affected_rows: number;
  returning?: Record<string, unknown>[];
}

export async function v1Insert(q: Queryable, md: HasuraMetadata, rawArgs: unknown): Promise<V1InsertResult> {
  if (typeof rawArgs !== "object" || rawArgs === null || Array.isArray(rawArgs)) throw new AdminError("parse-failed", "expecting an object", "$.args");
  const args = rawArgs as Record<string, unknown>;
  const table: QualifiedTable = parseTable(args.table);
  const tracked = md.sources.some((s) => s.tables.some((t) => t.table.schema === table.schema && t.table.name === table.name));
  if (!tracked) throw new AdminError("not-exists", `table "${showTable(table)}" does not exist`, "$.args.table");
  if (!Array.isArray(args.objects)) throw new AdminError("parse-failed", 'key "objects" not found or not a list', "$.args");
  const returning = args.returning;
  if (returning !== undefined && !(Array.isArray(returning) && returning.every((c) => typeof c === "string"))) {
    throw new AdminError("parse-failed", "expecting a list of column names for returning", "$.args.returning");
  }
  if (args.on_conflict !== undefined) throw new AdminError("not-supported", "on_conflict is not supported by the v1 insert; use the GraphQL insert mutation", "$.args.on_conflict");

  const cols = await q.query<{ name: string }>(
    `select a.attname as name from pg_catalog.pg_attribute a
       join pg_catalog.pg_class c on c.oid = a.attrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped`,
    [table.schema, table.name],
  );
  const known = new Set(cols.rows.map((r) => r.name));
  for (const c of (returning as string[] | undefined) ?? []) {
    if (!known.has(c)) throw new AdminError("not-exists", `no such column exists : "${c}"`, "$.args.returning");
  }
  const target = `${ident(table.schema)}.${ident(table.name)}`;
  const rows: Record<string, unknown>[] = [];
  for (const [i, object] of args.objects.entries()) {
    if (typeof object !== "object" || object === null || Array.isArray(object)) throw new AdminError("parse-failed", "expecting an object", `$.args.objects[${i}]`);
    const keys = Object.keys(object);
    for (const k of keys) {
      if (!known.has(k)) throw new AdminError("not-exists", `no such column exists : "${k}"`, `$.args.objects[${i}]`);
    }
    const list = keys.map(ident).join(", ");
    const insert =
      keys.length === 0
        ? `insert into ${target} default values returning *`
        : `insert into ${target} (${list}) select ${list} from json_populate_record(null::${target}, $1::json) returning *`;
    const r = await q.query<{ r: Record<string, unknown> | string }>(`with i as (${insert}) select row_to_json(i) as r from i`, keys.length === 0 ? [] : [JSON.stringify(object)]);
    for (const row of r.rows) rows.push(typeof row.r === "string" ? (JSON.parse(row.r) as Record<string, unknown>) : row.r);
  }
  const result: V1InsertResult = { affected_rows: rows.length };
  if (returning) result.returning = rows.map((row) => Object.fromEntries((returning as string[]).map((c) => [c, row[c] ?? null])));
  return result;
}
