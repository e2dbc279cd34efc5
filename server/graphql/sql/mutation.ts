import type { Model, TableModel } from "../metadata/model.ts";
import type { BoolExp, DeleteIR, InsertIR, InsertRow, MutationOutput, UpdateIR, Value } from "../plan/ir.ts";
import { andExp } from "../plan/merge.ts";
import { compileBoolExp } from "./boolexp.ts";
import { castType, ident, nameLiteral, tableRef, type CompiledStatement, type SqlBuilder } from "./builder.ts";
import { rowJson } from "./select.ts";

/** What a statement adds to a mutation's answer beyond its "_m" rows (a nested insert's chain of CTEs). */
interface Extra {
  /** CTEs before "_m". */
  readonly ctes?: readonly string[];
  /** SQL counting every row written (default: the rows of "_m"). */
  readonly affected?: string;
  /** SQL counting the rows failing their permission's check (default: `check` or `passed` on "_m"). */
  readonly failed?: string;
  /** SQL giving Hasura's refusal text when a step wrote nothing that a later step needed, else null. */
  readonly refused?: string;
}

/**
 * A mutation compiles to one statement: the write in a CTE "_m" returning the rows, and a select that builds
 * the response JSON from them ("json") and counts the rows failing the permission's check ("failed").
 */
function finish(b: SqlBuilder, model: Model, table: TableModel, cte: string, output: MutationOutput, check: BoolExp | null, passed?: (alias: string) => string, extra: Extra = {}): CompiledStatement {
  let json: string;
  if (output.kind === "row") {
    const r = b.alias();
    const visible = output.rowFilter ? ` where ${compileBoolExp(b, output.rowFilter, r, model)}` : "";
    json = output.fields.length ? `(select ${rowJson(b, model, table, output.fields, r)} from "_m" as ${r}${visible} limit 1)` : "null::json";
  } else {
    const parts = output.fields.map((f) => {
      if (f.kind === "affected_rows") return `${nameLiteral(f.alias)}, ${extra.affected ?? `(select count(*) from "_m")`}`;
      if (f.kind === "typename") return `${nameLiteral(f.alias)}, ${nameLiteral(f.typename)}`;
      const rr = b.alias();
      const vis = output.rowFilter ? ` where ${compileBoolExp(b, output.rowFilter, rr, model)}` : "";
      return `${nameLiteral(f.alias)}, (select coalesce(json_agg(${rowJson(b, model, table, f.fields, rr)}), '[]'::json) from "_m" as ${rr}${vis})`;
    });
    json = parts.length ? `json_build_object(${parts.join(", ")})` : "json_build_object()";
  }
  let failed = extra.failed;
  if (failed === undefined) {
    const c = b.alias();
    const ok = passed ? passed(c) : check ? compileBoolExp(b, check, c, model) : undefined;
    failed = ok ? `(select count(*) from "_m" as ${c} where not coalesce(${ok}, false))::int` : "0";
  }
  const refused = extra.refused ? `, ${extra.refused} as "refused"` : "";
  const ctes = [...(extra.ctes ?? []), `"_m" as (${cte})`].join(", ");
  return b.build(`with ${ctes} select (${json})::text as "json", ${failed} as "failed", (select count(*) from "_m")::int as "affected"${refused}`);
}

/** The values of one row: its columns' (a column left out takes its default), then the `given` SQL of other columns. */
function rowValues(b: SqlBuilder, t: TableModel, names: readonly string[], columns: ReadonlyMap<string, Value>, given: ReadonlyMap<string, string> = new Map()): string {
  return `(${names.map((n) => {
    const sql = given.get(n);
    if (sql) return sql;
    const v = columns.get(n);
    const c = t.column.get(n)!;
    return v ? b.value(v, castType(c), (c.udt === "json" || c.udt === "jsonb") && v.kind === "literal" && typeof v.value !== "string") : "default";
  }).join(", ")})`;
}

/**
 * on_conflict: nothing, or an update of the listed columns (and the role's update presets) on the rows its
 * update permission and the request's `where` admit. The check an updated row meets is read back through `xmax`
 * (0 for a row this statement inserted), as Hasura does.
 */
function conflictClause(b: SqlBuilder, model: Model, ir: InsertIR, alias: string): string {
  const oc = ir.onConflict;
  if (!oc) return "";
  if (!oc.updateColumns.length && !oc.updatePresets.size) return ` on conflict on constraint ${ident(oc.constraint)} do nothing`;
  const where = andExp(oc.updateFilter, oc.where);
  const w = where.kind === "true" ? "" : ` where ${compileBoolExp(b, where, alias, model)}`;
  const sets = [
    ...oc.updateColumns.map((c) => `${ident(c.name)} = excluded.${ident(c.name)}`),
    ...[...oc.updatePresets].map(([name, v]) => `${ident(name)} = ${b.value(v, castType(ir.table.column.get(name)!))}`),
  ];
  return ` on conflict on constraint ${ident(oc.constraint)} do update set ${sets.join(", ")}${w}`;
}

