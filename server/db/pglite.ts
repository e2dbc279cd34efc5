import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import type { Db, Queryable, QueryResult } from "./types.ts";
import { Mutex } from "./mutex.ts";

const extensions = { citext, ltree, pgcrypto };

function wrap(pg: Pick<PGlite, "query" | "exec">): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const r = await pg.query<T>(sql, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      await pg.exec(sql);
    },
  };
}

/** dataDir undefined = in memory. loadDataDir = a dump (from dumpDataDir) to start from. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob | File } = {}): Promise<Db & { pglite: PGlite }> {
  const pg = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, extensions });
  const mutex = new Mutex();
  const direct = wrap(pg);
  return {
    kind: "pglite",
    pglite: pg,
    query: (sql, params) => mutex.run(() => direct.query(sql, params)),
    exec: (sql) => mutex.run(() => direct.exec(sql)),
    transaction: (fn) =>
      mutex.run(async () => {
        await pg.exec("BEGIN");
        try {
          const result = await fn(direct);
          await pg.exec("COMMIT");
          return result;
        } catch (error) {
          await pg.exec("ROLLBACK");
          throw error;
        }
      }),
    async listen(channel, onPayload) {
      const unlisten = await mutex.run(() => pg.listen(channel, onPayload));
      return () => mutex.run(() => unlisten());
    },
    close: () => mutex.run(() => pg.close()),
  };
}
