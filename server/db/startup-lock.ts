import type { Db, Queryable } from "./types.ts";

/** Advisory lock keys (one number space for the whole database; pg_advisory_xact_lock(bigint)). */
export const STARTUP_LOCK = 38_0001;
export const LIVE_TRIGGERS_LOCK = 38_0002;

/** Waits for the lock `key` until tx ends, however long the holder takes (its DDL may outlast the statement timeout). */
export async function takeLock(tx: Queryable, key: number): Promise<void> {
  await tx.query("set local statement_timeout = 0");
  await tx.query("select pg_advisory_xact_lock($1::bigint)", [key]);
}

/**
 * Runs fn (migrations, demo seed, ledger backfill, the engine's triggers) while holding STARTUP_LOCK, so several
 * instances started together on one PostgreSQL (behind a balancer) do their start-up DDL one after another
 * (issue 38: two at once failed on a duplicate trigger). The lock is held by a transaction on its own
 * connection; fn works through the pool. PGlite needs none: one process owns its data directory (lock.ts), and
 * its one connection would be taken by the holding transaction.
 */
export async function withStartupLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.kind === "pglite") return fn();
  return db.transaction(async (tx) => {
    await takeLock(tx, STARTUP_LOCK);
    return fn();
  });
}
