import type { ColumnModel, Model, RelationshipModel, TableModel } from "../metadata/model.ts";
import { qualifiedTable, tableKey, type QualifiedTable } from "../metadata/types.ts";
import { RequestError } from "../errors.ts";
import type { AggregatePredicate, AggregatePredicateFunction, AggregatePredicateOp, BoolExp, ComparisonOp, ComputedCall, Value } from "./ir.ts";
import { needsArguments } from "../metadata/computed-fields.ts";
import { followsRelationship, seesComputedField, type Access } from "./permissions.ts";

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

/** `column = literal` or `column <> literal`, the literal a plain value (not null, not JSON). */
const plainLiteral = (e: BoolExp): e is Extract<BoolExp, { kind: "compare" }> & { value: { kind: "literal" } } =>
  e.kind === "compare" && !e.computed && !e.castToText && (e.op === "_eq" || e.op === "_neq") && e.value.kind === "literal" && e.value.value !== null && typeof e.value.value !== "object";

/**
 * `c = v or c <> v …` is `c is not null or …`, and true when c cannot be null. The union of a role's rules reads like
 * that (front_desk's users: one rule for `type <> 'student'`, one for `type = 'student'`), and PostgreSQL would test
 * both comparisons on every row of a list.
 */
function simplifiedOr(items: BoolExp[]): BoolExp {
  for (let i = 0; i < items.length; i++) {
    const a = items[i];
    if (!plainLiteral(a)) continue;
    const j = items.findIndex((b, k) => k !== i && plainLiteral(b) && b.column === a.column && b.op !== a.op && b.value.value === a.value.value);
    if (j < 0) continue;
    if (!a.column.nullable) return { kind: "true" };
    const notNull: BoolExp = { kind: "compare", column: a.column, castToText: false, op: "_is_null", value: { kind: "literal", value: false } };
    const rest = items.filter((_, k) => k !== i && k !== j);
    return rest.length ? { kind: "or", items: [notNull, ...rest] } : notNull;
  }
  return { kind: "or", items };
}

/**
 * Permission filters name any column as the database does; a caller's where (order_by, distinct_on…) by its GraphQL
 * name, only one the role sees on every row (the schema's inputs hold no other; this holds for any input that reached here).
 */
export function columnNamed(ctx: BoolExpContext, table: TableModel, name: string): ColumnModel | undefined {
  if (!ctx.access) return table.column.get(name);
  const column = table.field.get(name);
  return column && ctx.access.select(table)?.filterable.has(column.name) ? column : undefined;
}

/** A relationship by name: permission filters follow any; a caller only one its role may follow (see followsRelationship). */
export function relationshipNamed(ctx: BoolExpContext, table: TableModel, name: string): RelationshipModel | undefined {
  const rel = table.relationships.get(name);
  return rel && (!ctx.access || followsRelationship(ctx.access, ctx.model, table, rel)) ? rel : undefined;
}

/**
 * A computed field used in a filter, applied to the row: permission filters may use any (Hasura's rule); a caller's
 * where only those the role sees — a scalar one granted to it, one returning a table it may read — and needing no argument.
 */
export function computedFieldNamed(ctx: BoolExpContext, table: TableModel, name: string): ComputedCall | undefined {
  const field = table.computedFields.get(name);
  if (!field || (ctx.access && (!seesComputedField(ctx.access, ctx.model, table, field) || needsArguments(field)))) return undefined;
  return { field, table, args: new Map() };
}

/** Where an expression sits: its root table (what `["$", "column"]` names) and how many nested tables down from it. */
interface Scope {
  readonly root: TableModel;
  readonly depth: number;
}

