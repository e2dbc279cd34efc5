import type { ComputedCall } from "../plan/ir.ts";
import { castType, ident, tableRef, type SqlBuilder } from "./builder.ts";

/**
 * `schema.function(…)` for a row under `alias`: the row rebuilt as the table's row type (the alias may name a
 * narrowed subquery, not the table), the session as JSON, the request's arguments as parameters. Arguments the
 * request leaves out have defaults (Postgres keeps those last); any given after one left out go by name.
 */
export function computedCall(b: SqlBuilder, call: ComputedCall, alias: string): string {
  const args: string[] = [];
  let named = false;
  for (const p of call.field.params) {
    if (p.kind === "row") args.push(`row(${call.table.columns.map((c) => `${alias}.${ident(c.name)}`).join(", ")})::${tableRef(call.table)}`);
    else if (p.kind === "session") args.push(b.param(JSON.stringify(b.options.session), "json"));
    else {
      const v = call.args.get(p.name);
      if (v === undefined) {
        named = true;
        continue;
      }
      const value = b.value(v, castType(p.type), p.type.udt === "json" || p.type.udt === "jsonb");
      args.push(named ? `${ident(p.name)} => ${value}` : value);
    }
  }
  return `${ident(call.field.function.schema)}.${ident(call.field.function.name)}(${args.join(", ")})`;
}
