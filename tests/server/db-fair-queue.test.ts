import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import WebSocket from "ws";
import { openTestDb } from "../support/db.ts";
import { bearer, signIn } from "../support/auth.ts";
import type { Db } from "../../server/db/types.ts";
import { asCaller } from "../../server/db/caller.ts";
import { buildServer } from "../../server/app.ts";
import { configFromEnv } from "../../server/config.ts";

/**
 * Issue 32 (3a): the embedded database has one connection. Its queue was first come, first served, so one
 * caller's several slow statements kept everybody else waiting for all of them; now callers take turns.
 */
describe("the embedded database's queue takes turns between callers", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb("pglite");
  });
  afterAll(async () => db?.close());

  /** Runs sql as caller; resolves to the caller's name, in the order the answers come. */
  const as = (caller: string, sql: string, order: string[]) =>
    asCaller(caller, () => db.query(sql)).then(() => {
      order.push(caller);
    });

  it("answers another caller's quick query after at most the one slow statement running", async () => {
    const order: string[] = [];
    const slow = [1, 2, 3].map(() => as("user:a", "select pg_sleep(0.3)", order));
    await new Promise((r) => setTimeout(r, 50)); // the first is running, two wait
    expect(db.queueState!()).toMatchObject({ waiting: 2 });
    const quick = as("user:b", "select 1", order);
    await Promise.all([...slow, quick]);
    expect(order).toEqual(["user:a", "user:b", "user:a", "user:a"]);
  });

  it("keeps one caller's own statements and transactions in order", async () => {
    const order: string[] = [];
    const done = (label: string) => () => order.push(label);
    const running = asCaller("user:a", () => db.query("select pg_sleep(0.2)")).then(done("a1"));
    await new Promise((r) => setTimeout(r, 30));
    const b1 = asCaller("user:b", () => db.transaction(async (tx) => tx.query("select pg_sleep(0.05)"))).then(done("b1"));
    const b2 = asCaller("user:b", () => db.query("select 2")).then(done("b2"));
    const a2 = asCaller("user:a", () => db.query("select 3")).then(done("a2"));
    await Promise.all([running, b1, b2, a2]);
    expect(order).toEqual(["a1", "b1", "a2", "b2"]);
    expect(db.queueState!()).toEqual({ waiting: 0, oldestWaitMs: 0 });
  });
});

describe("HTTP requests queue as their caller", () => {
  let db: Db;
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    db = await openTestDb("pglite");
    dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-fair-"));
    const config = { ...configFromEnv({ DATA_DIR: dataDir, SEED_DEMO: "false" } as NodeJS.ProcessEnv, []), port: 0, host: "127.0.0.1" };
    app = await buildServer({ db, config, migrations: 0 }, { logger: false, serveApp: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers a staff member's {companies{id}} while three slow statements of the system wait their turn", async () => {
    const token = (await signIn(app, "front_desk")).accessToken;
    const companies = () => app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query: "{ companies(limit: 3) { id } }" } });
    await companies(); // a user already at work: the token's check is cached, the request is one statement
    const order: string[] = [];
    // outside any request, as background work (live-query refreshes) runs
    const slow = [1, 2, 3].map(() => db.query("select pg_sleep(0.4)").then(() => order.push("system")));
    while (db.queueState!().waiting < 2) await new Promise((r) => setTimeout(r, 10)); // one runs, two wait
    const staff = companies().then((r) => {
      expect(r.json().errors).toBeUndefined();
      order.push("staff");
    });
    await Promise.all([...slow, staff]);
    expect(order).toEqual(["system", "staff", "system", "system"]);
  });

  it("queues a websocket operation as its user too", async () => {
    const token = (await signIn(app, "front_desk")).accessToken;
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/graphql`, "graphql-transport-ws");
    const messages: { type: string; id?: string }[] = [];
    const arrived = (type: string) =>
      new Promise<void>((resolve) => {
        const look = () => (messages.some((m) => m.type === type) ? resolve() : setTimeout(look, 5));
        look();
      });
    ws.on("message", (raw) => messages.push(JSON.parse(String(raw)) as { type: string }));
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { headers: { Authorization: `Bearer ${token}` } } })));
    await arrived("connection_ack");
    try {
      const order: string[] = [];
      const slow = [1, 2, 3, 4].map(() => db.query("select pg_sleep(0.4)").then(() => order.push("system")));
      while (db.queueState!().waiting < 3) await new Promise((r) => setTimeout(r, 10));
      ws.send(JSON.stringify({ type: "subscribe", id: "1", payload: { query: "{ companies(limit: 3) { id } }" } }));
      const staff = arrived("complete").then(() => order.push("staff"));
      await Promise.all([...slow, staff]);
      // its session is checked again (one statement), then the query runs (another): a turn each
      expect(order.indexOf("staff")).toBeLessThanOrEqual(2);
    } finally {
      ws.close();
    }
  });
});
