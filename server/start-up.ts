import type { FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import type { Db } from "./db/types.ts";
import { migrate } from "./db/migrate.ts";
import { withStartupLock } from "./db/startup-lock.ts";
import { seedDemo } from "./db/seed-demo.ts";
import { backfillLedger } from "./finance/ledgerBackfill.ts";
import { buildServer } from "./app.ts";
import type { LoggerSetting } from "./security/log-redaction.ts";

export interface StartedUp {
  app: FastifyInstance;
  /** Migrations recorded in all. */
  migrations: number;
  demoCreated: boolean;
  /** Ledger entries posted for documents made before the ledger. */
  backfilled: number;
}

/**
 * Everything an instance does to its database before it serves: migrate, seed the demo data when configured,
 * backfill the ledger, then build the server (whose engine adds its change triggers) — under the start-up lock, so
 * instances started together on one PostgreSQL take turns.
 */
export async function startUp(db: Db, config: Config, options: { logger?: LoggerSetting; serveApp?: boolean } = {}): Promise<StartedUp> {
  return withStartupLock(db, async () => {
    const { total } = await migrate(db);
    const demoCreated = config.seedDemo ? await seedDemo(db) : false;
    // documents made before the ledger (or by an older seed) get the entries they imply; idempotent. A new day's
    // recognition walk is left to the server's daily job, which starts it once the server listens.
    const backfilled = await backfillLedger(db, undefined, { newDayWalk: "later" });
    const app = await buildServer({ db, config, migrations: total }, options);
    await app.ready();
    return { app, migrations: total, demoCreated, backfilled };
  });
}
