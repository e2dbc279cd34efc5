import path from "node:path";
import type { Db } from "./types.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";
import { lockDataDir } from "./lock.ts";

export type { Db, Queryable, QueryResult, DbKind } from "./types.ts";
export { migrate } from "./migrate.ts";

/**
 * DATABASE_URL → a pooled real PostgreSQL; otherwise PGlite under <dataDir>/pgdata, locked to this process.
 * statementTimeoutMs: statement_timeout on PostgreSQL, the worker's watchdog on PGlite (none for the CLIs that seed).
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string }, limits: { statementTimeoutMs?: number } = {}): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { statementTimeoutMs: limits.statementTimeoutMs });
  const unlock = lockDataDir(options.dataDir);
  try {
    const db = await openPglite({ dataDir: path.join(options.dataDir, "pgdata"), statementTimeoutMs: limits.statementTimeoutMs });
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (e) {
    unlock();
    throw e;
  }
}
