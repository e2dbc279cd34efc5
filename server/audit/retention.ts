/**
 * The audit log's retention (issue 36): entries older than AUDIT_RETENTION_MONTHS are purged once a day while the
 * server runs. The database's app_internal.audit_purge is the only way to delete from the log, and it logs each
 * purge as an entry of its own (migration 1763700550000_audit_retention).
 */
import type { Db, Queryable } from "../db/types.ts";
import { startEveryDay } from "../finance/everyDay.ts";

/** Deletes the entries written before `olderThan`; answers how many went. */
export async function purgeAuditLog(db: Queryable, olderThan: Date | string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`select app_internal.audit_purge($1::timestamptz)::text as n`, [olderThan]);
  return Number(rows[0]!.n);
}

/** Deletes the entries older than `months` months (calendar months, the database's own clock). */
export async function purgeExpiredAudit(db: Queryable, months: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`select app_internal.audit_purge(now() - make_interval(months => $1::int))::text as n`, [months]);
  return Number(rows[0]!.n);
}

/** Purges now and then as each Singapore day begins (nothing when `months` is 0); `stop` waits for a purge in progress. */
export function startAuditRetention(db: Db, months: number): { stop(): Promise<void> } {
  if (months <= 0) return { stop: async () => undefined };
  const purge = () =>
    purgeExpiredAudit(db, months).then(
      (n) => n && console.log(`Audit log: ${n} entries older than ${months} months purged.`),
      (e: unknown) => console.error("Audit log purge failed:", e instanceof Error ? e.message : e),
    );
  const first = purge();
  const daily = startEveryDay(purge);
  return {
    async stop() {
      await daily.stop();
      await first;
    },
  };
}
