/**
 * run_sql: the SQL runs as one script in one transaction, exactly as sent. The last statement's rows come
 * back as Hasura does: every value as Postgres prints it (text), headers first. Before the transaction
 * commits, the metadata is reconciled with the changed catalogue (reconcileWithCatalog) so a drop that
 * would leave dangling relationships or permissions fails and rolls back, as in Hasura.
 */
import type { Db, Queryable } from "../../db/types.ts";
import type { PgliteDb } from "../../db/pglite.ts";
import type { CatalogSnapshot } from "./metadata-ops.ts";
import { AdminError } from "./metadata-ops.ts";

export interface ScriptResult {
  fields: string[];
  /** values as text, null for SQL NULL */
  rows: (string | null)[][];
  command?: string;
}

export interface ScriptSession extends Queryable {
  /** Runs several statements (simple query protocol); one result per statement. */
  runScript(sql: string): Promise<ScriptResult[]>;
}

interface PgPoolLike {
  connect(): Promise<PgClientLike>;
}
interface PgClientLike {
  query(config: unknown, values?: unknown[]): Promise<unknown>;
  release(): void;
}

const asText = (v: string) => v;
/** bool, int8, int2, int4, json, float4, float8, date, timestamp, timestamptz, numeric, jsonb, bytea */
const BUILTIN_PARSED_TYPES = ["16", "20", "21", "23", "114", "700", "701", "1082", "1114", "1184", "1700", "3802", "17"];

/** Runs fn in a transaction on the driver under `db`, with a session that can run scripts and see all values as text. */
export async function withScriptSession<T>(db: Db, fn: (s: ScriptSession) => Promise<T>): Promise<T> {
  const pool = (db as unknown as { pool?: PgPoolLike }).pool;
  if (db.kind === "pglite") {
    // db.transaction holds PGlite's single connection for us; the script runs on it (in the database's worker).
    return (db as PgliteDb).transaction((tx) => fn({ ...tx, runScript: (sql) => tx.runScript(sql, BUILTIN_PARSED_TYPES) }));
  }
  if (pool) {
    const client = await pool.connect();
    const textTypes = { getTypeParser: () => asText };
    const session: ScriptSession = {
      async query<R>(sql: string, params: unknown[] = []) {
        const r = (await client.query(sql, params)) as { rows: R[]; rowCount: number | null };
        return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
      },
      async exec(sql: string) {
        await client.query(sql);
      },
      async runScript(sql) {
        const raw = (await client.query({ text: sql, rowMode: "array", types: textTypes })) as unknown;
        const list = (Array.isArray(raw) ? raw : [raw]) as { fields?: { name: string }[]; rows?: unknown[][]; command?: string }[];
        return list.map((r) => ({
          fields: (r.fields ?? []).map((f) => f.name),
          rows: (r.rows ?? []).map((row) => row.map((v) => (v === null || v === undefined ? null : String(v)))),
          command: r.command,
        }));
      },
    };
    try {
      await client.query("BEGIN");
      const result = await fn(session);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  // Any other Db: no access to result sets, so a script reports CommandOk.
  return db.transaction((tx) =>
    fn({
      ...tx,
      async runScript(sql) {
        await tx.exec(sql);
        return [];
      },
    }),
  );
}

/** Hasura's run_sql response for the last statement. */
export function runSqlResponse(results: ScriptResult[]): { result_type: "CommandOk"; result: null } | { result_type: "TuplesOk"; result: (string | null)[][] } {
  const last = results[results.length - 1];
  if (!last || last.fields.length === 0) return { result_type: "CommandOk", result: null };
  return { result_type: "TuplesOk", result: [last.fields, ...last.rows] };
}

/** Postgres errors as Hasura's run_sql reports them. */
export function postgresError(error: unknown, sql: string): AdminError {
  const e = error as { message?: string; code?: string; detail?: string; hint?: string };
  return new AdminError("postgres-error", "query execution failed", "$", 400, {
    statement: sql,
    prepared: false,
    error: { exec_status: "FatalError", message: e.message ?? String(error), status_code: e.code ?? "", description: e.detail ?? null, hint: e.hint ?? null },
    arguments: [],
  });
}

/** The tables, columns and foreign keys of every schema a user can track (not the system ones). */
export async function readCatalog(q: Queryable): Promise<CatalogSnapshot> {
  const columns = await q.query<{ schema: string; name: string; column: string | null }>(
    `select n.nspname as schema, c.relname as name, a.attname as column
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r','v','m','f','p')
        and n.nspname not in ('pg_catalog','information_schema') and n.nspname not like 'pg_toast%'`,
  );
  const tables = new Map<string, Set<string>>();
  for (const r of columns.rows) {
    const key = `${r.schema}.${r.name}`;
    let set = tables.get(key);
    if (!set) tables.set(key, (set = new Set()));
    if (r.column) set.add(r.column);
  }
  const fks = await q.query<{ schema: string; name: string; columns: string[] | string; ref_schema: string; ref_name: string; ref_columns: string[] | string }>(
    `select n.nspname as schema, c.relname as name,
            (select json_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(attnum, i)
               join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum)::text as columns,
            rn.nspname as ref_schema, rc.relname as ref_name,
            (select json_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(attnum, i)
               join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum)::text as ref_columns
       from pg_catalog.pg_constraint con
       join pg_catalog.pg_class c on c.oid = con.conrelid
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       join pg_catalog.pg_class rc on rc.oid = con.confrelid
       join pg_catalog.pg_namespace rn on rn.oid = rc.relnamespace
      where con.contype = 'f'`,
  );
  const list = (v: string[] | string): string[] => (Array.isArray(v) ? v : (JSON.parse(v) as string[]));
  const functions = await q.query<{ key: string }>(
    `select n.nspname || '.' || p.proname as key from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname not in ('pg_catalog','information_schema') and n.nspname not like 'pg_toast%'`,
  );
  return {
    functions: new Set(functions.rows.map((r) => r.key)),
    tables,
    foreignKeys: fks.rows.map((r) => ({
      table: { schema: r.schema, name: r.name },
      columns: list(r.columns),
      refTable: { schema: r.ref_schema, name: r.ref_name },
      refColumns: list(r.ref_columns),
    })),
  };
}
