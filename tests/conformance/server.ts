/**
 * The server under test, in-process and listening on a free port: the product's own wiring (buildServer) over a
 * private database, with an admin secret (so /v1/query exists) and --stringify-numeric-types, as upstream runs it.
 */
import os from "node:os";
import path from "node:path";
import { buildServer } from "../../server/app.ts";
import { configFromEnv, type Config } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";
import { ADMIN_SECRET, type ServerUnderTest } from "./http.ts";

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
