/**
 * The break-glass log (issue 31 §4, FINANCE.md §1): run_sql with the admin secret is the one way past the database's
 * finance guard, so every call is written to app_internal.run_sql_log before its transaction starts — in a statement
 * of its own, so a call that fails or is rolled back is recorded too. The SQL is kept up to 20,000 characters, with
 * its full length.
 */
import type { Queryable } from "../../db/types.ts";

export const RUN_SQL_LOG_MAX = 20_000;

export interface AdminCaller {
  readonly ip?: string;
  readonly userAgent?: string;
}

interface RunSqlCall {
  sql: string;
  readOnly: boolean;
}

/** The run_sql steps of a request body, bulks included (in order). */
export function runSqlCalls(body: unknown): RunSqlCall[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [];
  const { type, args } = body as { type?: unknown; args?: unknown };
  if ((type === "bulk" || type === "bulk_atomic") && Array.isArray(args)) return args.flatMap(runSqlCalls);
  if (type !== "run_sql" || typeof args !== "object" || args === null) return [];
  const { sql, read_only } = args as { sql?: unknown; read_only?: unknown };
  return typeof sql === "string" ? [{ sql, readOnly: read_only === true }] : [];
}

export async function logRunSql(db: Queryable, iface: string, body: unknown, caller: AdminCaller): Promise<void> {
  for (const call of runSqlCalls(body)) {
    await db.query(
      `insert into app_internal.run_sql_log (interface, "sql", "sqlLength", "readOnly", "clientIp", "userAgent") values ($1, $2, $3, $4, $5, $6)`,
      [iface, call.sql.slice(0, RUN_SQL_LOG_MAX), call.sql.length, call.readOnly, caller.ip?.slice(0, 100) ?? null, caller.userAgent?.slice(0, 500) ?? null],
    );
  }
}
