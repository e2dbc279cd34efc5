import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ANY_CHANGE, type Db, type Queryable, type QueryOptions, type QueryResult } from "./types.ts";
import { Mutex, type QueueState } from "./mutex.ts";
import { SYSTEM_CALLER } from "./caller.ts";

/** What PostgreSQL says when statement_timeout ends a statement; the embedded watchdog says the same. */
export class StatementTimeoutError extends Error {
  readonly code = "57014";
  constructor(ms: number) {
    super(`canceling statement due to statement timeout (${ms} ms)`);
  }
}

export interface PgliteOptions {
  /** undefined = in memory */
  dataDir?: string;
  /** A dump (from dumpDataDir) to start from. */
  loadDataDir?: Blob | Uint8Array;
  /**
   * The embedded equal of PostgreSQL's statement_timeout: a statement still running after this long fails,
   * and the worker that owns the database is ended and started again (a wedged PGlite cannot be interrupted).
   * A query's own timeoutMs (staff reads, issue 32) works the same way.
   */
  statementTimeoutMs?: number;
}

/** A session that can run a multi-statement script with every value as text (run_sql). */
export interface ScriptQueryable extends Queryable {
  runScript(sql: string, textTypes: readonly string[]): Promise<{ fields: string[]; rows: (string | null)[][]; command?: string }[]>;
}

export interface PgliteDb extends Db {
  readonly kind: "pglite";
  transaction<T>(fn: (tx: ScriptQueryable) => Promise<T>): Promise<T>;
  /** The whole database as a tarball (loadDataDir takes it back). */
  dumpDataDir(): Promise<Uint8Array>;
  /** How many times the watchdog restarted the worker (diagnostics, tests). */
  readonly restarts: number;
  queueState(): QueueState;
}

type Op =
  | { op: "query"; sql: string; params: unknown[] }
  | { op: "exec"; sql: string }
  | { op: "script"; sql: string; textTypes: readonly string[] }
  | { op: "listen" | "unlisten"; channel: string }
  | { op: "dump" }
  | { op: "close" };

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  timer?: NodeJS.Timeout;
}

// a path, not a URL object: under a jsdom test environment URL is jsdom's, which Worker does not take
const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "pglite-worker.mjs");

function toError(plain: Record<string, unknown>): Error {
  return Object.assign(new Error(String(plain.message)), plain);
}

