import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { bearer, signIn } from "../support/auth.ts";
import type { Db } from "../../server/db/types.ts";
import { buildServer } from "../../server/app.ts";
import { configFromEnv } from "../../server/config.ts";

/**
 * Issue 32 (3a): a staff member's slow read held the database until the 15 s statement timeout. Non-admin
 * roles' GraphQL reads now have a short timeout of their own (STAFF_STATEMENT_TIMEOUT_MS; shortened here).
 */
describe.each(databaseLanes())("the statement timeout of staff reads [%s]", (lane) => {
  const STAFF_MS = 250;
  let db: Db;
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    db = await openTestDb(lane);
    dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-staff-timeout-"));
    const env = { DATA_DIR: dataDir, SEED_DEMO: "false", STAFF_STATEMENT_TIMEOUT_MS: String(STAFF_MS) } as NodeJS.ProcessEnv;
    app = await buildServer({ db, config: { ...configFromEnv(env, []), port: 0, host: "127.0.0.1" }, migrations: 0 }, { logger: false, serveApp: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const gql = async (token: string, query: string) =>
    (await app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query } })).json() as { data?: Record<string, unknown[]>; errors?: { message: string; extensions: { code: string } }[] };

  it("stops a staff read that runs past it with a clear error, while an admin's same read runs to the end", async () => {
    const staff = (await signIn(app, "front_desk")).accessToken;
    const admin = (await signIn(app, "admin")).accessToken;
    // names within the column's bound (200 characters, issue 32)
    await db.exec(`insert into banks (name) select 'Timeout probe ' || g || repeat('x', 179) from generate_series(1, ${lane === "pglite" ? 100_000 : 300_000}) g`);
    // no name matches: the whole table is scanned
    const slowRead = `{ banks(where: {name: {_ilike: "%no such bank%"}}, limit: 1) { id } }`;
    let started = Date.now();
    const asAdmin = await gql(admin, slowRead);
    const adminMs = Date.now() - started;
    expect(asAdmin.errors).toBeUndefined();
    expect(asAdmin.data?.banks).toEqual([]);
    expect(adminMs).toBeGreaterThan(STAFF_MS * 1.5); // else the staff read below would prove nothing
    started = Date.now();
    const stopped = await gql(staff, slowRead);
    expect(stopped.data).toBeUndefined();
    expect(stopped.errors?.[0]).toMatchObject({ message: "the query took too long and was stopped (statement timeout)", extensions: { code: "unexpected" } });
    expect(Date.now() - started).toBeLessThan(adminMs);
    // the embedded database was restarted to stop the statement: in memory (tests only) it is back to its
    // image, so the sessions signed in since are gone, and its caches are cold
    const again = lane === "pglite" ? (await signIn(app, "front_desk")).accessToken : staff;
    const next = await gql(again, `{ companies(limit: 1) { id } }`);
    expect(next.errors).toBeUndefined();
  }, 120_000);
});
