import pg from "pg";
import type { Db, Queryable, QueryResult } from "./types.ts";

// Keep int8/numeric/date/timestamps as text: money must never pass through a float, and
// dates are shown in Asia/Singapore by the caller, not shifted by the driver.
const raw = (v: string) => v;
for (const oid of [20, 1700, 1082, 1114, 1184]) pg.types.setTypeParser(oid, raw);

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const r = await client.query(sql, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export async function openPostgres(connectionString: string, options: { max?: number } = {}): Promise<Db & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  await pool.query("select 1");
  const direct = wrap(pool);
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  return {
    kind: "postgres",
    pool,
    query: direct.query,
    exec: direct.exec,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      if (!listener) {
        listener = new pg.Client({ connectionString });
        await listener.connect();
        listener.on("notification", (n) => handlers.get(n.channel)?.forEach((h) => h(n.payload ?? "")));
      }
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await listener.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      }
      set.add(onPayload);
      return async () => {
        set!.delete(onPayload);
      };
    },
    async close() {
      await listener?.end();
      await pool.end();
    },
  };
}