/**
 * PGlite in a worker thread that owns it (DESIGN §3: one connection, transactions serialised here by a
 * mutex). A statement that outlives statementTimeoutMs is failed and the worker restarted: from the data
 * directory when there is one (like a crash: committed work kept), in memory from the image it started
 * from (docs/DECISIONS.md: only tests run in memory; their later changes are lost, loudly).
 */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDb> {
  // ArrayBuffer.isView, not instanceof: under a jsdom test environment a Buffer comes from another realm
  const given = options.loadDataDir;
  const load = !given ? undefined : ArrayBuffer.isView(given) ? new Uint8Array(given.buffer, given.byteOffset, given.byteLength) : new Uint8Array(await given.arrayBuffer());
  const timeout = options.statementTimeoutMs;
  const mutex = new Mutex();
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let restarts = 0;
  let closed = false;
  let worker!: Worker;
  const retired = new WeakSet<Worker>();
  let ready!: Promise<void>;

  const start = () => {
    // plain JavaScript: none of the parent's loader flags (tsx, --input-type) apply to it
    const w = new Worker(WORKER_FILE, { workerData: { dataDir: options.dataDir, load }, execArgv: [] });
    worker = w;
    ready = new Promise<void>((resolve, reject) => {
      w.on("message", (msg: { type?: string; id?: number; ok?: boolean; result?: unknown; error?: Record<string, unknown>; channel?: string; payload?: string }) => {
        if (msg.type === "ready") return resolve();
        if (msg.type === "failed") return reject(toError(msg.error!));
        if (msg.type === "notify") return handlers.get(msg.channel!)?.forEach((h) => h(msg.payload ?? ""));
        const p = pending.get(msg.id!);
        if (!p) return;
        pending.delete(msg.id!);
        clearTimeout(p.timer);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(toError(msg.error!));
      });
      w.on("error", (e) => {
        reject(e);
        failAll(e);
      });
      w.on("exit", (code) => {
        if (retired.has(w) || closed) return;
        console.error(`[db] the embedded database worker stopped (exit code ${code}): starting it again`);
        replace(new Error(`the embedded database worker stopped (exit code ${code})`));
      });
    });
    ready.catch(() => undefined);
  };
  const failAll = (e: unknown) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      pending.delete(id);
      p.reject(e);
    }
  };

  /** A fresh worker: listeners listen again and hear ANY_CHANGE (notifications may have been missed). */
  const replace = (why: Error) => {
    restarts++;
    const old = worker;
    retired.add(old);
    failAll(why);
    // the old worker must be gone before a new one opens the same files
    ready = old.terminate().then(() => {
      start();
      return ready;
    });
    ready.catch(() => undefined);
    void (async () => {
      try {
        await ready;
        for (const channel of handlers.keys()) await mutex.run(() => send({ op: "listen", channel }), SYSTEM_CALLER);
        handlers.forEach((set) => set.forEach((h) => h(ANY_CHANGE)));
      } catch (e) {
        console.error("[db] restarting the embedded database failed:", e);
      }
    })();
  };
  /** The watchdog: fail the stuck statement, end its worker, start a fresh one. */
  const restart = (ms: number) => {
    console.error(`[db] a statement ran longer than ${ms} ms: restarting the embedded database${options.dataDir ? "" : " (in memory: back to the image it was opened from)"}`);
    replace(new StatementTimeoutError(ms));
  };

  const send = async (op: Op, durable = false, ownTimeoutMs?: number): Promise<unknown> => {
    await ready;
    const id = nextId++;
    const limit = Math.min(timeout || Infinity, ownTimeoutMs || Infinity);
    return new Promise((resolve, reject) => {
      const p: Pending = { resolve, reject };
      if (limit < Infinity && op.op !== "close" && op.op !== "dump") {
        p.timer = setTimeout(() => {
          if (pending.get(id) === p) restart(limit);
        }, limit);
      }
      pending.set(id, p);
      worker.postMessage({ id, durable, ...op });
    });
  };

  start();
  await ready;

  // `durable`: this statement ends a commit (autocommit, or COMMIT), so the worker flushes it to disk before answering.
  const direct = (durable: boolean): ScriptQueryable => ({
    query: async <T>(sql: string, params: unknown[] = [], options?: QueryOptions) => (await send({ op: "query", sql, params }, durable, options?.timeoutMs)) as QueryResult<T>,
    exec: async (sql: string) => {
      await send({ op: "exec", sql }, durable);
    },
    runScript: async (sql, textTypes) => (await send({ op: "script", sql, textTypes }, durable)) as Awaited<ReturnType<ScriptQueryable["runScript"]>>,
  });
  const inTransaction = direct(false);
  const autocommit = direct(true);

  return {
    kind: "pglite",
    get restarts() {
      return restarts;
    },
    queueState: () => mutex.state(),
    query: (sql, params, options) => mutex.run(() => autocommit.query(sql, params, options)),
    exec: (sql) => mutex.run(() => autocommit.exec(sql)),
    transaction: (fn) =>
      mutex.run(async () => {
        await inTransaction.exec("BEGIN");
        try {
          const result = await fn(inTransaction);
          await autocommit.exec("COMMIT");
          return result;
        } catch (error) {
          // after a watchdog restart there is no transaction left to roll back: PostgreSQL only warns
          await inTransaction.exec("ROLLBACK");
          throw error;
        }
      }),
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        await mutex.run(() => send({ op: "listen", channel }));
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await mutex.run(() => send({ op: "unlisten", channel }));
        }
      };
    },
    dumpDataDir: () => mutex.run(async () => (await send({ op: "dump" })) as Uint8Array),
    close: () =>
      mutex.run(async () => {
        if (closed) return;
        try {
          await send({ op: "close" });
        } finally {
          closed = true;
          await worker.terminate();
        }
      }),
  };
}
