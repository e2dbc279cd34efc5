import type { ColumnModel, Model, RelationshipModel, TableModel } from "../metadata/model.ts";
import type { AggregateOutputField, BoolExp, OrderItem, OrderTarget, RowField, SelectIR } from "../plan/ir.ts";
import { mergeSelectPermission } from "../plan/merge.ts";
import { compileBoolExp, joinCondition } from "./boolexp.ts";
import { ident, nameLiteral, SqlBuilder } from "./builder.ts";
import { computedCall } from "./computed.ts";

/** The row a nested select belongs to: its rows are those the relationship joins (or the select's computed-field source returns). */
export interface Parent {
  readonly alias: string;
  readonly rel?: { readonly mapping: readonly (readonly [string, string])[] };
}

/** A column's value for JSON: numbers Postgres would print as JSON numbers become strings under --stringify-numeric-types. */
export function columnValue(b: SqlBuilder, c: ColumnModel, alias: string): string {
  const expr = `${alias}.${ident(c.name)}`;
  return b.options.stringifyNumericTypes && c.stringifiable ? `(${expr})::text` : expr;
}

/**
 * One row as a JSON object, keys in the order of the query. Object relationships are correlated subqueries
 * (one index lookup per row, see objectSubquery); array relationships and aggregates too.
 */
export function rowJson(b: SqlBuilder, model: Model, table: TableModel, fields: readonly RowField[], alias: string, reuse?: ReusedRows): string {
  // json_build_object (at most 100 arguments) costs no subplan per row; the same object, keys in the same order
  if (fields.length > 0 && fields.length <= 50) return `json_build_object(${fields.map((f) => `${nameLiteral(f.alias)}, ${fieldValue(b, model, table, f, alias, reuse)}`).join(", ")})`;
  const cols = fields.map((f) => `${fieldValue(b, model, table, f, alias, reuse)} as ${ident(f.alias)}`);
  const e = b.alias();
  return `(select row_to_json(${e}) from (select ${cols.join(", ")}) as ${e})`;
}

/**
 * Object relationships of a select's rows whose target row the base query already joined (for order_by through
 * the relationship, with the same permission filter): relationship name → that row, carried out of the base
 * query as one composite column. The object is built from it instead of a second lookup of the same row.
 */
type ReusedRows = ReadonlyMap<string, { readonly filter: BoolExp | null; use(): string }>;

function fieldValue(b: SqlBuilder, model: Model, _table: TableModel, f: RowField, alias: string, reuse?: ReusedRows): string {
  switch (f.kind) {
    case "typename":
      return nameLiteral(f.typename);
    case "column": {
      const v = f.jsonPath?.length ? `(${alias}.${ident(f.column.name)} #> ${b.param(f.jsonPath, "text[]")})` : columnValue(b, f.column, alias);
      return f.onlyWhere ? `case when ${compileBoolExp(b, f.onlyWhere, alias, model)} then ${v} end` : v;
    }
    case "object_rel": {
      const joined = reuse?.get(f.rel.name);
      if (joined && f.select.output.kind === "rows" && sameFilter(b, model, mergeSelectPermission(f.select.args, f.select.permission).where, joined.filter)) {
        const row = `(${joined.use()})`;
        return `case when ${row}.${ident(f.rel.mapping[0][1])} is not null then ${rowJson(b, model, f.select.table, f.select.output.fields, row)} end`;
      }
      if (f.select.output.kind === "rows" && f.rel.mapping.length) return objectSubquery(b, model, f.select, f.select.output.fields, alias, f.rel);
      return compileSelect(b, model, f.select, { alias, rel: f.rel });
    }
    case "array_rel":
    case "array_aggregate":
      return compileSelect(b, model, f.select, { alias, rel: f.rel });
    case "computed": {
      const v = computedCall(b, f.call, alias);
      return b.options.stringifyNumericTypes && f.call.field.returns.kind === "scalar" && f.call.field.returns.type.stringifiable ? `(${v})::text` : v;
    }
    case "computed_set":
      return compileSelect(b, model, f.select, { alias });
  }
}

/** Whether the relationship's target columns cover a primary key or unique constraint of the target: at most one row matches. */
function toUniqueKey(target: TableModel, rel: Pick<RelationshipModel, "mapping">): boolean {
  if (!rel.mapping.length) return false;
  const cols = new Set(rel.mapping.map(([, tgt]) => tgt));
  return target.uniqueConstraints.some((c) => c.columns.length > 0 && c.columns.every((x) => cols.has(x)));
}

