/**
 * The real server in-process for the framework's UI tests, like ui-server.ts but with an admin secret so
 * a test can create and track its own table through the engine's admin interface (/v2/query, /v1/metadata).
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { buildServer } from "../../server/app.ts";
import { configFromEnv } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";
import { openTestDb } from "./db.ts";

export const FRAMEWORK_ADMIN_SECRET = "framework-test-secret";

export interface FrameworkUiServer {
  baseUrl: string;
  db: Db;
  /** POST to an admin endpoint with the admin secret; throws on an error answer. */
  admin(endpoint: "/v2/query" | "/v1/metadata", body: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function startFrameworkUiServer(): Promise<FrameworkUiServer> {
  const db = await openTestDb("pglite");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-fw-ui-"));
  const config = {
    ...configFromEnv({ DATA_DIR: dataDir, SEED_DEMO: "false", HASURA_GRAPHQL_ADMIN_SECRET: FRAMEWORK_ADMIN_SECRET } as NodeJS.ProcessEnv, []),
    port: 0,
    host: "127.0.0.1",
  };
  const app = await buildServer({ db, config, migrations: 0 }, { logger: false, serveApp: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  config.publicUrl = baseUrl;
  return {
    baseUrl,
    db,
    async admin(endpoint, body) {
      const res = await fetch(`${baseUrl}${endpoint}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hasura-admin-secret": FRAMEWORK_ADMIN_SECRET },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`${endpoint} ${res.status}: ${JSON.stringify(json)}`);
      return json;
    },
    async close() {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
