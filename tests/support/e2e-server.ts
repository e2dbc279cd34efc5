import { inject } from "vitest";
import type { E2eServer } from "./global-e2e.ts";

/** This worker's browser-lane server (tests/support/global-e2e.ts): files running at once never share a database. */
export function e2eServer(): E2eServer {
  const servers = inject("e2eServers");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  return servers[(worker - 1) % servers.length];
}
