import type { WebSocket } from "ws";
import type { Config } from "../../config.ts";
import type { Session, TokenVerifier } from "../../auth/types.ts";
import { tokenExpiry } from "./token-cache.ts";
import type { EngineInternals } from "../engine.ts";
import { RequestError } from "../errors.ts";
import type { GraphQLRequest } from "../execute/run.ts";
import { executeOperation, parseDocument, selectOperation } from "../execute/run.ts";
import { sessionFromHeaders, type HeaderMap } from "./session.ts";
import { asCaller } from "../../db/caller.ts";
import { callerOfSession } from "../../request-caller.ts";

interface Message {
  type?: string;
  id?: string;
  payload?: Record<string, unknown> | null;
}

/** connection_init's payload: {headers: {...}} (Hasura's convention) or the headers themselves. */
function payloadHeaders(payload: Record<string, unknown> | null | undefined): HeaderMap {
  const source = (payload && typeof payload.headers === "object" && payload.headers) || payload || {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source as Record<string, unknown>)) if (typeof v === "string") out[k.toLowerCase()] = v;
  return out;
}

/** The close code of a socket whose session ended or expired: graphql-ws clients reconnect with their current token. */
export const SESSION_CLOSE = { code: 4403, reason: "Forbidden" } as const;

export interface SocketAuth {
  /** The cached token verifier of the POST route (a revocation empties it). */
  verifier: TokenVerifier;
  /** Registers a check to run when users change (those users, or undefined: anyone) or a session ends; returns the unregister function. */
  onRevocation(listener: (userIds?: ReadonlySet<string>) => void, userId?: string): () => void;
}

const sameRoles = (a: Session, b: Session) => a.userId === b.userId && a.roles.length === b.roles.length && a.roles.every((r) => b.roles.includes(r));

function bearerOf(headers: HeaderMap): string | undefined {
  const value = headers.authorization;
  const text = Array.isArray(value) ? value[0] : value;
  return text ? /^Bearer\s+(.+)$/i.exec(text.trim())?.[1] : undefined;
}

/**
 * graphql-transport-ws (graphql-ws 5, what Refine's live provider speaks) and, for old clients, the legacy
 * subscriptions-transport-ws protocol ("graphql-ws": start/data/stop). Authenticated by connection_init; a
 * token's session is checked again before every operation and whenever users change or a session ends, and
 * the socket is closed when the token expires, the session ended, or the user's roles changed (issue 10 §5).
 */
