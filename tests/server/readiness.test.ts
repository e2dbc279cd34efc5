import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { startTestServer, type TestServer } from "../support/auth.ts";

/** Issue 32 (3a): /healthz said "ok" while every request waited on a stalled database; /readyz tells. */
describe.each(databaseLanes())("/readyz [%s]", (lane) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(lane);
  });
  afterAll(async () => server?.close());

  const get = (url: string) => server.app.inject({ method: "GET", url });

  it("is ready while the database answers", async () => {
    const r = await get("/readyz");
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ ready: true, db: server.db.kind });
    if (lane === "pglite") expect(r.json().queue).toEqual({ waiting: 0, oldestWaitMs: 0 });
  });

  it("answers 503 with the reason while transactions hold the database in a long statement, and is ready again after", async () => {
    // the embedded database has one connection; the test's PostgreSQL pool has four
    const holders = Array.from({ length: lane === "pglite" ? 1 : 4 }, () => server.db.transaction((tx) => tx.query("select pg_sleep(2.5)")));
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const stalled = await get("/readyz");
    expect(Date.now() - started).toBeLessThan(1800);
    expect(stalled.statusCode).toBe(503);
    expect(stalled.json()).toMatchObject({ ready: false, reason: expect.stringMatching(/^the database did not answer a trivial query within \d+ ms$/) });
    if (lane === "pglite") expect(stalled.json().queue.waiting).toBe(1); // the probe itself
    const again = await get("/readyz"); // the unanswered probe is reused, not queued twice
    expect(again.statusCode).toBe(503);
    if (lane === "pglite") expect(again.json().queue.waiting).toBe(1);
    const live = await get("/healthz");
    expect(live.statusCode).toBe(200);
    await Promise.all(holders);
    const ready = await get("/readyz");
    expect(ready.statusCode).toBe(200);
    expect(ready.json().ready).toBe(true);
  });

  it.runIf(lane === "pglite")("answers 503 while a statement has waited over 5 s for the embedded connection, though the probe itself gets a turn", async () => {
    // one caller's backlog of short statements: each turn is quick, but the last ones wait long
    const backlog = Array.from({ length: 14 }, () => server.db.query("select pg_sleep(0.45)"));
    await new Promise((r) => setTimeout(r, 5300));
    const r = await get("/readyz");
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ ready: false, reason: expect.stringMatching(/^a statement has waited \d+ ms for the embedded database$/) });
    expect(r.json().queue.waiting).toBeGreaterThan(0);
    await Promise.all(backlog);
    expect((await get("/readyz")).statusCode).toBe(200);
  }, 30_000);
});
