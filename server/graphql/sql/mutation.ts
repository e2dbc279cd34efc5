import type { Model, TableModel } from "../metadata/model.ts";
import type { BoolExp, DeleteIR, InsertIR, MutationOutput, UpdateIR } from "../plan/ir.ts";
import { andExp } from "../plan/merge.ts";
import { compileBoolExp } from "./boolexp.ts";
import { castType, ident, nameLiteral, tableRef, type CompiledStatement, type SqlBuilder } from "./builder.ts";
import { rowJson } from "./select.ts";

/**
 * A mutation compiles to one statement: the write in a CTE "_m" returning the rows, and a select that builds
 * the response JSON from them ("json") and counts the rows failing the permission's check ("failed").
 */
function finish(b: SqlBuilder, model: Model, table: TableModel, cte: string, output: MutationOutput | "rows", check: BoolExp | null, affectedRows?: number, passed?: (alias: string) => string): CompiledStatement {
  let json: string;
  if (output === "rows") {
    json = `(select coalesce(json_agg(row_to_json("_m")), '[]'::json) from "_m")`;
  } else if (output.kind === "row") {
    const r = b.alias();
    const visible = output.rowFilter ? ` where ${compileBoolExp(b, output.rowFilter, r, model)}` : "";
    json = output.fields.length ? `(select ${rowJson(b, model, table, output.fields, r)} from "_m" as ${r}${visible} limit 1)` : "null::json";
  } else {
    const parts = output.fields.map((f) => {
      if (f.kind === "affected_rows") return `${nameLiteral(f.alias)}, ${affectedRows === undefined ? `(select count(*) from "_m")` : b.param(affectedRows, "integer")}`;
      if (f.kind === "typename") return `${nameLiteral(f.alias)}, ${nameLiteral(f.typename)}`;
      const rr = b.alias();
      const vis = output.rowFilter ? ` where ${compileBoolExp(b, output.rowFilter, rr, model)}` : "";
      return `${nameLiteral(f.alias)}, (select coalesce(json_agg(${rowJson(b, model, table, f.fields, rr)}), '[]'::json) from "_m" as ${rr}${vis})`;
    });
    json = parts.length ? `json_build_object(${parts.join(", ")})` : "json_build_object()";
  }
  const c = b.alias();
  const ok = passed ? passed(c) : check ? compileBoolExp(b, check, c, model) : undefined;
  const failed = ok ? `(select count(*) from "_m" as ${c} where not coalesce(${ok}, false))::int` : "0";
  return b.build(`with "_m" as (${cte}) select (${json})::text as "json", ${failed} as "failed", (select count(*) from "_m")::int as "affected"`);
}

/** The response of a nested insert, built after all its statements ran: the top-level rows found again by primary key. */
export function compileInsertedOutput(b: SqlBuilder, model: Model, table: TableModel, keys: readonly Record<string, unknown>[], output: MutationOutput, affectedRows: number): CompiledStatement {
  const k = ident("_k");
  const match = keys.length
    ? keys.map((row) => `(${table.primaryKey.map((c) => `${k}.${ident(c)} = ${b.param(row[c], castType(table.column.get(c)!))}`).join(" and ")})`).join(" or ")
    : "false";
  return finish(b, model, table, `select * from ${tableRef(table)} as ${k} where ${match}`, output, null, affectedRows);
}

/** compileInsert whose "json" is the inserted rows as they are stored (for nested inserts). */
export function compileInsertRows(b: SqlBuilder, model: Model, ir: InsertIR): CompiledStatement {
  return compileInsert(b, model, ir, true);
}

export function compileInsert(b: SqlBuilder, model: Model, ir: InsertIR, rawRows = false): CompiledStatement {
  const t = ir.table;
  const names: string[] = [];
  for (const row of ir.rows) for (const k of row.columns.keys()) if (!names.includes(k)) names.push(k);
  if (ir.rows.length === 0) return finish(b, model, t, `select * from ${tableRef(t)} where false`, rawRows ? "rows" : ir.output, null);
  if (names.length === 0) names.push(t.columns.find((c) => c.hasDefault)?.name ?? t.columns[0].name);
  const values = ir.rows.map((row) => `(${names.map((n) => {
    const v = row.columns.get(n);
    const c = t.column.get(n)!;
    return v ? b.value(v, castType(c), (c.udt === "json" || c.udt === "jsonb") && v.kind === "literal" && typeof v.value !== "string") : "default";
  }).join(", ")})`);
  const i = ident("_i");
  let conflict = "";
  if (ir.onConflict) {
    const oc = ir.onConflict;
    if (!oc.updateColumns.length) conflict = ` on conflict on constraint ${ident(oc.constraint)} do nothing`;
    else {
      const where = andExp(oc.updateFilter, oc.where);
      const w = where.kind === "true" ? "" : ` where ${compileBoolExp(b, where, i, model)}`;
      conflict = ` on conflict on constraint ${ident(oc.constraint)} do update set ${oc.updateColumns.map((c) => `${ident(c.name)} = excluded.${ident(c.name)}`).join(", ")}${w}`;
    }
  }
  const cte = `insert into ${tableRef(t)} as ${i} (${names.map(ident).join(", ")}) values ${values.join(", ")}${conflict} returning *`;
  return finish(b, model, t, cte, rawRows ? "rows" : ir.output, ir.check);
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
  return finish(b, model, t, cte, ir.output, null, undefined, (c) => alternatives.map((a, i) => `(${c}.${ident(`_admitted${i}`)} and ${compileBoolExp(b, a.check, c, model)})`).join(" or "));
}

export function compileDelete(b: SqlBuilder, model: Model, ir: DeleteIR): CompiledStatement {
  const d = ident("_d");
  const where = compileBoolExp(b, andExp(ir.filter, ir.where), d, model);
  return finish(b, model, ir.table, `delete from ${tableRef(ir.table)} as ${d} where ${where} returning ${d}.*`, ir.output, null);
}
