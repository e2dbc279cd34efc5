import type { Db } from "../../db/types.ts";
import { LIVE_TRIGGERS_LOCK, takeLock } from "../../db/startup-lock.ts";
import type { Model } from "./model.ts";

export const CHANGE_CHANNEL = "hasura_changes";

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A statement-level trigger on every tracked table: NOTIFY hasura_changes with "schema.table" (wakes live queries). */
export async function ensureChangeTriggers(db: Db, model: Model): Promise<void> {
  const tables = [...model.tables.values()].filter((t) => t.notifiable);
  if (!tables.length) return;
  // instances sharing the database may add the same triggers at the same moment: one at a time, each reading
  // what the previous one made
  await db.transaction(async (tx) => {
    await takeLock(tx, LIVE_TRIGGERS_LOCK);
    const existing = await tx.query<{ key: string }>(
      `select n.nspname || '.' || c.relname as key from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where t.tgname = 'hdb_live_notify'`,
    );
    const have = new Set(existing.rows.map((r) => r.key));
    const missing = tables.filter((t) => !have.has(t.key));
    if (!missing.length) return;
    let sql = `
      create schema if not exists hdb_catalog;
      create or replace function hdb_catalog.hdb_live_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${CHANGE_CHANNEL}', tg_table_schema || '.' || tg_table_name);
        return null;
      end $$;`;
    for (const t of missing) {
      const ref = `${ident(t.schema)}.${ident(t.name)}`;
      sql += `\ncreate trigger hdb_live_notify after insert or update or delete or truncate on ${ref} for each statement execute function hdb_catalog.hdb_live_notify();`;
    }
    await tx.exec(sql);
  });
}
