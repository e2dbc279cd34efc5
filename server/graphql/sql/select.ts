import type { ColumnModel, Model, TableModel } from "../metadata/model.ts";
import type { AggregateOutputField, OrderItem, OrderTarget, RowField, SelectIR } from "../plan/ir.ts";
import { mergeSelectPermission } from "../plan/merge.ts";
import { compileBoolExp, joinCondition } from "./boolexp.ts";
import { ident, nameLiteral, tableRef, type SqlBuilder } from "./builder.ts";

export interface Parent {
  readonly alias: string;
  readonly rel: { readonly mapping: readonly (readonly [string, string])[] };
}

/** A column's value for JSON: numbers Postgres would print as JSON numbers become strings under --stringify-numeric-types. */
export function columnValue(b: SqlBuilder, c: ColumnModel, alias: string): string {
  const expr = `${alias}.${ident(c.name)}`;
  return b.options.stringifyNumericTypes && c.stringifiable ? `(${expr})::text` : expr;
}

/** One row as a JSON object, keys in the order of the query: row_to_json over a one-row select with the aliases as column names. */
export function rowJson(b: SqlBuilder, model: Model, table: TableModel, fields: readonly RowField[], alias: string): string {
  const cols = fields.map((f) => `${fieldValue(b, model, table, f, alias)} as ${ident(f.alias)}`);
  const e = b.alias();
  return `(select row_to_json(${e}) from (select ${cols.join(", ")}) as ${e})`;
}

function fieldValue(b: SqlBuilder, model: Model, _table: TableModel, f: RowField, alias: string): string {
  switch (f.kind) {
    case "typename":
      return nameLiteral(f.typename);
    case "column": {
      const v = f.jsonPath?.length ? `(${alias}.${ident(f.column.name)} #> ${b.param(f.jsonPath, "text[]")})` : columnValue(b, f.column, alias);
      return f.onlyWhere ? `case when ${compileBoolExp(b, f.onlyWhere, alias, model)} then ${v} end` : v;
    }
    case "object_rel":
    case "array_rel":
    case "array_aggregate":
      return compileSelect(b, model, f.select, { alias, rel: f.rel });
  }
}

function orderExpr(b: SqlBuilder, model: Model, target: OrderTarget, alias: string): string {
  switch (target.kind) {
    case "column":
      return `${alias}.${ident(target.column.name)}`;
    case "object_rel": {
      const inner = b.alias();
      const filter = target.filter ? ` and ${compileBoolExp(b, target.filter, inner, model)}` : "";
      return `(select ${orderExpr(b, model, target.then, inner)} from ${tableRef(target.target)} as ${inner} where ${joinCondition(target.rel, alias, inner)}${filter} limit 1)`;
    }
    case "array_count":
    case "array_aggregate": {
      const inner = b.alias();
      const filter = target.filter ? ` and ${compileBoolExp(b, target.filter, inner, model)}` : "";
      const agg = target.kind === "array_count" ? "count(*)" : `${aggregateFunction(target.op)}(${inner}.${ident(target.column.name)})`;
      return `(select ${agg} from ${tableRef(target.target)} as ${inner} where ${joinCondition(target.rel, alias, inner)}${filter})`;
    }
  }
}

function aggregateFunction(op: string): string {
  if (!/^[a-z_]+$/.test(op)) throw new Error(`bad aggregate ${op}`);
  return op;
}

const orderSuffix = (o: OrderItem) => ` ${o.direction} nulls ${o.nulls}`;

/**
 * One select as an SQL expression yielding JSON: a list (json_agg), one row (object relationship, *_by_pk),
 * or an aggregate object. Nested relationships are correlated subqueries on the parent alias.
 */
