/**
 * A minimal graphql-transport-ws client (the protocol our server and Refine's live provider speak).
 * Session headers travel in connection_init's payload as {headers: {...}}, Hasura's convention.
 * One operation per connection: the first `next` (or `error`) is the result, as upstream takes the first message.
 */
import WebSocket from "ws";

export interface WsResult {
  /** the ExecutionResult of `next`, or {errors} built from an `error` message or a refused connection */
  payload: unknown;
  kind: "next" | "error" | "closed";
}

export function wsOperation(url: string, headers: Record<string, string>, operation: unknown, timeoutMs = 15_000): Promise<WsResult> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, "graphql-transport-ws");
    let settled = false;
    const finish = (r: WsResult | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        socket.close(1000);
      } catch {
        // already closed
      }
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const timer = setTimeout(() => finish(new Error(`websocket: no result within ${timeoutMs} ms`)), timeoutMs);
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { headers } })));
    socket.on("message", (data) => {
      let msg: { type?: string; id?: string; payload?: unknown };
      try {
        msg = JSON.parse(String(data)) as typeof msg;
      } catch {
        finish(new Error(`websocket: not JSON: ${String(data).slice(0, 200)}`));
        return;
      }
      switch (msg.type) {
        case "connection_ack":
          socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: operation }));
          break;
        case "ping":
          socket.send(JSON.stringify({ type: "pong" }));
          break;
        case "next":
          finish({ kind: "next", payload: msg.payload });
          break;
        case "error":
          finish({ kind: "error", payload: { errors: msg.payload } });
          break;
        case "complete":
          finish({ kind: "closed", payload: { errors: [{ message: "complete without a result" }] } });
          break;
      }
    });
    socket.on("close", (code, reason) => finish({ kind: "closed", payload: { errors: [{ message: `connection closed ${code} ${String(reason)}` }] } }));
    socket.on("error", (e) => finish(new Error(`websocket: ${e.message}`)));
  });
}
