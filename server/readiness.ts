import type { Db } from "./db/types.ts";
import { asCaller } from "./db/caller.ts";

/** How long the database has to answer `select 1` for the server to be ready. */
export const READY_PROBE_MS = 1000;
/** A statement waiting longer than this for the embedded database's one connection means it is stalled. */
export const READY_MAX_QUEUE_WAIT_MS = 5000;

export interface Readiness {
  readonly ready: boolean;
  /** Why not, in words for an operator. */
  readonly reason?: string;
  readonly db: Db["kind"];
  /** The embedded database's queue (PostgreSQL has a pool instead). */
  readonly queue?: { readonly waiting: number; readonly oldestWaitMs: number };
}

/**
 * /readyz (issue 32): ready when the database answers a trivial query within READY_PROBE_MS and the embedded
 * queue moves. /healthz stays a liveness check (the process answers). While a probe is unanswered no other is
 * queued: a load balancer asking every second must not add to a stalled queue.
 */
export function readinessOf(db: Db): () => Promise<Readiness> {
  let probe: Promise<unknown> | undefined;
  let probeStarted = 0;
  return async () => {
    if (!probe) {
      probeStarted = Date.now();
      const p: Promise<unknown> = asCaller("readiness", () => db.query("select 1")).finally(() => {
        if (probe === p) probe = undefined;
      });
      probe = p;
    }
    const current = probe;
    let timer: NodeJS.Timeout | undefined;
    // each call waits at most READY_PROBE_MS, for its own probe or the one still unanswered
    const outcome = await Promise.race([
      current.then(
        () => "answered" as const,
        (e: Error) => `the database failed the probe: ${e.message}`,
      ),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`the database did not answer a trivial query within ${Date.now() - probeStarted} ms`), READY_PROBE_MS))),
    ]);
    clearTimeout(timer);
    const queue = db.queueState?.();
    const base = { db: db.kind, ...(queue ? { queue } : {}) };
    if (outcome !== "answered") return { ready: false, reason: outcome, ...base };
    if (queue && queue.oldestWaitMs > READY_MAX_QUEUE_WAIT_MS) return { ready: false, reason: `a statement has waited ${queue.oldestWaitMs} ms for the embedded database`, ...base };
    return { ready: true, ...base };
  };
}
