/**
 * Issue 38: several instances behind a balancer start together on one PostgreSQL. Two start-ups at the same
 * moment on an empty database both come up (migrations, ledger backfill and the engine's change triggers taken
 * in turns under the start-up lock) and both serve. A migration longer than the serving statement timeout still
 * applies (session 21: filling attendance_months at 100k students stopped the server from starting). PostgreSQL
 * only: PGlite is one process's database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { withDatabase } from "../support/global-db.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import { migrate, readMigrations } from "../../server/db/migrate.ts";
import { writeFileSync, mkdirSync } from "node:fs";
import { configFromEnv } from "../../server/config.ts";
import { startUp, type StartedUp } from "../../server/start-up.ts";
import type { Db } from "../../server/db/types.ts";

const postgresLanes = databaseLanes().filter((lane) => lane === "postgres");

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe.runIf(postgresLanes.length > 0)("two instances starting together on one PostgreSQL", () => {
  const name = `bo_startup_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-startup-"));
  const dbs: Db[] = [];
  const started: StartedUp[] = [];

  afterAll(async () => {
    for (const s of started) await s.app.close();
    for (const db of dbs) await db.close();
    await admin(`drop database if exists "${name}" with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("both start, the database is migrated once and each table has one change trigger", async () => {
    await admin(`create database "${name}"`);
    const url = withDatabase(process.env.TEST_DATABASE_URL!, name);
    const config = { ...configFromEnv({ DATA_DIR: dataDir, DATABASE_URL: url, SEED_DEMO: "false" } as NodeJS.ProcessEnv, []), port: 0 };
    dbs.push(await openPostgres(url, { max: 4 }), await openPostgres(url, { max: 4 }));

    const results = await Promise.allSettled(dbs.map((db) => startUp(db, config)));
    for (const r of results) if (r.status === "fulfilled") started.push(r.value);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "started"))).toEqual(["started", "started"]);

    for (const s of started) expect((await s.app.inject({ method: "GET", url: "/healthz" })).json()).toMatchObject({ ok: true, db: "postgres" });
    const migrations = await dbs[0].query<{ n: number }>("select count(*)::int as n from hdb_catalog.schema_migrations");
    expect(migrations.rows[0].n).toBe((await readMigrations()).length);
    const triggers = await dbs[0].query<{ n: number }>(
      "select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'hdb_live_notify' and c.relname = 'users'",
    );
    expect(triggers.rows[0].n).toBe(1);
  });

  it("a migration that outlasts the serving statement timeout (a table filled from existing rows) still applies", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "backoffice-slow-migration-"));
    try {
      mkdirSync(path.join(dir, "1999999999999_slow_fill"));
      writeFileSync(path.join(dir, "1999999999999_slow_fill", "up.sql"), "create table slow_fill as select 1 as n from pg_sleep(0.6);");
      const db = await openPostgres(withDatabase(process.env.TEST_DATABASE_URL!, name), { max: 2, statementTimeoutMs: 200 });
      dbs.push(db);
      await expect(db.query("select pg_sleep(0.6)")).rejects.toThrow(/statement timeout/);
      expect((await migrate(db, dir)).applied).toEqual(["1999999999999"]);
      expect((await db.query<{ n: number }>("select count(*)::int as n from slow_fill")).rows[0]!.n).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
