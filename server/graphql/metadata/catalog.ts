import type { Queryable } from "../../db/types.ts";
import { tableKey } from "./types.ts";

/** What the Postgres catalogue says about one relation. */
export interface CatalogColumn {
  readonly name: string;
  /** format_type(), e.g. "numeric(12,2)", "text[]" — used for casts. */
  readonly sqlType: string;
  /** pg_type.typname, e.g. "int4", "_text". */
  readonly udt: string;
  /** pg_type.typcategory: N numeric, S string, B boolean, D datetime, U user (jsonb, uuid…), A array, E enum. */
  readonly category: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  readonly generated: boolean;
}
export interface CatalogConstraint {
  readonly name: string;
  readonly kind: "p" | "u" | "f";
  readonly columns: readonly string[];
  readonly foreignTable?: string;
  readonly foreignColumns?: readonly string[];
}
export interface CatalogTable {
  readonly schema: string;
  readonly name: string;
  readonly kind: string;
  readonly columns: readonly CatalogColumn[];
  readonly constraints: readonly CatalogConstraint[];
}
/** One SQL function as computed fields need it (functions with OUT parameters are left out). */
export interface CatalogFunction {
  readonly schema: string;
  readonly name: string;
  /** The input arguments in order; `table` is set when the argument's type is a table's row type ("schema.name"). */
  readonly args: readonly { readonly name: string | null; readonly sqlType: string; readonly udt: string; readonly category: string; readonly table: string | null }[];
  /** The trailing arguments that have defaults. */
  readonly defaults: number;
  readonly volatility: "i" | "s" | "v";
  readonly returnsSet: boolean;
  /** The return type: a table's row type ("schema.name") or a base type. */
  readonly returns: { readonly table: string | null; readonly sqlType: string; readonly udt: string; readonly category: string };
}
/** The relations by "schema.name", and the functions by "schema.name" (overloads side by side). */
export type Catalog = ReadonlyMap<string, CatalogTable> & { readonly functions: ReadonlyMap<string, readonly CatalogFunction[]> };

const excluded = `n.nspname not in ('pg_catalog', 'information_schema', 'hdb_catalog') and n.nspname not like 'pg\\_%'`;

export async function readCatalog(db: Queryable): Promise<Catalog> {
  const columns = await db.query<{ j: string }>(`
    select json_agg(json_build_object('schema', n.nspname, 'table', c.relname, 'kind', c.relkind, 'name', a.attname,
      'sqlType', format_type(a.atttypid, a.atttypmod), 'udt', t.typname, 'category', t.typcategory, 'nullable', not a.attnotnull,
      'hasDefault', a.atthasdef or a.attidentity <> '', 'generated', a.attgenerated <> '') order by n.nspname, c.relname, a.attnum)::text as j
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace join pg_type t on t.oid = a.atttypid
    where c.relkind in ('r', 'v', 'm', 'p', 'f') and a.attnum > 0 and not a.attisdropped and ${excluded}`);
  const constraints = await db.query<{ j: string }>(`
    select json_agg(json_build_object('schema', n.nspname, 'table', c.relname, 'name', con.conname, 'kind', con.contype,
      'columns', (select json_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n),
      'foreignTable', case when con.contype = 'f' then fn.nspname || '.' || fc.relname end,
      'foreignColumns', (select json_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n)
    ) order by con.conname)::text as j
    from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_class fc on fc.oid = con.confrelid left join pg_namespace fn on fn.oid = fc.relnamespace
    where con.contype in ('p', 'u', 'f') and ${excluded}`);
  const tables = new Map<string, { schema: string; name: string; kind: string; columns: CatalogColumn[]; constraints: CatalogConstraint[] }>();
  type ColRow = CatalogColumn & { schema: string; table: string; kind: string };
  for (const row of JSON.parse(columns.rows[0]?.j ?? "null") ?? ([] as ColRow[])) {
    const r = row as ColRow;
    const key = tableKey({ schema: r.schema, name: r.table });
    let t = tables.get(key);
    if (!t) tables.set(key, (t = { schema: r.schema, name: r.table, kind: r.kind, columns: [], constraints: [] }));
    t.columns.push({ name: r.name, sqlType: r.sqlType, udt: r.udt, category: r.category, nullable: r.nullable, hasDefault: r.hasDefault, generated: r.generated });
  }
  const functions = await db.query<{ j: string }>(`
    select json_agg(json_build_object('schema', n.nspname, 'name', p.proname, 'defaults', p.pronargdefaults, 'volatility', p.provolatile,
      'returnsSet', p.proretset,
      'returns', json_build_object('table', case when rc.oid is not null then rn.nspname || '.' || rc.relname end, 'sqlType', format_type(p.prorettype, null), 'udt', rt.typname, 'category', rt.typcategory),
      'args', (select coalesce(json_agg(json_build_object('name', nullif(p.proargnames[k.i], ''), 'sqlType', format_type(t.oid, null), 'udt', t.typname, 'category', t.typcategory,
                 'table', case when tc.oid is not null then tn.nspname || '.' || tc.relname end) order by k.i), '[]')
               from unnest(p.proargtypes::oid[]) with ordinality k(oid, i) join pg_type t on t.oid = k.oid
               left join pg_class tc on tc.oid = t.typrelid and tc.relkind in ('r', 'v', 'm', 'p', 'f') left join pg_namespace tn on tn.oid = tc.relnamespace)
    ) order by n.nspname, p.proname)::text as j
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type rt on rt.oid = p.prorettype
    left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('r', 'v', 'm', 'p', 'f') left join pg_namespace rn on rn.oid = rc.relnamespace
    where p.prokind = 'f' and p.proallargtypes is null and ${excluded}`);
  const byName = new Map<string, CatalogFunction[]>();
  for (const f of (JSON.parse(functions.rows[0]?.j ?? "null") ?? []) as CatalogFunction[]) {
    const key = tableKey({ schema: f.schema, name: f.name });
    byName.set(key, [...(byName.get(key) ?? []), f]);
  }
  type ConRow = CatalogConstraint & { schema: string; table: string };
  for (const row of JSON.parse(constraints.rows[0]?.j ?? "null") ?? ([] as ConRow[])) {
    const r = row as ConRow;
    const t = tables.get(tableKey({ schema: r.schema, name: r.table }));
    if (!t) continue;
    t.constraints.push({ name: r.name, kind: r.kind, columns: r.columns ?? [], foreignTable: r.foreignTable ?? undefined, foreignColumns: r.foreignColumns ?? undefined });
  }
  return Object.assign(tables, { functions: byName });
}