/** A where / filter / check in Hasura's JSON form → the plan's BoolExp. */
export function parseBoolExp(ctx: BoolExpContext, table: TableModel, json: unknown, scope: Scope = { root: table, depth: 0 }): BoolExp {
  if (!isObject(json)) return { kind: "true" };
  const nested: Scope = { root: scope.root, depth: scope.depth + 1 };
  const permission = !ctx.access;
  const items: BoolExp[] = [];
  for (const [rawKey, raw] of Object.entries(json)) {
    if (raw === undefined) continue;
    // Older metadata spells operators with "$" ($or, $eq, …).
    const key = permission && rawKey.startsWith("$") ? `_${rawKey.slice(1)}` : rawKey;
    if (key === "_and" || key === "_or") {
      const list = asList(raw).map((x) => parseBoolExp(ctx, table, x, scope));
      if (key === "_and") items.push(list.length ? { kind: "and", items: list } : { kind: "true" });
      else items.push(list.length ? simplifiedOr(list) : { kind: "true" });
      continue;
    }
    if (key === "_not") {
      if (isObject(raw)) items.push({ kind: "not", item: parseBoolExp(ctx, table, raw, scope) });
      continue;
    }
    if (key === "_exists" && permission && isObject(raw)) {
      const target = ctx.model.tables.get(tableKey(qualifiedTable(raw._table as QualifiedTable)));
      if (!target) throw new RequestError("not-exists", `table ${JSON.stringify(raw._table)} is not tracked`, ctx.path);
      items.push({ kind: "exists", table: target, where: parseBoolExp(ctx, target, raw._where, nested) });
      continue;
    }
    const rel = relationshipNamed(ctx, table, key);
    if (rel) {
      const target = ctx.model.tables.get(rel.target)!;
      const inner = parseBoolExp(ctx, target, raw, nested);
      const filter = targetFilter(ctx, target);
      items.push({ kind: "relationship", rel, target, where: filter ? { kind: "and", items: [filter, inner] } : inner });
      continue;
    }
    const aggregated = key.endsWith("_aggregate") && !columnNamed(ctx, table, key) ? relationshipNamed(ctx, table, key.slice(0, -"_aggregate".length)) : undefined;
    if (aggregated?.kind === "array") {
      if (raw !== null) items.push(parseAggregatePredicate(ctx, table, aggregated, key, raw, nested));
      continue;
    }
    const computed = computedFieldNamed(ctx, table, key);
    if (computed?.field.returns.kind === "table") {
      const target = ctx.model.tables.get(computed.field.returns.table)!;
      const inner = parseBoolExp(ctx, target, raw, nested);
      const filter = targetFilter(ctx, target);
      items.push({ kind: "computed_set", call: computed, target, where: filter ? { kind: "and", items: [filter, inner] } : inner });
      continue;
    }
    const column = computed?.field.returns.kind === "scalar" ? computed.field.returns.type : columnNamed(ctx, table, key);
    if (!column) throw new RequestError("validation-failed", `field '${key}' not found in type: '${table.typeName}_bool_exp'`, ctx.path);
    const on = computed ? { computed } : {};
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
            items.push({ kind: "compare", column, ...on, castToText: true, op: o as ComparisonOp, value: valueOf(cv, permission) });
          }
        }
        continue;
      }
      if (COLUMN_OPS[opName] && !computed) {
        // ["$", "column"]: a column of the root table (the permission's own table, or the query's), else of this one
        const atRoot = Array.isArray(v) && v.length === 2 && v[0] === "$";
        const otherName = Array.isArray(v) ? v[v.length - 1] : v;
        const other = columnNamed(ctx, atRoot ? scope.root : table, String(otherName));
        if (!other) throw new RequestError("validation-failed", `no such column: ${JSON.stringify(otherName)}`, ctx.path);
        items.push({ kind: "compare_column", column, op: COLUMN_OPS[opName], other, up: atRoot ? scope.depth : 0 });
        continue;
      }
      if (!OPS.has(opName)) throw new RequestError("validation-failed", `field '${opName}' not found in type: '${column.scalar}_comparison_exp'`, ctx.path);
      const value = (opName === "_in" || opName === "_nin" || opName === "_has_keys_any" || opName === "_has_keys_all") && !Array.isArray(v) && !(permission && typeof v === "string" && /^x-hasura-/i.test(v)) ? [v] : v;
      items.push({ kind: "compare", column, ...on, castToText: false, op: opName as ComparisonOp, value: valueOf(value, permission) });
    }
  }
  return items.length === 0 ? { kind: "true" } : items.length === 1 ? items[0] : { kind: "and", items };
}

