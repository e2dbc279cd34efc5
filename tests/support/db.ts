import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import type { Db, Queryable } from "../../server/db/types.ts";
import { openPglite } from "../../server/db/pglite.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import { withDatabase } from "./global-db.ts";
import type { Lane } from "./lanes.ts";

export { databaseLanes, type Lane } from "./lanes.ts";

/**
 * A private database for one test file, copied from the run's migrated and seeded template.
 * Close it in afterAll: for PostgreSQL that also drops the copy.
 */
export async function openTestDb(lane: Lane, options: { statementTimeoutMs?: number } = {}): Promise<Db & { connectionString?: string }> {
  if (lane === "pglite") return openPglite({ loadDataDir: readFileSync(inject("pgliteTemplate")), statementTimeoutMs: options.statementTimeoutMs });
  const url = process.env.TEST_DATABASE_URL!;
  const template = inject("postgresTemplate");
  const name = `bo_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}" template "${template}"`);
  await admin.end();
  const connectionString = withDatabase(url, name);
  const db = await openPostgres(connectionString, { max: 4, statementTimeoutMs: options.statementTimeoutMs });
  return {
    ...db,
    /** For a second server instance on the same database. */
    connectionString,
    async close() {
      await db.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

/** `db` as it is, telling `seen` each statement (with its parameters) it runs, in transactions too. */
export function recordingDb(db: Db, seen: (sql: string, params: unknown[]) => void): Db {
  const recorded = (q: Queryable): Queryable => ({
    query: (sql, params = [], options) => {
      seen(sql, params);
      return q.query(sql, params, options);
    },
    exec: (sql) => q.exec(sql),
  });
  return Object.assign(Object.create(db) as Db, recorded(db), { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(recorded(tx))) });
}
