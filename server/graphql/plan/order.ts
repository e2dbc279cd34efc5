import type { Model, TableModel } from "../metadata/model.ts";
import { RequestError } from "../errors.ts";
import type { AggregateOp } from "../schema/fields.ts";
import type { Direction, Nulls, OrderItem, OrderTarget } from "./ir.ts";
import { targetFilter, type BoolExpContext } from "./boolexp.ts";

const DIRECTIONS: Record<string, [Direction, Nulls]> = {
  asc: ["asc", "last"],
  asc_nulls_last: ["asc", "last"],
  asc_nulls_first: ["asc", "first"],
  desc: ["desc", "first"],
  desc_nulls_first: ["desc", "first"],
  desc_nulls_last: ["desc", "last"],
};
const AGG_OPS = new Set(["sum", "avg", "max", "min", "stddev", "stddev_pop", "stddev_samp", "var_pop", "var_samp", "variance"]);

function direction(v: unknown, path: string): [Direction, Nulls] {
  const d = typeof v === "string" ? DIRECTIONS[v] : undefined;
  if (!d) throw new RequestError("validation-failed", `expected one of the values asc, asc_nulls_first, asc_nulls_last, desc, desc_nulls_first, desc_nulls_last for type "order_by", but found ${JSON.stringify(v)}`, path);
  return d;
}

/** order_by: a list (or one) of objects whose keys are read in the order given. Empty objects are ignored. */
export function parseOrderBy(ctx: BoolExpContext & { model: Model }, table: TableModel, json: unknown): OrderItem[] {
  const items: OrderItem[] = [];
  const list = Array.isArray(json) ? json : json ? [json] : [];
  const walk = (t: TableModel, obj: Record<string, unknown>, wrap: (x: OrderTarget) => OrderTarget) => {
    for (const [key, v] of Object.entries(obj)) {
      if (v === undefined || v === null) continue;
      const column = t.field.get(key);
      if (column) {
        const [d, n] = direction(v, ctx.path);
        items.push({ target: wrap({ kind: "column", column }), direction: d, nulls: n });
        continue;
      }
      const computed = t.computedFields.get(key);
      if (computed?.returns.kind === "scalar" && (!ctx.access || ctx.access.select(t)?.computedFields.has(key))) {
        const [d, n] = direction(v, ctx.path);
        items.push({ target: wrap({ kind: "computed", call: { field: computed, table: t, args: new Map() } }), direction: d, nulls: n });
        continue;
      }
      const rel = t.relationships.get(key);
      if (rel && rel.kind === "object" && typeof v === "object") {
        const target = ctx.model.tables.get(rel.target)!;
        const filter = targetFilter(ctx, target);
        walk(target, v as Record<string, unknown>, (inner) => wrap({ kind: "object_rel", rel, target, filter, then: inner }));
        continue;
      }
      const aggComputed = key.endsWith("_aggregate") ? t.computedFields.get(key.slice(0, -"_aggregate".length)) : undefined;
      if (aggComputed?.returns.kind === "table" && typeof v === "object") {
        const target = ctx.model.tables.get(aggComputed.returns.table)!;
        const call = { field: aggComputed, table: t, args: new Map() };
        const filter = targetFilter(ctx, target);
        for (const [op, spec] of Object.entries(v as Record<string, unknown>)) {
          if (spec === undefined || spec === null) continue;
          if (op === "count") {
            const [d, n] = direction(spec, ctx.path);
            items.push({ target: wrap({ kind: "computed_aggregate", call, target, filter, op: "count" }), direction: d, nulls: n });
          } else if (AGG_OPS.has(op) && typeof spec === "object") {
            for (const [col, dir] of Object.entries(spec as Record<string, unknown>)) {
              const column = target.field.get(col);
              if (!column) throw new RequestError("validation-failed", `field '${col}' not found in type: '${target.typeName}_${op}_order_by'`, ctx.path);
              const [d, n] = direction(dir, ctx.path);
              items.push({ target: wrap({ kind: "computed_aggregate", call, target, filter, op: op as AggregateOp, column }), direction: d, nulls: n });
            }
          } else throw new RequestError("validation-failed", `field '${op}' not found in type: '${target.typeName}_aggregate_order_by'`, ctx.path);
        }
        continue;
      }
      const aggRel = key.endsWith("_aggregate") ? t.relationships.get(key.slice(0, -"_aggregate".length)) : undefined;
      if (aggRel && aggRel.kind === "array" && typeof v === "object") {
        const target = ctx.model.tables.get(aggRel.target)!;
        const filter = targetFilter(ctx, target);
        for (const [op, spec] of Object.entries(v as Record<string, unknown>)) {
          if (spec === undefined || spec === null) continue;
          if (op === "count") {
            const [d, n] = direction(spec, ctx.path);
            items.push({ target: wrap({ kind: "array_count", rel: aggRel, target, filter }), direction: d, nulls: n });
          } else if (AGG_OPS.has(op) && typeof spec === "object") {
            for (const [col, dir] of Object.entries(spec as Record<string, unknown>)) {
              const column = target.field.get(col);
              if (!column) throw new RequestError("validation-failed", `field '${col}' not found in type: '${target.typeName}_${op}_order_by'`, ctx.path);
              const [d, n] = direction(dir, ctx.path);
              items.push({ target: wrap({ kind: "array_aggregate", rel: aggRel, target, filter, op: op as AggregateOp, column }), direction: d, nulls: n });
            }
          } else throw new RequestError("validation-failed", `field '${op}' not found in type: '${target.typeName}_aggregate_order_by'`, ctx.path);
        }
        continue;
      }
      throw new RequestError("validation-failed", `field '${key}' not found in type: '${t.typeName}_order_by'`, ctx.path);
    }
  };
  for (const obj of list) if (obj && typeof obj === "object") walk(table, obj as Record<string, unknown>, (x) => x);
  return items;
}