export function compileSelect(b: SqlBuilder, model: Model, ir: SelectIR, parent?: Parent): string {
  const a = b.alias();
  const { where, limit } = mergeSelectPermission(ir.args, ir.permission, ir.output.kind === "rows" && ir.output.single ? undefined : b.options.rowCap);
  const conditions = [compileBoolExp(b, where, a, model)];
  if (parent) conditions.unshift(joinCondition(parent.rel, parent.alias, a));
  const from = `from ${tableRef(ir.table)} as ${a} where ${conditions.join(" and ")}`;
  const order: OrderItem[] = ir.args.orderBy.length
    ? [...ir.args.orderBy]
    : (ir.args.distinctOn ?? []).map((column) => ({ target: { kind: "column", column } as OrderTarget, direction: "asc", nulls: "last" }) as OrderItem);
  const orderCols = order.map((o, i) => `${orderExpr(b, model, o.target, a)} as ${ident(`__o${i}`)}`);
  const distinct = ir.args.distinctOn ? `distinct on (${ir.args.distinctOn.map((c) => `${a}.${ident(c.name)}`).join(", ")}) ` : "";
  const orderBy = order.length ? ` order by ${order.map((o, i) => `${ident(`__o${i}`)}${orderSuffix(o)}`).join(", ")}` : "";
  const page = (single: boolean) =>
    (single ? " limit 1" : limit !== undefined ? ` limit ${b.param(limit, "bigint")}` : "") + (ir.args.offset ? ` offset ${b.param(ir.args.offset, "bigint")}` : "");
  const e = b.alias();
  const aggOrder = order.length ? ` order by ${order.map((o, i) => `${e}.${ident(`__o${i}`)}${orderSuffix(o)}`).join(", ")}` : "";

  if (ir.output.kind === "rows") {
    const row = rowJson(b, model, ir.table, ir.output.fields, a);
    if (ir.output.single) return `(select ${row} ${from}${page(true)})`;
    const inner = `select ${distinct}${[`${row} as "__j"`, ...orderCols].join(", ")} ${from}${orderBy}${page(false)}`;
    return `(select coalesce(json_agg(${e}."__j"${aggOrder}), '[]'::json) from (${inner}) as ${e})`;
  }
  const nodes = ir.output.fields.filter((f) => f.kind === "nodes");
  const nodeFields = nodes.length ? nodes.flatMap((n) => (n.kind === "nodes" ? [n] : [])) : [];
  const nodeCols = nodeFields.map((n, i) => `${rowJson(b, model, ir.table, n.fields, a)} as ${ident(`__j${i}`)}`);
  const inner = `select ${distinct}${[`${a}.*`, ...nodeCols, ...orderCols].join(", ")} ${from}${orderBy}${page(false)}`;
  let nodeIndex = 0;
  const parts = ir.output.fields.map((f) => `${nameLiteral(f.alias)}, ${aggregatePart(b, f, e, aggOrder, () => nodeIndex++)}`);
  return `(select json_build_object(${parts.join(", ")}) from (${inner}) as ${e})`;
}

function aggregatePart(b: SqlBuilder, f: AggregateOutputField, e: string, aggOrder: string, nextNode: () => number): string {
  if (f.kind === "typename") return nameLiteral(f.typename);
  if (f.kind === "nodes") return `coalesce(json_agg(${e}.${ident(`__j${nextNode()}`)}${aggOrder}), '[]'::json)`;
  const parts = f.fields.map((x) => {
    if (x.kind === "typename") return `${nameLiteral(x.alias)}, ${nameLiteral(x.typename)}`;
    if (x.kind === "count") {
      const cols = x.columns.map((c) => `${e}.${ident(c.name)}`);
      const arg = cols.length === 0 ? "*" : cols.length === 1 ? cols[0] : `row(${cols.join(", ")})`;
      return `${nameLiteral(x.alias)}, count(${x.distinct && cols.length ? "distinct " : ""}${arg})`;
    }
    const cols = x.columns.map((c) => {
      if (!c.column) return `${nameLiteral(c.alias)}, ${nameLiteral(c.typename!)}`;
      const expr = `${aggregateFunction(x.op)}(${e}.${ident(c.column.name)})`;
      const keepsType = x.op === "max" || x.op === "min" || x.op === "sum";
      const value = !keepsType ? `(${expr})::float8` : b.options.stringifyNumericTypes && (c.column.stringifiable || (x.op === "sum" && c.column.udt === "int8")) ? `(${expr})::text` : expr;
      return `${nameLiteral(c.alias)}, ${value}`;
    });
    return `${nameLiteral(x.alias)}, json_build_object(${cols.join(", ")})`;
  });
  return `json_build_object(${parts.join(", ")})`;
}
