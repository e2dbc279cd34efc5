/**
 * The GraphQL bench's HTTP clients, in a worker thread: a load generator shares no event loop with the server it
 * measures (its socket reads and HTTP parsing would otherwise delay the server's own requests and be counted as
 * the engine's time). The main thread asks for a round of requests and gets their latencies back.
 */
import { parentPort, Worker } from "node:worker_threads";
import { runConcurrent } from "./stats.ts";
import { encodeRequest, HttpConnection } from "./http-connection.ts";

export interface LoadRequest {
  /** 127.0.0.1 unless given */
  host?: string;
  port: number;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

interface RoundAsk extends LoadRequest {
  id: number;
  total: number;
  concurrency: number;
}

type RoundReply = { id: number; latencies: number[]; wallMs: number } | { id: number; error: string };

if (parentPort) {
  const port = parentPort;
  // connections kept across rounds, per server and client count (one per client: each sends its next request when its answer is in)
  const pools = new Map<string, HttpConnection[]>();
  port.on("message", (ask: RoundAsk) => {
    const host = ask.host ?? "127.0.0.1";
    const key = `${host}:${ask.port}:${ask.concurrency}`;
    const idle = pools.get(key) ?? Array.from({ length: ask.concurrency }, () => new HttpConnection(host, ask.port));
    pools.set(key, idle);
    const request = encodeRequest({ host, port: ask.port, path: ask.path, headers: ask.headers, body: JSON.stringify(ask.body) });
    const send = async () => {
      const connection = idle.pop()!;
      try {
        const answer = await connection.send(request);
        if (answer.status !== 200 || answer.start.startsWith('{"errors":')) throw new Error(`${ask.path}: HTTP ${answer.status} ${answer.start}`);
      } finally {
        idle.push(connection);
      }
    };
    runConcurrent(ask.total, ask.concurrency, send).then(
      (r) => port.postMessage({ id: ask.id, ...r } satisfies RoundReply),
      (e: Error) => port.postMessage({ id: ask.id, error: e.message } satisfies RoundReply),
    );
  });
}

export interface LoadClient {
  /** `total` requests with `concurrency` clients, each sending the next as soon as its previous answer has arrived. */
  round(request: LoadRequest, total: number, concurrency: number): Promise<{ latencies: number[]; wallMs: number }>;
  close(): Promise<void>;
}

export function startLoadClient(): LoadClient {
  // this file is TypeScript: the worker registers tsx first (a worker's entry is loaded before --import hooks apply)
  const entry = `import("tsx/esm/api").then((tsx) => tsx.register()).then(() => import(${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(entry, { eval: true });
  const pending = new Map<number, { resolve: (r: { latencies: number[]; wallMs: number }) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  worker.on("message", (reply: RoundReply) => {
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    if ("error" in reply) p?.reject(new Error(reply.error));
    else p?.resolve(reply);
  });
  const fail = (e: Error) => {
    pending.forEach((p) => p.reject(e));
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the load client's worker stopped (exit code ${code})`)));
  return {
    round(request, total, concurrency) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...request, id, total, concurrency } satisfies RoundAsk);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