/** What an inserted row must meet: the insert check, or the update check where on_conflict updated it. */
function insertedCheck(b: SqlBuilder, model: Model, ir: InsertIR, row: string): string | undefined {
  const ins = ir.check ? compileBoolExp(b, ir.check, row, model) : undefined;
  const upd = ir.onConflict?.updateCheck ? compileBoolExp(b, ir.onConflict.updateCheck, row, model) : undefined;
  if (!upd) return ins;
  return `(case when ${row}."_inserted" then ${ins ?? "true"} else ${upd} end)`;
}

const returning = (ir: InsertIR) => (ir.onConflict?.updateCheck ? ` returning *, (xmax::text = '0') as "_inserted"` : " returning *");

export function compileInsert(b: SqlBuilder, model: Model, ir: InsertIR): CompiledStatement {
  const t = ir.table;
  if (ir.rows.some((r) => r.objectRels.length > 0 || r.arrayRels.length > 0)) return compileNestedInsert(b, model, ir);
  const names: string[] = [];
  for (const row of ir.rows) for (const k of row.columns.keys()) if (!names.includes(k)) names.push(k);
  if (ir.rows.length === 0) return finish(b, model, t, `select * from ${tableRef(t)} where false`, ir.output, null);
  if (names.length === 0) names.push(t.columns.find((c) => c.hasDefault)?.name ?? t.columns[0].name);
  const values = ir.rows.map((row) => rowValues(b, t, names, row.columns));
  const i = ident("_i");
  const conflict = conflictClause(b, model, ir, i);
  const cte = `insert into ${tableRef(t)} as ${i} (${names.map(ident).join(", ")}) values ${values.join(", ")}${conflict}${returning(ir)}`;
  const checked = ir.check || ir.onConflict?.updateCheck;
  return finish(b, model, t, cte, ir.output, null, checked ? (c) => insertedCheck(b, model, ir, c)! : undefined);
}

/** A nested insert's CTEs as they are built: each row's, in the order they must run. */
interface Chain {
  readonly ctes: string[];
  /** Per table written: the CTEs holding its new rows. */
  readonly written: Map<string, { table: TableModel; ctes: string[] }>;
  readonly checks: { cte: string; ir: InsertIR }[];
  /** A CTE whose row a later step needs, and Hasura's text when it wrote none (an upsert that did nothing). */
  readonly needed: { cte: string; message: string }[];
}

/**
 * One row of a nested insert as a CTE: its object relationships' rows first (their keys fill this row's columns),
 * then the row, then its array relationships' rows (this row's keys fill theirs). Returns the CTE's name.
 */
function insertRowCte(b: SqlBuilder, model: Model, chain: Chain, ir: InsertIR, row: InsertRow, filled: ReadonlyMap<string, string>): string {
  const t = ir.table;
  const given = new Map(filled);
  for (const { rel, insert } of row.objectRels) {
    const parent = insertRowCte(b, model, chain, insert, insert.rows[0], new Map());
    chain.needed.push({ cte: parent, message: `cannot proceed to insert object relation ${JSON.stringify(rel.name)} since insert to table ${JSON.stringify(insert.table.name)} affects zero rows` });
    for (const [src, tgt] of rel.mapping) given.set(src, `(select ${ident(tgt)} from ${parent})`);
  }
  const names = [...new Set([...row.columns.keys(), ...given.keys()])];
  if (names.length === 0) names.push(t.columns.find((c) => c.hasDefault)?.name ?? t.columns[0].name);
  const name = ident(`_n${chain.ctes.length + 1}`);
  const i = ident("_i");
  chain.ctes.push(`${name} as (insert into ${tableRef(t)} as ${i} (${names.map(ident).join(", ")}) values ${rowValues(b, t, names, row.columns, given)}${conflictClause(b, model, ir, i)}${returning(ir)})`);
  const entry = chain.written.get(t.key) ?? { table: t, ctes: [] };
  entry.ctes.push(name);
  chain.written.set(t.key, entry);
  chain.checks.push({ cte: name, ir });
  for (const { rel, insert } of row.arrayRels) {
    if (!insert.rows.length) continue;
    chain.needed.push({ cte: name, message: `cannot proceed to insert array relations since insert to table ${JSON.stringify(t.name)} affects zero rows` });
    const keys = new Map(rel.mapping.map(([src, tgt]) => [tgt, `(select ${ident(src)} from ${name})`]));
    for (const child of insert.rows) insertRowCte(b, model, chain, insert, child, keys);
  }
  return name;
}

/**
 * A nested insert as one statement: a chain of data-modifying CTEs, one per row. Rows written by a CTE are not in the
 * snapshot the statement reads, so every read after the writes (checks through relationships, the returned rows and
 * their relationships) sees each written table as the table's rows with the new ones laid over them (by primary key:
 * an upserted row replaces its old version).
 */
