/**
 * The server under test, in-process and listening on a free port: the product's own wiring (buildServer) over a
 * private database, with an admin secret (so /v1/query exists) and --stringify-numeric-types, as upstream runs it.
 */
import os from "node:os";
import path from "node:path";
import { buildServer } from "../../server/app.ts";
import { configFromEnv, type Config } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";
import { afterAll, beforeAll } from "vitest";
import { openTestDb, type Lane } from "../support/db.ts";
import { ADMIN_SECRET, post, type ServerUnderTest } from "./http.ts";

export type { ServerUnderTest } from "./http.ts";


export async function startServer(db: Db): Promise<ServerUnderTest> {
  const base = configFromEnv({}, []);
  const config: Config = {
    ...base,
    port: 0,
    host: "127.0.0.1",
    adminSecret: ADMIN_SECRET,
    stringifyNumericTypes: true,
    seedDemo: false,
    dataDir: path.join(os.tmpdir(), "conformance-data"),
    mediaDir: path.join(os.tmpdir(), "conformance-media"),
  };
  const app = await buildServer({ db, config, migrations: 0 }, { logger: false, serveApp: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {

    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/v1/graphql`,
    close: () => app.close(),
  };
}

/**
 * A test file's server on one database lane, set up by one admin request (a bulk of run_sql and metadata steps) before
 * its tests and closed after them: `q` posts to /v1/query, `gql` to /v1/graphql (with a role's headers, say).
 */
export function serverWithSetup(lane: Lane, setup: unknown) {
  const h = {
    db: undefined as unknown as Db,
    server: undefined as unknown as ServerUnderTest,
    q: (body: unknown) => post(h.server, "/v1/query", body),
    gql: (query: string, headers: Record<string, string> = {}) => post(h.server, "/v1/graphql", { query }, headers),
  };
  beforeAll(async () => {
    h.db = await openTestDb(lane);
    h.server = await startServer(h.db);
    const r = await h.q(setup);
    if (r.status !== 200) throw new Error(`set-up failed: ${JSON.stringify(r.body)}`);
  });
  afterAll(async () => {
    await h.server?.close();
    await h.db?.close();
  });
  return h;
}
