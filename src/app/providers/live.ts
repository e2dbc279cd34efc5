/** Live provider: graphql-ws to /v1/graphql, the access token in connection_init (Hasura's `headers`). */
import type { LiveProvider } from "@refinedev/core";
import { liveProvider as hasuraLiveProvider } from "@refinedev/hasura";
import { createClient, type Client } from "graphql-ws";
import { graphqlWsUrl } from "../config.ts";
import { getSession } from "../session.ts";
import { refreshAccessToken } from "../api.ts";

/** True when the JWT's `exp` has passed (or is within 10 s); read without verifying, only to decide to renew it. */
function expired(token: string): boolean {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: number };
    return typeof payload.exp === "number" && payload.exp * 1000 < Date.now() + 10_000;
  } catch {
    return false;
  }
}

/** `webSocketImpl`: the WebSocket class where the global one will not do (Node-side tests). */
export function createWsClient(webSocketImpl?: unknown): Client {
  return createClient({
    url: graphqlWsUrl(),
    webSocketImpl,
    lazy: true,
    retryAttempts: 5,
    // The server closes a socket when its token expires or its session ends (issue 10 §5); the client then
    // reconnects, with a renewed token when the stored one has expired.
    connectionParams: async () => {
      let token = getSession()?.accessToken;
      if (token && expired(token)) token = await refreshAccessToken().catch(() => token);
      return token ? { headers: { Authorization: `Bearer ${token}` } } : {};
    },
  });
}

export function createLiveProvider(client: Client = createWsClient()): LiveProvider {
  return hasuraLiveProvider(client, { idType: "uuid", namingConvention: "hasura-default" });
}