function compileNestedInsert(b: SqlBuilder, model: Model, ir: InsertIR): CompiledStatement {
  const chain: Chain = { ctes: [], written: new Map(), checks: [], needed: [] };
  const roots = ir.rows.map((row) => insertRowCte(b, model, chain, ir, row, new Map()));
  for (const { table, ctes } of chain.written.values()) {
    const cols = table.columns.map((c) => ident(c.name)).join(", ");
    const fresh = ctes.map((c) => `select ${cols} from ${c}`).join(" union all ");
    const key = table.primaryKey.map(ident).join(", ");
    const old = table.primaryKey.length ? ` where (${key}) not in (select ${key} from ${ctes.map((c) => c).join(` union all select ${key} from `)})` : "";
    b.overlays.set(table.key, `(select ${cols} from ${tableRef(table)}${old} union all ${fresh})`);
  }
  const failed = chain.checks.flatMap(({ cte, ir: level }) => {
    const c = b.alias();
    const ok = insertedCheck(b, model, level, c);
    return ok ? [`(select count(*) from ${cte} as ${c} where not coalesce(${ok}, false))`] : [];
  });
  const refused = chain.needed.length ? `coalesce(${chain.needed.map((n) => `(select ${b.param(n.message, "text")} where not exists (select 1 from ${n.cte}))`).join(", ")})` : undefined;
  const cols = ir.table.columns.map((c) => ident(c.name)).join(", ");
  const rows = roots.map((c) => `select ${cols} from ${c}`).join(" union all ");
  return finish(b, model, ir.table, rows, ir.output, null, undefined, {
    ctes: chain.ctes,
    affected: `(${chain.checks.map(({ cte }) => `(select count(*) from ${cte})`).join(" + ")})`,
    failed: failed.length ? `(${failed.join(" + ")})::int` : "0",
    refused,
  });
}

export function compileUpdate(b: SqlBuilder, model: Model, ir: UpdateIR): CompiledStatement {
  const t = ir.table;
  const u = ident("_u");
  const where = () => compileBoolExp(b, andExp(ir.filter, ir.where), u, model);
  // Nothing to set: Hasura writes nothing and reports no rows.
  if (!ir.assignments.length) return finish(b, model, t, `select * from ${tableRef(t)} as ${u} where false and ${where()}`, ir.output, null);
  const sets = ir.assignments.map(({ column, op, value }) => {
    const col = `${u}.${ident(column.name)}`;
    const type = castType(column);
    const json = (column.udt === "json" || column.udt === "jsonb") && value.kind === "literal" && typeof value.value !== "string";
    switch (op) {
      case "_set":
        return `${ident(column.name)} = ${b.value(value, type, json)}`;
      case "_inc":
        return `${ident(column.name)} = ${col} + ${b.value(value, type)}`;
      case "_append":
        return `${ident(column.name)} = ${col} || ${b.value(value, "jsonb", typeof (value as { value?: unknown }).value !== "string")}`;
      case "_prepend":
        return `${ident(column.name)} = ${b.value(value, "jsonb", typeof (value as { value?: unknown }).value !== "string")} || ${col}`;
      case "_delete_key":
        return `${ident(column.name)} = ${col} - ${b.value(value, "text")}`;
      case "_delete_elem":
        return `${ident(column.name)} = ${col} - ${b.value(value, "integer")}`;
      case "_delete_at_path":
        return `${ident(column.name)} = ${col} #- ${b.value(value, "text[]")}`;
    }
  });
  if (!ir.alternatives) return finish(b, model, t, `update ${tableRef(t)} as ${u} set ${sets.join(", ")} where ${where()} returning ${u}.*`, ir.output, ir.check);
  // Which rules admitted each row is read before the write (a self-join on the key) and returned beside the new row.
  const o = ident("_o");
  const p = ident("_p");
  const keys = t.primaryKey.length ? t.primaryKey.map(ident) : ["ctid"];
  const admitted = ir.alternatives.map((a, i) => `(${compileBoolExp(b, a.filter, o, model)}) as ${ident(`_admitted${i}`)}`);
  const before = `select ${keys.map((k, i) => `${o}.${k} as ${ident(`_key${i}`)}`).join(", ")}, ${admitted.join(", ")} from ${tableRef(t)} as ${o} where ${compileBoolExp(b, andExp(ir.filter, ir.where), o, model)}`;
  const join = keys.map((k, i) => `${u}.${k} = ${p}.${ident(`_key${i}`)}`).join(" and ");
  const flags = ir.alternatives.map((_, i) => `${p}.${ident(`_admitted${i}`)}`).join(", ");
  const cte = `update ${tableRef(t)} as ${u} set ${sets.join(", ")} from (${before}) as ${p} where ${join} returning ${u}.*, ${flags}`;
  const alternatives = ir.alternatives;
  return finish(b, model, t, cte, ir.output, null, (c) => alternatives.map((a, i) => `(${c}.${ident(`_admitted${i}`)} and ${compileBoolExp(b, a.check, c, model)})`).join(" or "));
}

export function compileDelete(b: SqlBuilder, model: Model, ir: DeleteIR): CompiledStatement {
  const d = ident("_d");
  const where = compileBoolExp(b, andExp(ir.filter, ir.where), d, model);
  return finish(b, model, ir.table, `delete from ${tableRef(ir.table)} as ${d} where ${where} returning ${d}.*`, ir.output, null);
}
