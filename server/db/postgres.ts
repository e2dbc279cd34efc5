import pg from "pg";
import { ANY_CHANGE, type Db, type Queryable, type QueryOptions, type QueryResult } from "./types.ts";

// Keep int8/numeric/date/timestamps as text: money must never pass through a float, and
// dates are shown in Asia/Singapore by the caller, not shifted by the driver.
const raw = (v: string) => v;
for (const oid of [20, 1700, 1082, 1114, 1184]) pg.types.setTypeParser(oid, raw);

/** Prepared statements a connection may hold at most (each keeps its parse tree and plans in the backend). */
export const MAX_PREPARED_STATEMENTS = 256;

/**
 * Names for the statements asked to be reused, one per text for the whole pool (pg prepares a name on each
 * connection the first time it runs there). A text is named on its second run, so one-off texts take no
 * slot; once every slot is taken, further texts run unnamed as before.
 */
function statementNames(): (sql: string) => string | undefined {
  const named = new Map<string, string>();
  const seenOnce = new Set<string>();
  return (sql) => {
    const name = named.get(sql);
    if (name || named.size >= MAX_PREPARED_STATEMENTS) return name;
    if (!seenOnce.has(sql)) {
      if (seenOnce.size >= 4 * MAX_PREPARED_STATEMENTS) seenOnce.clear();
      seenOnce.add(sql);
      return undefined;
    }
    seenOnce.delete(sql);
    const fresh = `reused_${named.size + 1}`;
    named.set(sql, fresh);
    return fresh;
  };
}

function wrap(client: pg.PoolClient, nameOf: (sql: string) => string | undefined): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<QueryResult<T>> {
      const name = options?.reuse ? nameOf(sql) : undefined;
      const r = name ? await client.query({ name, text: sql, values: params }) : await client.query(sql, params);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

const RECONNECT_MS = 1000;

/**
 * How long an unused connection stays open. pg's default (10 s) closed it between two clicks of a quiet back
 * office, and the next request paid a new backend, its catalogue caches and the prepared statements again:
 * ~10 ms instead of ~2 for a small query after 11 s idle (measured on PostgreSQL 15 here).
 */
export const IDLE_CONNECTION_MS = 5 * 60_000;

export async function openPostgres(connectionString: string, options: { max?: number; statementTimeoutMs?: number } = {}): Promise<Db & { pool: pg.Pool }> {
  // statement_timeout: PostgreSQL cancels a statement that runs longer (57014); undefined = the server's setting
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, idleTimeoutMillis: IDLE_CONNECTION_MS, statement_timeout: options.statementTimeoutMs });
  let closing = false;
  // An idle connection can die (a database restart, an administrator's terminate): the pool drops it and
  // opens another when needed; without this handler the error would end the process.
  pool.on("error", (error) => {
    if (!closing) console.error("[db] an idle connection was lost:", error.message);
  });
  await pool.query("select 1");
  const nameOf = statementNames();
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const listenSql = (channel: string) => `LISTEN "${channel.replace(/"/g, '""')}"`;

  // The LISTEN connection: made on the first listen(), made again (with every channel) after it is lost.
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  const ensureListener = (): Promise<pg.Client> => {
    if (listener) return Promise.resolve(listener);
    connecting ??= (async () => {
      const client = new pg.Client({ connectionString });
      client.on("notification", (n) => handlers.get(n.channel)?.forEach((h) => h(n.payload ?? "")));
      client.on("error", (error) => lost(client, error));
      client.on("end", () => lost(client));
      try {
        await client.connect();
        for (const channel of handlers.keys()) await client.query(listenSql(channel));
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      } finally {
        connecting = undefined;
      }
      listener = client;
      return client;
    })();
    return connecting;
  };
  const lost = (client: pg.Client, error?: Error) => {
    if (closing || listener !== client) return;
    listener = undefined;
    console.error("[db] the LISTEN connection was lost, reconnecting:", error?.message ?? "it ended");
    client.end().catch(() => undefined);
    reconnect();
  };
  const reconnect = () => {
    setTimeout(() => {
      if (closing) return;
      ensureListener().then(
        () => handlers.forEach((set) => set.forEach((h) => h(ANY_CHANGE))),
        (error: Error) => {
          console.error("[db] reconnecting the LISTEN connection failed:", error.message);
          reconnect();
        },
      );
    }, RECONNECT_MS).unref();
  };

  /**
   * A connection set to the timeout a statement asks for (issue 32: staff reads ask for a shorter one). A
   * connection keeps its setting until a statement wanting another takes it, so with mostly staff reads the
   * SET is rarely sent: ~0.1 ms then, where BEGIN + SET LOCAL + COMMIT around each read cost ~1.4 ms (measured).
   * Every statement and transaction takes its connection here, so none runs with another's setting.
   */
  const timeouts = new WeakMap<pg.PoolClient, number>();
  const withConnection = async <T>(timeoutMs: number | undefined, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    if (timeouts.get(client) !== timeoutMs) {
      try {
        await client.query(timeoutMs ? `SET statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}` : "RESET statement_timeout");
      } catch (error) {
        client.release(error as Error); // its setting is unknown: the pool drops it
        throw error;
      }
      if (timeoutMs) timeouts.set(client, timeoutMs);
      else timeouts.delete(client);
    }
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  };

  return {
    kind: "postgres",
    pool,
    query: (sql, params, options) => withConnection(options?.timeoutMs, (client) => wrap(client, nameOf).query(sql, params, options)),
    exec: (sql) => withConnection(undefined, (client) => wrap(client, nameOf).exec(sql)),
    transaction: (fn) =>
      withConnection(undefined, async (client) => {
        try {
          await client.query("BEGIN");
          const result = await fn(wrap(client, nameOf));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      }),
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await (await ensureListener()).query(listenSql(channel)); // LISTEN twice is harmless
      }
      set.add(onPayload);
      return async () => {
        set!.delete(onPayload);
      };
    },
    async close() {
      closing = true;
      await connecting?.catch(() => undefined);
      await listener?.end().catch(() => undefined);
      // pool.end() resolves once every connection was asked to close; wait until they have closed, so
      // nothing is left open when the caller goes on (e.g. to drop the database).
      const open = pool.totalCount;
      const closed = new Promise<void>((resolve) => {
        let n = 0;
        if (open === 0) resolve();
        pool.on("remove", () => {
          if (++n >= open) resolve();
        });
      });
      await pool.end();
      await closed;
    },
  };
}
