/**
 * Live provider: @refinedev/hasura's, whose subscriptions to the same rows hand each answer to Refine (which
 * refetches). What the product adds is the socket: graphql-ws to /v1/graphql with the access token in
 * connection_init (Hasura's `headers`), renewed when expired, and the connection status.
 */
import type { LiveProvider } from "@refinedev/core";
import { liveProvider } from "@refinedev/hasura";
import { createClient, type Client, type ExecutionResult, type Sink, type SubscribePayload } from "graphql-ws";
import { graphqlWsUrl } from "../config.ts";
import { getSession } from "../session.ts";
import { connectionFailed, connectionOk } from "../connection.ts";
import { refreshAccessToken } from "../api.ts";
import { readKey, type AnsweredRows, type ReadKind } from "./answeredRows.ts";

const LOST_CODES = new Set([1001, 1006, 1011, 1012, 1013, 1014]);

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
    // The server closes a socket when its token expires or its session ends (issue 10 §5); the client then
    // reconnects, with a renewed token when the stored one has expired. It also keeps reconnecting through
    // a server restart (random back-off, at most ~30 s apart); live lists resume once it is back.
    retryAttempts: Number.POSITIVE_INFINITY,
    retryWait: async (retries) => new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** Math.min(retries, 5)) * (0.5 + Math.random() / 2))),
    on: {
      connected: () => connectionOk(),
      // The server went away (shut down, restarted, crashed, unreachable): not a close on purpose (1000)
      // nor a refusal of this client (4xxx).
      closed: (event) => {
        if (LOST_CODES.has((event as { code?: number })?.code ?? 1006)) connectionFailed("network");
      },
    },
    connectionParams: async () => {
      let token = getSession()?.accessToken;
      if (token && expired(token)) token = await refreshAccessToken().catch(() => token);
      return token ? { headers: { Authorization: `Bearer ${token}` } } : {};
    },
  });
}

/**
 * The socket as the package's live provider sees it: only answers that carry data. The provider reads
 * `payload.data[operation]` unchecked, and an answer with only errors (a live query that failed, e.g. timed out)
 * would throw inside graphql-ws's message handler; left out, the list keeps the rows it has.
 */
function answersWithData(client: Client): Client {
  const subscribe = <Data, Extensions>(payload: SubscribePayload, sink: Sink<ExecutionResult<Data, Extensions>>) =>
    client.subscribe<Data, Extensions>(payload, { ...sink, next: (answer) => answer.data && sink.next(answer) });
  return { ...client, subscribe };
}

const KIND_OF: Record<string, ReadKind> = { useList: "list", useOne: "one", useMany: "many" };

/**
 * @refinedev/hasura's live provider (idType uuid, Hasura's default naming) over the app's socket. With `answers`
 * (the data provider's, answeredRows.ts), a subscription's first answer that equals the page's last read of the same
 * rows is not passed on: Refine would refetch what the page already shows. A first answer that differs (a change
 * between the read and the subscription's start) is passed on as any later one.
 */
export function createLiveProvider(client: Client = createWsClient(), answers?: AnsweredRows): LiveProvider {
  const live = liveProvider(answersWithData(client), { idType: "uuid", namingConvention: "hasura-default" });
  if (!answers) return live;
  return {
    ...live,
    subscribe: (options) => {
      const kind = KIND_OF[String(options.params?.subscriptionType)];
      if (!kind) return live.subscribe(options);
      const key = readKey(kind, options.params ?? {});
      let first = true;
      return live.subscribe({
        ...options,
        callback: (event) => {
          if (!first) return options.callback(event);
          first = false;
          void answers.repeats(key, event).then((same) => same || options.callback(event));
        },
      });
    },
  };
}
