import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "./types.ts";

export const migrationsDir = path.resolve(import.meta.dirname, "../../hasura/migrations/default");

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** hasura/migrations/default/<timestamp>_<name>/up.sql, in timestamp order. */
export async function readMigrations(dir = migrationsDir): Promise<Migration[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  const migrations: Migration[] = [];
  for (const entry of entries) {
    const match = /^(\d+)_(.+)$/.exec(entry.name);
    if (!match) continue;
    const sql = await readFile(path.join(dir, entry.name, "up.sql"), "utf8");
    migrations.push({ version: match[1], name: match[2], sql });
  }
  return migrations.sort((a, b) => (BigInt(a.version) < BigInt(b.version) ? -1 : 1));
}

/**
 * Applies each migration not yet recorded, each in its own transaction, and records it in the
 * same table the Hasura CLI uses, so `hasura migrate status` agrees with us. Returns the count applied in all.
 */
export async function migrate(db: Db, dir = migrationsDir): Promise<{ applied: string[]; total: number }> {
  await db.exec(`
    create schema if not exists hdb_catalog;
    create table if not exists hdb_catalog.schema_migrations (version bigint primary key, dirty boolean not null default false);
  `);
  const done = new Set(
    (await db.query<{ version: string }>("select version::text as version from hdb_catalog.schema_migrations")).rows.map((r) => r.version),
  );
  const applied: string[] = [];
  for (const m of await readMigrations(dir)) {
    if (done.has(m.version)) continue;
    await db.transaction(async (tx) => {
      // A migration that fills a table from existing rows outlasts the serving statement timeout on a large database
      // (attendance_months from 5 million seats at 100k students): the server could never start.
      if (db.kind === "postgres") await tx.query("set local statement_timeout = 0");
      await tx.exec(m.sql);
      // Each audited table's trigger function is compiled from its columns: a migration that changes them, or adds
      // a table with the generic trigger, gets its tables' functions rewritten here (migration 1763700650000).
      const compiled = await tx.query<{ fn: string | null }>("select to_regprocedure('app_internal.audit_compile()')::text as fn");
      if (compiled.rows[0].fn) await tx.query("select app_internal.audit_compile()");
      await tx.query("insert into hdb_catalog.schema_migrations (version, dirty) values ($1, false)", [m.version]);
    });
    applied.push(m.version);
  }
  const total = (await db.query<{ n: number }>("select count(*)::int as n from hdb_catalog.schema_migrations")).rows[0].n;
  return { applied, total };
}