/** Whether two filters are the same condition (compared as the SQL and parameters they compile to). */
function sameFilter(b: SqlBuilder, model: Model, x: BoolExp | null, y: BoolExp | null): boolean {
  const sql = (e: BoolExp | null) => {
    if (!e || e.kind === "true") return "true";
    const s = new SqlBuilder(b.options);
    return `${compileBoolExp(s, e, "x", model)} ${JSON.stringify(s.params)}`;
  };
  return sql(x) === sql(y);
}

/** The top-level conjuncts of a filter. */
function conjuncts(e: BoolExp): BoolExp[] {
  return e.kind === "and" ? e.items.flatMap(conjuncts) : e.kind === "true" ? [] : [e];
}

/**
 * An object relationship as a correlated subquery (target where key = parent.fk and <target's permission filter>
 * limit 1): the object, or null when no row matches. One index lookup per returned row; as a subplan it is planned
 * once, where a left join lateral per relationship made the planner weigh join orders on every request.
 */
function objectSubquery(b: SqlBuilder, model: Model, ir: SelectIR, fields: readonly RowField[], parent: string, rel: Pick<RelationshipModel, "mapping">): string {
  const x = b.alias();
  const { where } = mergeSelectPermission(ir.args, ir.permission);
  const filter = compileBoolExp(b, where, x, model);
  return `(select ${rowJson(b, model, ir.table, fields, x)} from ${b.source(ir.table)} as ${x} where ${joinCondition(rel, parent, x)}${filter === "true" ? "" : ` and ${filter}`} limit 1)`;
}

/** The columns of `table` that SQL text names through any of `aliases` ("_1"."name"): what a base query must project. */
function namedColumns(table: TableModel, aliases: readonly string[], sql: readonly string[]): string[] {
  const found = new Set<string>();
  const text = sql.join(" ");
  for (const alias of aliases) {
    const prefix = `${alias}."`;
    for (let i = text.indexOf(prefix); i >= 0; i = text.indexOf(prefix, i + 1)) {
      // an identifier runs to the next lone double quote ("" is a quote inside it)
      let j = i + prefix.length;
      let name = "";
      while (j < text.length) {
        if (text[j] === '"' && text[j + 1] === '"') (name += '"'), (j += 2);
        else if (text[j] === '"') break;
        else name += text[j++];
      }
      if (table.column.has(name)) found.add(name);
    }
  }
  return [...found];
}

/** Left joins for order_by through object relationships, one per relationship path. */
interface OrderJoins {
  readonly joins: string[];
  readonly seen: Map<string, string>;
  /** The joins of the select's own rows (not nested ones): relationship name → alias, target's permission filter. */
  readonly direct: Map<string, { readonly alias: string; readonly rel: RelationshipModel; readonly filter: BoolExp | null }>;
  /** The alias of the select's own rows. */
  readonly base: string;
}

