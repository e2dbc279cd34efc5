/**
 * The real server in-process for the framework's UI tests: ui-server.ts with an admin secret, so a test
 * can create and track its own table through the engine's admin interface (/v2/query, /v1/metadata).
 */
import { startUiServer, type UiServer } from "./ui-server.ts";

export const FRAMEWORK_ADMIN_SECRET = "framework-test-secret";

export interface FrameworkUiServer extends UiServer {
  /** POST to an admin endpoint with the admin secret; throws on an error answer. */
  admin(endpoint: "/v2/query" | "/v1/metadata", body: unknown): Promise<unknown>;
}

export async function startFrameworkUiServer(): Promise<FrameworkUiServer> {
  const server = await startUiServer({ HASURA_GRAPHQL_ADMIN_SECRET: FRAMEWORK_ADMIN_SECRET });
  return {
    ...server,
    async admin(endpoint, body) {
      const res = await fetch(`${server.baseUrl}${endpoint}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hasura-admin-secret": FRAMEWORK_ADMIN_SECRET },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`${endpoint} ${res.status}: ${JSON.stringify(json)}`);
      return json;
    },
  };
}
