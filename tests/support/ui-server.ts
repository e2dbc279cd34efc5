/**
 * The real server in-process for UI tests: buildServer over a private PGlite copy of the run's seeded
 * template, listening on a free port. The UI code is pointed at it with configureApp({ apiOrigin }).
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { buildServer } from "../../server/app.ts";
import { configFromEnv } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";
import { afterAll, beforeAll } from "vitest";
import { openTestDb } from "./db.ts";

export interface UiServer {
  baseUrl: string;
  db: Db;
  close(): Promise<void>;
}

/** extraEnv: more server settings, e.g. an admin secret for tests that track their own tables. */
export async function startUiServer(extraEnv: Record<string, string> = {}): Promise<UiServer> {
  const db = await openTestDb("pglite");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-ui-"));
  const config = {
    ...configFromEnv({ DATA_DIR: dataDir, SEED_DEMO: "false", TRUST_PROXY: "true", ...extraEnv } as NodeJS.ProcessEnv, []),
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
    async close() {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The server of one test file: started before its tests, closed after them. The returned object reads
 * through to the running server, so tests use `server.baseUrl` and `server.db` as usual.
 */
export function useUiServer(extraEnv: Record<string, string> = {}): UiServer {
  let running: UiServer | undefined;
  beforeAll(async () => {
    running = await startUiServer(extraEnv);
  }, 120_000);
  afterAll(async () => running?.close());
  return new Proxy({} as UiServer, {
    get(_target, key) {
      if (!running) throw new Error("the UI server is started in beforeAll; read it inside a test");
      return Reflect.get(running, key);
    },
  });
}