export function handleSocket(socket: WebSocket, upgradeHeaders: HeaderMap, engine: EngineInternals, config: Config, auth: SocketAuth): void {
  const legacy = socket.protocol === "graphql-ws";
  let session: Session | undefined;
  /** The headers of a token session (checked again later); undefined for admin-secret sessions. */
  let credentials: HeaderMap | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  let unwatch: (() => void) | undefined;
  let initialised = false;
  const operations = new Map<string, () => void>();
  const awaitingCheck = new Set<string>();
  const send = (text: string) => {
    if (socket.readyState === socket.OPEN) socket.send(text);
  };
  const sendMsg = (type: string, id?: string, payloadText?: string) =>
    send(`{"type":${JSON.stringify(type)}${id !== undefined ? `,"id":${JSON.stringify(id)}` : ""}${payloadText !== undefined ? `,"payload":${payloadText}` : ""}}`);
  const initTimer = setTimeout(() => {
    if (!initialised) socket.close(4408, "Connection initialisation timeout");
  }, 10_000);
  let keepAlive: ReturnType<typeof setInterval> | undefined;

  const endSession = () => {
    if (socket.readyState === socket.OPEN) socket.close(SESSION_CLOSE.code, SESSION_CLOSE.reason);
  };
  /** True while the session the socket started with still holds, with the same roles; else closes the socket. */
  let checking: Promise<boolean> | undefined;
  let again = false;
  const stillValid = async (): Promise<boolean> => {
    if (!credentials || !session) return Boolean(session);
    let current: Session | undefined;
    try {
      current = await sessionFromHeaders(credentials, config, auth.verifier);
    } catch {
      current = undefined;
    }
    if (current && sameRoles(current, session)) return true;
    endSession();
    return false;
  };
  const recheck = (): Promise<boolean> => {
    if (checking) {
      again = true;
      return checking;
    }
    checking = stillValid().finally(() => {
      checking = undefined;
      if (again) {
        again = false;
        void recheck();
      }
    });
    return checking;
  };

  const errorsOf = (e: unknown) => {
    const err = e instanceof RequestError ? e : new RequestError("unexpected", "internal error");
    return JSON.stringify([{ message: err.message, extensions: { path: err.path, code: err.code } }]);
  };

  const start = async (id: string, payload: Record<string, unknown>) => {
    if (operations.has(id)) {
      if (!legacy) socket.close(4409, `Subscriber for ${id} already exists`);
      return;
    }
    const request: GraphQLRequest = { query: String(payload.query ?? ""), variables: (payload.variables as Record<string, unknown>) ?? undefined, operationName: (payload.operationName as string) ?? undefined };
    const next = legacy ? "data" : "next";
    let isSubscription = false;
    try {
      isSubscription = selectOperation(parseDocument(request.query), request.operationName).operation === "subscription";
    } catch {
      // executeOperation reports the problem below
    }
    try {
      if (isSubscription) {
        const stop = engine.live.subscribe(session!, request, (text) => sendMsg(next, id, text));
        operations.set(id, stop);
      } else {
        operations.set(id, () => undefined);
        const text = await executeOperation(engine.contextFor(session!), request).catch((e) => {
          if (e instanceof RequestError) return `{"errors":${errorsOf(e)}}`;
          throw e;
        });
        if (operations.has(id)) {
          sendMsg(next, id, text);
          sendMsg("complete", id);
          operations.delete(id);
        }
      }
    } catch (e) {
      operations.delete(id);
      if (legacy) sendMsg("error", id, `{"errors":${errorsOf(e)}}`);
      else sendMsg("error", id, errorsOf(e));
    }
  };

  socket.on("message", async (data) => {
    let msg: Message;
    try {
      msg = JSON.parse(String(data)) as Message;
    } catch {
      socket.close(4400, "Invalid message received");
      return;
    }
    switch (msg.type) {
      case "connection_init": {
        if (initialised) {
          socket.close(4429, "Too many initialisation requests");
          return;
        }
        initialised = true;
        clearTimeout(initTimer);
        try {
          const fromPayload = payloadHeaders(msg.payload);
          const headers = Object.keys(fromPayload).length ? fromPayload : upgradeHeaders;
          session = await sessionFromHeaders(headers, config, auth.verifier);
          if (socket.readyState !== socket.OPEN) return;
          // A token session (not the admin secret, which sessionFromHeaders prefers) is watched until it ends.
          const token = headers["x-hasura-admin-secret"] === undefined && headers["x-hasura-access-key"] === undefined ? bearerOf(headers) : undefined;
          if (token) {
            credentials = headers;
            // (a verifier that accepts tokens without `exp` — test doubles — leaves the expiry to the checks)
            const expiry = tokenExpiry(token);
            if (expiry) {
              if (expiry <= Date.now()) return endSession();
              expiryTimer = setTimeout(endSession, Math.min(expiry - Date.now(), 2 ** 31 - 1));
            }
            unwatch = auth.onRevocation(() => void recheck(), session.userId);
          }
          sendMsg("connection_ack");
          if (legacy) {
            sendMsg("ka");
            keepAlive = setInterval(() => sendMsg("ka"), 5000);
          }
        } catch (e) {
          const err = e instanceof RequestError ? e : new RequestError("access-denied", "authentication failed");
          if (legacy) sendMsg("connection_error", undefined, JSON.stringify({ message: err.message }));
          socket.close(4403, "Forbidden");
        }
        return;
      }
      case "ping":
        sendMsg("pong");
        return;
      case "pong":
        return;
      case "subscribe":
      case "start": {
        if (!session) {
          socket.close(4401, "Unauthorized");
          return;
        }
        if (typeof msg.id !== "string" || !msg.payload) {
          socket.close(4400, "Invalid message received");
          return;
        }
        // "complete" may arrive while the session is being checked: the operation then never starts.
        const { id, payload } = msg;
        if (awaitingCheck.has(id)) {
          if (!legacy) socket.close(4409, `Subscriber for ${id} already exists`);
          return;
        }
        awaitingCheck.add(id);
        // the embedded database takes turns between callers: this operation's statements are its user's
        await asCaller(callerOfSession(session), async () => {
          const valid = await recheck();
          if (!awaitingCheck.delete(id) || !valid) return;
          await start(id, payload);
        });
        return;
      }
      case "complete":
      case "stop": {
        if (msg.id !== undefined) awaitingCheck.delete(msg.id);
        const stop = msg.id !== undefined ? operations.get(msg.id) : undefined;
        if (stop) {
          stop();
          operations.delete(msg.id!);
        }
        if (msg.type === "stop" && msg.id !== undefined) sendMsg("complete", msg.id);
        return;
      }
      case "connection_terminate":
        socket.close(1000);
        return;
      default:
        socket.close(4400, "Invalid message received");
    }
  });
  socket.on("close", () => {
    clearTimeout(initTimer);
    clearTimeout(expiryTimer);
    unwatch?.();
    if (keepAlive) clearInterval(keepAlive);
    for (const stop of operations.values()) stop();
    operations.clear();
  });
}
