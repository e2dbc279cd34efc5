import type { TableModel } from "../metadata/model.ts";
import type { BoolExp, ComparisonOp } from "../plan/ir.ts";
import type { RelationshipModel } from "../metadata/model.ts";
import { castType, ident, type SqlBuilder } from "./builder.ts";
import { computedCall } from "./computed.ts";

const SIMPLE: Partial<Record<ComparisonOp, string>> = {
  _eq: "=", _neq: "<>", _gt: ">", _lt: "<", _gte: ">=", _lte: "<=",
  _like: "like", _nlike: "not like", _ilike: "ilike", _nilike: "not ilike", _similar: "similar to", _nsimilar: "not similar to",
  _regex: "~", _nregex: "!~", _iregex: "~*", _niregex: "!~*",
};
const TEXT_OPS = new Set<ComparisonOp>(["_like", "_nlike", "_ilike", "_nilike", "_similar", "_nsimilar", "_regex", "_nregex", "_iregex", "_niregex"]);

/** parent.src = child.tgt for every column pair of the relationship. */
export function joinCondition(rel: Pick<RelationshipModel, "mapping">, parent: string, child: string): string {
  return rel.mapping.map(([src, tgt]) => `${child}.${ident(tgt)} = ${parent}.${ident(src)}`).join(" and ") || "true";
}

/**
 * `outer`: the aliases of the rows this expression is nested in, outermost first (a compare_column may name one of
 * them, Hasura's ["$", column]).
 */
export function compileBoolExp(b: SqlBuilder, exp: BoolExp, alias: string, model: { tables: ReadonlyMap<string, TableModel> }, outer: readonly string[] = []): string {
  // the aliases a nested expression sees (built only where one nests or compares against an outer row)
  const scope = () => [...outer, alias];
  switch (exp.kind) {
    case "true":
      return "true";
    case "and":
      return exp.items.length ? `(${exp.items.map((e) => compileBoolExp(b, e, alias, model, outer)).join(" and ")})` : "true";
    case "or":
      return exp.items.length ? `(${exp.items.map((e) => compileBoolExp(b, e, alias, model, outer)).join(" or ")})` : "false";
    case "not":
      return `(not ${compileBoolExp(b, exp.item, alias, model, outer)})`;
    case "compare_column": {
      const op = SIMPLE[exp.op]!;
      const at = exp.up ? (outer[outer.length - exp.up] ?? alias) : alias;
      return `(${alias}.${ident(exp.column.name)} ${op} ${at}.${ident(exp.other.name)})`;
    }
    case "relationship": {
      const inner = b.alias();
      return `exists (select 1 from ${b.source(exp.target)} as ${inner} where ${joinCondition(exp.rel, alias, inner)} and ${compileBoolExp(b, exp.where, inner, model, scope())})`;
    }
    case "exists": {
      const inner = b.alias();
      return `exists (select 1 from ${b.source(exp.table)} as ${inner} where ${compileBoolExp(b, exp.where, inner, model, scope())})`;
    }
    case "computed_set": {
      const inner = b.alias();
      return `exists (select 1 from ${computedCall(b, exp.call, alias)} as ${inner} where ${compileBoolExp(b, exp.where, inner, model, scope())})`;
    }
    case "aggregate_predicate": {
      // Hasura's shape: exists (select <aggregate> from (<related rows>) as sub where <predicate on sub.agg>)
      const inner = b.alias();
      const sub = b.alias();
      const args = exp.columns.map((c) => `${inner}.${ident(c.name)}`);
      const distinct = exp.distinct && args.length ? "distinct " : "";
      const agg = exp.fn === "count" ? `count(${distinct}${args.length === 0 ? "*" : args.length === 1 ? args[0] : `row(${args.join(", ")})`})` : `${exp.fn === "bool_and" ? "bool_and" : "bool_or"}(${distinct}${args[0]})`;
      const rows = `select ${agg} as "agg" from ${b.source(exp.target)} as ${inner} where ${joinCondition(exp.rel, alias, inner)} and ${compileBoolExp(b, exp.where, inner, model, scope())}`;
      const type = exp.fn === "count" ? "bigint" : "boolean";
      const value = `${sub}."agg"`;
      const conditions = exp.predicate.map(({ op, value: v }) => {
        if (op === "_is_null") return `(${value} ${v.kind === "literal" && !(v.value === true || v.value === "true") ? "is not null" : "is null"})`;
        if (op === "_in") return `(${value} = any(${b.value(v, `${type}[]`)}))`;
        if (op === "_nin") return `(not (${value} = any(${b.value(v, `${type}[]`)})))`;
        return `(${value} ${SIMPLE[op]} ${b.value(v, type)})`;
      });
      return `exists (select 1 from (${rows}) as ${sub} where ${conditions.length ? conditions.join(" and ") : "true"})`;
    }
    case "compare": {
      const operand = exp.computed ? computedCall(b, exp.computed, alias) : `${alias}.${ident(exp.column.name)}`;
      const col = exp.castToText ? `(${operand})::text` : operand;
      const type = exp.castToText ? "text" : castType(exp.column);
      const v = exp.value;
      const op = exp.op;
      if (op === "_is_null") {
        const isNull = v.kind === "literal" ? v.value === true || v.value === "true" : true;
        return `(${col} ${isNull ? "is null" : "is not null"})`;
      }
      if (op === "_in" || op === "_nin") {
        const list = b.value(v, `${type}[]`);
        return op === "_in" ? `(${col} = any(${list}))` : `(not (${col} = any(${list})))`;
      }
      if (TEXT_OPS.has(op)) return `(${col} ${SIMPLE[op]} ${b.value(v, "text")})`;
      if (op === "_contains") return `(${col} @> ${b.value(v, "jsonb", true)})`;
      if (op === "_contained_in") return `(${col} <@ ${b.value(v, "jsonb", true)})`;
      if (op === "_has_key") return `(${col} ? ${b.value(v, "text")})`;
      if (op === "_has_keys_any") return `(${col} ?| ${b.value(v, "text[]")})`;
      if (op === "_has_keys_all") return `(${col} ?& ${b.value(v, "text[]")})`;
      const json = exp.column.udt === "json" || exp.column.udt === "jsonb";
      return `(${col} ${SIMPLE[op]} ${b.value(v, type, json && !exp.castToText)})`;
    }
  }
}
