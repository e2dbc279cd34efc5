import type { Catalog, CatalogFunction } from "./catalog.ts";
import { columnModel, type ColumnModel } from "./columns.ts";
import { GRAPHQL_NAME, MetadataError, qualifiedTable, tableKey, type ComputedFieldMetadata } from "./types.ts";

/** One input argument of a computed field's function, in the function's order. */
export type ComputedParam =
  | { readonly kind: "row" }
  | { readonly kind: "session" }
  /** Given by the request in the field's `args` (optional when the function has a default for it). */
  | { readonly kind: "input"; readonly name: string; readonly type: ColumnModel; readonly optional: boolean };

/** A computed field as the later stages see it: `schema.function(<params>)` evaluated for each row. */
export interface ComputedFieldModel {
  readonly name: string;
  readonly function: { readonly schema: string; readonly name: string };
  readonly params: readonly ComputedParam[];
  /** A base type (a value per row, typed like a column) or SETOF a tracked table (rows, like an array relationship). */
  readonly returns: { readonly kind: "scalar"; readonly type: ColumnModel } | { readonly kind: "table"; readonly table: string };
}

/** A field the request must give `args` for: it cannot be filtered or ordered on (there is nowhere to give them). */
export function needsArguments(field: ComputedFieldModel): boolean {
  return field.params.some((p) => p.kind === "input" && !p.optional);
}

/** The catalogue's type described as a column, so comparisons, casts and scalars treat the value as one. */
function typed(name: string, t: { sqlType: string; udt: string; category: string }): ColumnModel {
  return columnModel({ name, sqlType: t.sqlType, udt: t.udt, category: t.category, nullable: true, hasDefault: false, generated: false });
}

/**
 * Checks a computed field against its function as Hasura does (and with its messages): the function exists once,
 * is not VOLATILE, takes the table's row (the first argument, or `table_argument`), a `json` session argument if
 * named, and returns a base type or SETOF a tracked table.
 */
export function computedField(meta: ComputedFieldMetadata, table: { key: string; name: string }, catalog: Catalog, tracked: (key: string) => boolean): ComputedFieldModel {
  const fn = qualifiedTable(meta.definition?.function ?? "");
  const prefix = `in table ${JSON.stringify(table.name)}: in computed field ${JSON.stringify(meta.name)}: `;
  const fail = (message: string) => new MetadataError("constraint-violation", prefix + message, "$.args");
  if (!GRAPHQL_NAME.test(meta.name)) throw fail(`${JSON.stringify(meta.name)} is not a valid GraphQL name`);
  const overloads = catalog.functions.get(tableKey(fn)) ?? [];
  if (!overloads.length) throw fail(`no such function exists in postgres : ${JSON.stringify(fn.name)}`);
  if (overloads.length > 1) throw fail(`function ${JSON.stringify(fn.name)} is overloaded. Overloaded functions are not supported`);
  const f = overloads[0];
  const reasons = problems(f, meta, table.key, tracked);
  if (reasons.length === 1) throw fail(`the computed field ${JSON.stringify(meta.name)} cannot be added to table ${JSON.stringify(table.name)} because ${reasons[0]}`);
  if (reasons.length > 1) {
    throw fail(`the computed field ${JSON.stringify(meta.name)} cannot be added to table ${JSON.stringify(table.name)} for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join("")}`);
  }
  const tableArg = tableArgumentIndex(f, meta);
  const sessionArg = meta.definition.session_argument ? f.args.findIndex((a) => a.name === meta.definition.session_argument) : -1;
  const firstDefault = f.args.length - f.defaults;
  const params: ComputedParam[] = f.args.map((a, i) =>
    i === tableArg ? { kind: "row" } : i === sessionArg ? { kind: "session" } : { kind: "input", name: a.name ?? `arg_${i + 1}`, type: typed(a.name ?? `arg_${i + 1}`, a), optional: i >= firstDefault },
  );
  return {
    name: meta.name,
    function: { schema: fn.schema, name: fn.name },
    params,
    returns: f.returns.table ? { kind: "table", table: f.returns.table } : { kind: "scalar", type: typed(meta.name, f.returns) },
  };
}

function tableArgumentIndex(f: CatalogFunction, meta: ComputedFieldMetadata): number {
  const named = meta.definition.table_argument;
  return named ? f.args.findIndex((a) => a.name === named) : 0;
}

function problems(f: CatalogFunction, meta: ComputedFieldMetadata, tableKeyName: string, tracked: (key: string) => boolean): string[] {
  const out: string[] = [];
  const name = JSON.stringify(f.name);
  if (f.volatility === "v") out.push(`the function ${name} is of type VOLATILE; cannot be added as a computed field`);
  const { table_argument: tableArgument, session_argument: sessionArgument } = meta.definition;
  if (!f.args.length) {
    out.push(`the function ${name} has no input arguments`);
    return out;
  }
  const at = tableArgumentIndex(f, meta);
  if (at < 0) out.push(`${JSON.stringify(tableArgument)} is not an input argument of ${name} function`);
  else {
    const arg = f.args[at];
    const which = tableArgument ? `table argument ${JSON.stringify(tableArgument)}` : "first argument";
    if (!arg.table) out.push(`${which} of the function ${name} is not COMPOSITE type`);
    if (arg.table !== tableKeyName) out.push(`${which} of the function ${name} of type ${JSON.stringify(pgTypeName(arg))} is not the table to which the computed field is being added`);
  }
  if (sessionArgument) {
    const s = f.args.findIndex((a) => a.name === sessionArgument);
    if (s < 0) out.push(`${JSON.stringify(sessionArgument)} is not an input argument of ${name} function`);
    else if (s === at) out.push(`${JSON.stringify(sessionArgument)} cannot be both the table argument and the session argument`);
    else if (f.args[s].udt !== "json") out.push(`session argument ${JSON.stringify(sessionArgument)} of type ${JSON.stringify(pgTypeName(f.args[s]))} should be "json"`);
  }
  if (f.returnsSet && !f.returns.table) out.push(`the function ${name} returns a set of a base type; only SETOF a table is supported`);
  if (!f.returnsSet && f.returns.table) out.push(`the function ${name} returns one row of a table; only SETOF a table is supported`);
  if (f.returns.table && !tracked(f.returns.table)) out.push(`the function ${name} returns type ${JSON.stringify(f.returns.table)}, which is not a tracked table`);
  if (!f.returns.table && ["record", "void", "trigger"].includes(f.returns.udt)) out.push(`the function ${name} returns ${f.returns.udt}, which is not a base type`);
  return out;
}

/** Hasura names types as "schema.name" (pg_catalog.text, public.author). */
function pgTypeName(a: { table: string | null; udt: string }): string {
  return a.table ?? `pg_catalog.${a.udt}`;
}