const AGGREGATE_FUNCTIONS = new Set<string>(["count", "bool_and", "bool_or"]);
const AGGREGATE_OPS = new Set<string>(["_eq", "_neq", "_gt", "_lt", "_gte", "_lte", "_in", "_nin", "_is_null"]);

/**
 * `rel_aggregate: {count: {arguments, distinct, filter, predicate}}` (Hasura's aggregation predicates): exactly one
 * aggregate per field. In a caller's where the role needs aggregations on the target (else the field does not exist),
 * and the aggregate runs over the target rows its select permission shows; permission filters, like relationship
 * filters there, see every related row.
 */
function parseAggregatePredicate(ctx: BoolExpContext, table: TableModel, rel: RelationshipModel, key: string, raw: unknown, scope: Scope): AggregatePredicate {
  const target = ctx.model.tables.get(rel.target)!;
  const permission = !ctx.access;
  const sel = ctx.access?.select(target);
  if (ctx.access && !sel?.allowAggregations) throw new RequestError("validation-failed", `field '${key}' not found in type: '${table.typeName}_bool_exp'`, ctx.path);
  const typeName = `${target.typeName}_aggregate_bool_exp`;
  if (!isObject(raw)) throw new RequestError("validation-failed", `expected an object for type '${typeName}', but found ${JSON.stringify(raw)}`, ctx.path);
  const given = Object.entries(raw).filter(([, v]) => v !== undefined && v !== null);
  if (given.length !== 1) throw new RequestError("validation-failed", "exactly one predicate should be specified", ctx.path);
  const [fnName, body] = given[0];
  if (!AGGREGATE_FUNCTIONS.has(fnName)) throw new RequestError("validation-failed", `field '${fnName}' not found in type: '${typeName}'`, ctx.path);
  const fn = fnName as AggregatePredicateFunction;
  const fnType = `${typeName}_${fn}`;
  if (!isObject(body)) throw new RequestError("validation-failed", `expected an object for type '${fnType}', but found ${JSON.stringify(body)}`, ctx.path);
  for (const k of Object.keys(body)) {
    if (!["arguments", "distinct", "filter", "predicate"].includes(k)) throw new RequestError("validation-failed", `field '${k}' not found in type: '${fnType}'`, ctx.path);
  }
  const columns = asList(body.arguments).map((name) => {
    const c = columnNamed(ctx, target, String(name));
    if (!c || (fn !== "count" && c.udt !== "bool")) throw new RequestError("validation-failed", `unexpected value ${JSON.stringify(name)} for the arguments of '${fnType}'`, ctx.path);
    return c;
  });
  if (fn !== "count" && columns.length !== 1) throw new RequestError("validation-failed", `missing required field 'arguments' in '${fnType}'`, ctx.path);
  if (!isObject(body.predicate)) throw new RequestError("validation-failed", `missing required field 'predicate' in '${fnType}'`, ctx.path);
  const predicate: { op: AggregatePredicateOp; value: Value }[] = [];
  for (const [op, v] of Object.entries(body.predicate)) {
    if (!AGGREGATE_OPS.has(op)) throw new RequestError("validation-failed", `field '${op}' not found in type: '${fn === "count" ? "Int" : "Boolean"}_comparison_exp'`, ctx.path);
    if (v === undefined || v === null) continue; // Hasura v2 drops null comparisons
    const value = (op === "_in" || op === "_nin") && !Array.isArray(v) && !(permission && typeof v === "string" && /^x-hasura-/i.test(v)) ? [v] : v;
    predicate.push({ op: op as AggregatePredicateOp, value: valueOf(value, permission) });
  }
  const filter = isObject(body.filter) ? parseBoolExp(ctx, target, body.filter, scope) : null;
  const perm = targetFilter(ctx, target);
  const parts = [perm, filter].filter((x): x is BoolExp => !!x && x.kind !== "true");
  const where: BoolExp = parts.length === 0 ? { kind: "true" } : parts.length === 1 ? parts[0] : { kind: "and", items: parts };
  return { kind: "aggregate_predicate", rel, target, fn, columns, distinct: body.distinct === true || body.distinct === "true", where, predicate };
}