function orderExpr(b: SqlBuilder, model: Model, target: OrderTarget, alias: string, oj?: OrderJoins): string {
  switch (target.kind) {
    case "column":
      return `${alias}.${ident(target.column.name)}`;
    case "computed":
      return computedCall(b, target.call, alias);
    case "object_rel": {
      if (oj && toUniqueKey(target.target, target.rel)) {
        const key = `${alias}.${target.rel.name}`;
        let inner = oj.seen.get(key);
        if (!inner) {
          inner = b.alias();
          const filter = target.filter ? ` and ${compileBoolExp(b, target.filter, inner, model)}` : "";
          oj.joins.push(`left join ${b.source(target.target)} as ${inner} on ${joinCondition(target.rel, alias, inner)}${filter}`);
          oj.seen.set(key, inner);
          if (alias === oj.base) oj.direct.set(target.rel.name, { alias: inner, rel: target.rel, filter: target.filter });
        }
        return orderExpr(b, model, target.then, inner, oj);
      }
      const inner = b.alias();
      const filter = target.filter ? ` and ${compileBoolExp(b, target.filter, inner, model)}` : "";
      return `(select ${orderExpr(b, model, target.then, inner)} from ${b.source(target.target)} as ${inner} where ${joinCondition(target.rel, alias, inner)}${filter} limit 1)`;
    }
    case "computed_aggregate": {
      const inner = b.alias();
      const filter = target.filter ? ` where ${compileBoolExp(b, target.filter, inner, model)}` : "";
      const agg = target.column ? `${aggregateFunction(target.op)}(${inner}.${ident(target.column.name)})` : "count(*)";
      return `(select ${agg} from ${computedCall(b, target.call, alias)} as ${inner}${filter})`;
    }
    case "array_count":
    case "array_aggregate": {
      const inner = b.alias();
      const filter = target.filter ? ` and ${compileBoolExp(b, target.filter, inner, model)}` : "";
      const agg = target.kind === "array_count" ? "count(*)" : `${aggregateFunction(target.op)}(${inner}.${ident(target.column.name)})`;
      return `(select ${agg} from ${b.source(target.target)} as ${inner} where ${joinCondition(target.rel, alias, inner)}${filter})`;
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
 * or an aggregate object. Two levels: the base rows (filter, order — through object relationships by left
 * joins —, distinct on, limit, offset; only the columns used above it) in an inner subquery, then the JSON built
 * for those rows only. Relationships are correlated subqueries on the row.
 *
 * Limits: the caller's limit, the role's limit and the request's row cap (non-admins) bound the rows returned;
 * when aggregates are computed, as in Hasura, only the caller's limit bounds the rows they see, and the role's
 * limit and the row cap bound `nodes` alone.
 */
export function compileSelect(b: SqlBuilder, model: Model, ir: SelectIR, parent?: Parent, options: { root?: boolean } = {}): string {
  const a = b.alias();
  const single = ir.output.kind === "rows" && ir.output.single;
  const { where, limit: merged } = mergeSelectPermission(ir.args, ir.permission, single ? undefined : b.options.rowCap);
  const computesAggregates = ir.output.kind === "aggregate" && ir.output.fields.some((f) => f.kind === "aggregate");
  const limit = computesAggregates ? ir.args.limit : merged;
  const nodesLimit = computesAggregates && merged !== undefined && merged !== ir.args.limit ? merged : undefined;
  const order: OrderItem[] = ir.args.orderBy.length
    ? [...ir.args.orderBy]
    : (ir.args.distinctOn ?? []).map((column) => ({ target: { kind: "column", column } as OrderTarget, direction: "asc", nulls: "last" }) as OrderItem);
  const oj: OrderJoins = { joins: [], seen: new Map(), direct: new Map(), base: a };
  const orderCols = order.map((o, i) => `${orderExpr(b, model, o.target, a, oj)} as ${ident(`__o${i}`)}`);
  const conjunctList = conjuncts(where);
  const folded = conjunctList.map((c) => foldedFilter(b, model, c, oj));
  const conditions = folded.some((f) => f !== undefined) ? conjunctList.map((c, i) => folded[i] ?? compileBoolExp(b, c, a, model)) : [compileBoolExp(b, where, a, model)];
  if (parent?.rel) conditions.unshift(joinCondition(parent.rel, parent.alias, a));
  const from = ir.source && parent ? computedCall(b, ir.source, parent.alias) : b.source(ir.table);
  // the planner checked that the distinct_on columns are the leading order_by items (or the whole order): name those outputs
  const distinct = ir.args.distinctOn ? `distinct on (${ir.args.distinctOn.map((_, i) => ident(`__o${i}`)).join(", ")}) ` : "";
  const orderBy = order.length ? ` order by ${order.map((o, i) => `${ident(`__o${i}`)}${orderSuffix(o)}`).join(", ")}` : "";
  const limited = single || limit !== undefined;
  const page =
    (single ? " limit 1" : limit !== undefined ? ` limit ${b.param(limit, "bigint")}` : "") + (ir.args.offset ? ` offset ${b.param(ir.args.offset, "bigint")}` : "");
  // rows joined for order_by that an object field of the row can reuse (carried out of the base query as a composite column)
  const carried: string[] = [];
  const reuse = new Map<string, { filter: BoolExp | null; use(): string }>();
  for (const [name, j] of oj.direct) {
    // a column of the table named like the join's alias would shadow the whole-row reference
    if (ir.table.column.has(j.alias.slice(1, -1))) continue;
    let column: string | undefined;
    reuse.set(name, {
      filter: j.filter,
      use: () => {
        if (!column) carried.push(`${j.alias} as ${(column = ident(`__r${carried.length}`))}`);
        return `${a}.${column}`;
      },
    });
  }
  const e = b.alias();
  const aggOrder = order.length ? ` order by ${order.map((o, i) => `${e}.${ident(`__o${i}`)}${orderSuffix(o)}`).join(", ")}` : "";
  // The base projects only the columns the rest of the statement names (a wide row costs in the sort, the CTE and each subplan).
  const base = (columns: readonly string[]) => {
    const projection = [...columns.map((c) => `${a}.${ident(c)}`), ...orderCols, ...carried].join(", ");
    return `select ${distinct}${projection}${projection ? " " : ""}from ${from} as ${a}${oj.joins.map((j) => ` ${j}`).join("")} where ${conditions.join(" and ")}${orderBy}${page}`;
  };
  // A root list with order and limit: its rows as a materialized CTE, planned on their own. In a subquery the planner
  // weighs the base's paths with the per-row cost of the JSON built over them, and a parallel sort's (under-)estimated
  // row count then wins over an index scan (a seq scan of the table and worker start-up on every request).
  const source = (columns: readonly string[]) =>
    options.root && b.options.materializeRootLists && order.length && limited && !single ? b.cte(base(columns)) : `(${base(columns)})`;

  if (ir.output.kind === "rows") {
    const row = rowJson(b, model, ir.table, ir.output.fields, a, reuse);
    const from = `from ${source(namedColumns(ir.table, [a], [row]))} as ${a}`;
    if (single) return `(select ${row} ${from})`;
    const inner = `select ${[`${row} as "__j"`, ...order.map((_, i) => `${a}.${ident(`__o${i}`)}`)].join(", ")} ${from}`;
    return `(select coalesce(json_agg(${e}."__j"${aggOrder}), '[]'::json) from (${inner}) as ${e})`;
  }
  const nodeFields = ir.output.fields.flatMap((n) => (n.kind === "nodes" ? [n] : []));
  const nodeCols = nodeFields.map((n, i) => `${rowJson(b, model, ir.table, n.fields, a, reuse)} as ${ident(`__j${i}`)}`);
  const cap = nodesLimit !== undefined && nodeFields.length ? b.param(nodesLimit, "int") : undefined;
  let nodeIndex = 0;
  const parts = ir.output.fields.map((f) => `${nameLiteral(f.alias)}, ${aggregatePart(b, f, e, aggOrder, () => nodeIndex++, cap)}`);
  const columns = namedColumns(ir.table, [a, e], [...nodeCols, ...parts]);
  const inner = nodeCols.length ? `select ${[`${a}.*`, ...nodeCols].join(", ")} from ${source(columns)} as ${a}` : base(columns);
  return `(select json_build_object(${parts.join(", ")}) from (${inner}) as ${e})`;
}

/**
 * A filter through an object relationship (`{lesson: {classId: …}}`, a top-level conjunct) whose target row the
 * select joins anyway for order_by: tested on that joined row instead of an EXISTS over a second lookup of the
 * same table. The same condition: the relationship reaches a unique key (at most one target row), the joined
 * row is that row when the join's filter (the target's select permission) holds, and the EXISTS's own filter
 * includes that permission (so a row the join dropped could not have satisfied it). Undefined when not applicable.
 */
function foldedFilter(b: SqlBuilder, model: Model, c: BoolExp, oj: OrderJoins): string | undefined {
  if (c.kind !== "relationship" || c.rel.kind !== "object") return undefined;
  const j = oj.direct.get(c.rel.name);
  if (!j || !toUniqueKey(c.target, c.rel)) return undefined;
  const have = conjuncts(c.where);
  if (j.filter && !conjuncts(j.filter).every((f) => have.some((x) => sameFilter(b, model, x, f)))) return undefined;
  return `(${j.alias}.${ident(c.rel.mapping[0][1])} is not null and ${compileBoolExp(b, c.where, j.alias, model)})`;
}

function aggregatePart(b: SqlBuilder, f: AggregateOutputField, e: string, aggOrder: string, nextNode: () => number, cap?: string): string {
  if (f.kind === "typename") return nameLiteral(f.typename);
  if (f.kind === "nodes") {
    const col = `${e}.${ident(`__j${nextNode()}`)}`;
    // the role's limit or the row cap, on nodes only: the first `cap` rows in order
    return cap ? `coalesce(array_to_json((array_agg(${col}${aggOrder}))[1:${cap}]), '[]'::json)` : `coalesce(json_agg(${col}${aggOrder}), '[]'::json)`;
  }
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
