/**
 * The GraphQL bench's HTTP clients, in a worker thread: a load generator shares no event loop with the server it
 * measures (its socket reads and HTTP parsing would otherwise delay the server's own requests and be counted as
 * the engine's time). The main thread asks for a round of requests and gets their latencies back.
 */
import http from "node:http";
import { parentPort, Worker } from "node:worker_threads";
import { runConcurrent } from "./stats.ts";

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

/** Sends one request; resolves once the whole response has arrived (status and the first bytes checked, the body not decoded). */
function send(agent: http.Agent, r: LoadRequest, payload: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: r.host ?? "127.0.0.1", port: r.port, path: r.path, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...r.headers } },
      (res) => {
        let head = "";
        res.on("data", (chunk: Buffer) => {
          if (head.length < 10) head += chunk.subarray(0, 10).toString("latin1");
        });
        res.on("end", () => (res.statusCode !== 200 || head.startsWith('{"errors":') ? reject(new Error(`${r.path}: HTTP ${res.statusCode} ${head}`)) : resolve()));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

if (parentPort) {
  const port = parentPort;
  const agents = new Map<number, http.Agent>();
  port.on("message", (ask: RoundAsk) => {
    let agent = agents.get(ask.concurrency);
    if (!agent) agents.set(ask.concurrency, (agent = new http.Agent({ keepAlive: true, maxSockets: ask.concurrency })));
    const payload = JSON.stringify(ask.body);
    runConcurrent(ask.total, ask.concurrency, () => send(agent, ask, payload)).then(
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
