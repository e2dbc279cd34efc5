import type { ColumnModel, Model, TableModel } from "../metadata/model.ts";
import { RequestError } from "../errors.ts";
import type { AggregateOp } from "../schema/fields.ts";
import type { Direction, Nulls, OrderItem, OrderTarget } from "./ir.ts";
import { columnNamed, computedFieldNamed, relationshipNamed, targetFilter, type BoolExpContext } from "./boolexp.ts";

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

type Aggregate = { readonly op: "count"; readonly column?: undefined } | { readonly op: AggregateOp; readonly column: ColumnModel };

/** An aggregate order_by (`{count: desc, max: {col: asc}}`) over `target`'s rows: each aggregate with its direction, in the order given. */
function aggregateOrder(ctx: BoolExpContext, target: TableModel, spec: Record<string, unknown>, path: string): { of: Aggregate; direction: Direction; nulls: Nulls }[] {
  const out: { of: Aggregate; direction: Direction; nulls: Nulls }[] = [];
  for (const [op, value] of Object.entries(spec)) {
    if (value === undefined || value === null) continue;
    if (op === "count") {
      const [d, n] = direction(value, path);
      out.push({ of: { op: "count" }, direction: d, nulls: n });
    } else if (AGG_OPS.has(op) && typeof value === "object") {
      for (const [col, dir] of Object.entries(value as Record<string, unknown>)) {
        const column = columnNamed(ctx, target, col);
        if (!column) throw new RequestError("validation-failed", `field '${col}' not found in type: '${target.typeName}_${op}_order_by'`, path);
        const [d, n] = direction(dir, path);
        out.push({ of: { op: op as AggregateOp, column }, direction: d, nulls: n });
      }
    } else throw new RequestError("validation-failed", `field '${op}' not found in type: '${target.typeName}_aggregate_order_by'`, path);
  }
  return out;
}

/** order_by: a list (or one) of objects whose keys are read in the order given. Empty objects are ignored. */
export function parseOrderBy(ctx: BoolExpContext & { model: Model }, table: TableModel, json: unknown): OrderItem[] {
  const items: OrderItem[] = [];
  const list = Array.isArray(json) ? json : json ? [json] : [];
  const walk = (t: TableModel, obj: Record<string, unknown>, wrap: (x: OrderTarget) => OrderTarget) => {
    for (const [key, v] of Object.entries(obj)) {
      if (v === undefined || v === null) continue;
      const column = columnNamed(ctx, t, key);
      if (column) {
        const [d, n] = direction(v, ctx.path);
        items.push({ target: wrap({ kind: "column", column }), direction: d, nulls: n });
        continue;
      }
      const computed = computedFieldNamed(ctx, t, key);
      if (computed?.field.returns.kind === "scalar") {
        const [d, n] = direction(v, ctx.path);
        items.push({ target: wrap({ kind: "computed", call: computed }), direction: d, nulls: n });
        continue;
      }
      const rel = relationshipNamed(ctx, t, key);
      if (rel && rel.kind === "object" && typeof v === "object") {
        const target = ctx.model.tables.get(rel.target)!;
        const filter = targetFilter(ctx, target);
        walk(target, v as Record<string, unknown>, (inner) => wrap({ kind: "object_rel", rel, target, filter, then: inner }));
        continue;
      }
      // `<array relationship or table-valued computed field>_aggregate: {count, max: {column}, …}`
      const aggregated = key.endsWith("_aggregate") && typeof v === "object" ? key.slice(0, -"_aggregate".length) : undefined;
      const aggComputed = aggregated === undefined ? undefined : computedFieldNamed(ctx, t, aggregated);
      if (aggComputed?.field.returns.kind === "table") {
        const target = ctx.model.tables.get(aggComputed.field.returns.table)!;
        const filter = targetFilter(ctx, target);
        for (const a of aggregateOrder(ctx, target, v as Record<string, unknown>, ctx.path)) {
          items.push({ target: wrap({ kind: "computed_aggregate", call: aggComputed, target, filter, ...a.of }), direction: a.direction, nulls: a.nulls });
        }
        continue;
      }
      const aggRel = aggregated === undefined ? undefined : relationshipNamed(ctx, t, aggregated);
      if (aggRel?.kind === "array") {
        const target = ctx.model.tables.get(aggRel.target)!;
        const filter = targetFilter(ctx, target);
        for (const { of, direction: d, nulls: n } of aggregateOrder(ctx, target, v as Record<string, unknown>, ctx.path)) {
          const over: OrderTarget = of.op === "count" ? { kind: "array_count", rel: aggRel, target, filter } : { kind: "array_aggregate", rel: aggRel, target, filter, op: of.op, column: of.column };
          items.push({ target: wrap(over), direction: d, nulls: n });
        }
        continue;
      }
      throw new RequestError("validation-failed", `field '${key}' not found in type: '${t.typeName}_order_by'`, ctx.path);
    }
  };
  for (const obj of list) if (obj && typeof obj === "object") walk(table, obj as Record<string, unknown>, (x) => x);
  return items;
}
