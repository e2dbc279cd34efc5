/**
 * A real PostgreSQL can drop a connection at any time (a restart, a failover, an administrator's
 * terminate). The server must live through it: a lost idle connection is replaced, and the LISTEN
 * connection (live queries, policy changes, the token cache) is made again, its listeners told that
 * they may have missed changes. PostgreSQL lane only: PGlite has no connections to lose.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { ANY_CHANGE, type Db } from "../../server/db/types.ts";
import { IDLE_CONNECTION_MS } from "../../server/db/postgres.ts";

const postgresLanes = databaseLanes().filter((lane) => lane === "postgres");

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(postgresLanes.length > 0)("lost PostgreSQL connections", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb("postgres");
  });
  afterAll(async () => {
    await db?.close();
  });

  const backends = async (where: string) =>
    (await db.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and ${where}`)).rows.map((r) => r.pid);

  it("an unused connection stays open through a quiet minute (its backend and prepared statements with it), not for ever", async () => {
    const backend = async () => (await db.query<{ pid: number }>(`select pg_backend_pid() as pid`)).rows[0].pid;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // the pool's idle timers
    try {
      const pid = await backend();
      vi.advanceTimersByTime(60_000);
      expect(await backend()).toBe(pid);
      vi.advanceTimersByTime(IDLE_CONNECTION_MS);
      expect(await backend()).not.toBe(pid);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the LISTEN connection is made again; its listeners get ANY_CHANGE, then notifications as before", async () => {
    const got: string[] = [];
    await db.listen("conn_test", (p) => got.push(p));
    await db.query(`select pg_notify('conn_test', 'first')`);
    await until("the first notification", async () => (got.includes("first") ? true : undefined));

    const [pid] = await backends(`query ilike 'LISTEN%'`);
    expect(pid).toBeDefined();
    await db.query(`select pg_terminate_backend($1)`, [pid]);
    await until("the reconnect signal", async () => (got.includes(ANY_CHANGE) ? true : undefined));
    // a new connection listens again
    expect(await backends(`query ilike 'LISTEN%'`)).not.toContain(pid);
    await db.query(`select pg_notify('conn_test', 'second')`);
    await until("a notification after the reconnect", async () => (got.includes("second") ? true : undefined));
  });

  it("a lost idle pool connection does not take the process down; queries go on", async () => {
    // hold two connections at once so the pool keeps an idle one to lose
    await Promise.all([db.query("select pg_sleep(0.05)"), db.query("select pg_sleep(0.05)")]);
    const idle = await backends(`state = 'idle' and query not ilike 'LISTEN%'`);
    expect(idle.length).toBeGreaterThan(0);
    for (const pid of idle) await db.query(`select pg_terminate_backend($1)`, [pid]);
    await until("the connections to be gone", async () => ((await backends(`pid in (${idle.join(",")})`)).length === 0 ? true : undefined));
    // an unhandled 'error' event would fail this run; the pool hands out working connections
    for (let i = 0; i < 5; i++) expect((await db.query<{ n: number }>("select 1 as n")).rows[0]?.n).toBe(1);
  });
});
