/** Live provider: graphql-ws to /v1/graphql, the access token in connection_init (Hasura's `headers`). */
import type { LiveProvider } from "@refinedev/core";
import { liveProvider as hasuraLiveProvider } from "@refinedev/hasura";
import { createClient, type Client } from "graphql-ws";
import { graphqlWsUrl } from "../config.ts";
import { getSession } from "../session.ts";

/** `webSocketImpl`: the WebSocket class where the global one will not do (Node-side tests). */
export function createWsClient(webSocketImpl?: unknown): Client {
  return createClient({
    url: graphqlWsUrl(),
    webSocketImpl,
    lazy: true,
    retryAttempts: 5,
    connectionParams: () => {
      const token = getSession()?.accessToken;
      return token ? { headers: { Authorization: `Bearer ${token}` } } : {};
    },
  });
}

export function createLiveProvider(client: Client = createWsClient()): LiveProvider {
  return hasuraLiveProvider(client, { idType: "uuid", namingConvention: "hasura-default" });
}
