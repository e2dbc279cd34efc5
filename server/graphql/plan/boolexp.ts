import type { Model, TableModel } from "../metadata/model.ts";
import { qualifiedTable, tableKey, type QualifiedTable } from "../metadata/types.ts";
import { RequestError } from "../errors.ts";
import type { BoolExp, ComparisonOp, Value } from "./ir.ts";
import type { Access } from "./permissions.ts";

const OPS = new Set<string>([
  "_eq", "_neq", "_gt", "_lt", "_gte", "_lte", "_in", "_nin", "_is_null",
  "_like", "_nlike", "_ilike", "_nilike", "_similar", "_nsimilar", "_regex", "_nregex", "_iregex", "_niregex",
  "_contains", "_contained_in", "_has_key", "_has_keys_any", "_has_keys_all",
]);
const COLUMN_OPS: Record<string, "_eq" | "_neq" | "_gt" | "_lt" | "_gte" | "_lte"> = { _ceq: "_eq", _cne: "_neq", _cneq: "_neq", _cgt: "_gt", _clt: "_lt", _cgte: "_gte", _clte: "_lte" };

export interface BoolExpContext {
  readonly model: Model;
  /** The caller's where: relationship filters also apply the target's select permission. Permission filters: no access, values may be session variables. */
  readonly access?: Access;
  readonly path: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** Permission filters name session variables as "X-Hasura-User-Id" strings. */
function valueOf(v: unknown, permission: boolean): Value {
  if (permission && typeof v === "string" && /^x-hasura-/i.test(v)) return { kind: "session", name: v.toLowerCase() };
  return { kind: "literal", value: v };
}

export function targetFilter(ctx: BoolExpContext, target: TableModel): BoolExp | null {
  if (!ctx.access) return null;
  const sel = ctx.access.select(target);
  if (!sel) throw new RequestError("permission-error", `no select permission on "${target.name}"`, ctx.path);
  return sel.filter ? parseBoolExp({ model: ctx.model, path: ctx.path }, target, sel.filter) : null;
}

/** A where / filter / check in Hasura's JSON form → the plan's BoolExp. */
export function parseBoolExp(ctx: BoolExpContext, table: TableModel, json: unknown): BoolExp {
  if (!isObject(json)) return { kind: "true" };
  const permission = !ctx.access;
  const items: BoolExp[] = [];
  for (const [rawKey, raw] of Object.entries(json)) {
    if (raw === undefined) continue;
    // Older metadata spells operators with "$" ($or, $eq, …).
    const key = permission && rawKey.startsWith("$") ? `_${rawKey.slice(1)}` : rawKey;
    if (key === "_and" || key === "_or") {
      const list = asList(raw).map((x) => parseBoolExp(ctx, table, x));
      if (key === "_and") items.push(list.length ? { kind: "and", items: list } : { kind: "true" });
      else items.push(list.length ? { kind: "or", items: list } : { kind: "true" });
      continue;
    }
    if (key === "_not") {
      if (isObject(raw)) items.push({ kind: "not", item: parseBoolExp(ctx, table, raw) });
      continue;
    }
    if (key === "_exists" && permission && isObject(raw)) {
      const target = ctx.model.tables.get(tableKey(qualifiedTable(raw._table as QualifiedTable)));
      if (!target) throw new RequestError("not-exists", `table ${JSON.stringify(raw._table)} is not tracked`, ctx.path);
      items.push({ kind: "exists", table: target, where: parseBoolExp(ctx, target, raw._where) });
      continue;
    }
    const rel = table.relationships.get(key);
    if (rel) {
      const target = ctx.model.tables.get(rel.target)!;
      const inner = parseBoolExp(ctx, target, raw);
      const filter = targetFilter(ctx, target);
      items.push({ kind: "relationship", rel, target, where: filter ? { kind: "and", items: [filter, inner] } : inner });
      continue;
    }
    const column = table.column.get(key);
    if (!column) throw new RequestError("validation-failed", `field '${key}' not found in type: '${table.typeName}_bool_exp'`, ctx.path);
    // A bare value is shorthand for _eq (permission filters: `id: X-Hasura-User-Id`).
    const ops: Record<string, unknown> = isObject(raw) ? raw : { _eq: raw };
    for (const [rawOp, v] of Object.entries(ops)) {
      const opName = rawOp.startsWith("$") ? `_${rawOp.slice(1)}` : rawOp;
      if (v === undefined || v === null) continue; // Hasura v2 drops null comparisons
      if (opName === "_cast") {
        if (!isObject(v)) continue;
        for (const [castTo, exp] of Object.entries(v)) {
          if (castTo !== "String" || !isObject(exp)) throw new RequestError("validation-failed", `cannot cast to ${castTo}`, ctx.path);
          for (const [o, cv] of Object.entries(exp)) {
            if (cv === undefined || cv === null) continue;
            if (!OPS.has(o)) throw new RequestError("validation-failed", `field '${o}' not found in type: 'String_comparison_exp'`, ctx.path);
            items.push({ kind: "compare", column, castToText: true, op: o as ComparisonOp, value: valueOf(cv, permission) });
          }
        }
        continue;
      }
      if (COLUMN_OPS[opName]) {
        const otherName = Array.isArray(v) ? v[v.length - 1] : v;
        const other = table.column.get(String(otherName));
        if (!other) throw new RequestError("validation-failed", `no such column: ${JSON.stringify(otherName)}`, ctx.path);
        items.push({ kind: "compare_column", column, op: COLUMN_OPS[opName], other });
        continue;
      }
      if (!OPS.has(opName)) throw new RequestError("validation-failed", `field '${opName}' not found in type: '${column.scalar}_comparison_exp'`, ctx.path);
      const value = (opName === "_in" || opName === "_nin" || opName === "_has_keys_any" || opName === "_has_keys_all") && !Array.isArray(v) && !(permission && typeof v === "string" && /^x-hasura-/i.test(v)) ? [v] : v;
      items.push({ kind: "compare", column, castToText: false, op: opName as ComparisonOp, value: valueOf(value, permission) });
    }
  }
  return items.length === 0 ? { kind: "true" } : items.length === 1 ? items[0] : { kind: "and", items };
}
