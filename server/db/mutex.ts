import { currentCaller } from "./caller.ts";

interface Waiter {
  readonly caller: string;
  readonly seq: number;
  readonly since: number;
  readonly start: () => void;
}

/** How the queue stands, for readiness checks. */
export interface QueueState {
  /** Callers' statements (or transactions) waiting for the connection. */
  readonly waiting: number;
  /** How long the longest-waiting one has waited (0 when none waits). */
  readonly oldestWaitMs: number;
}

/**
 * A lock that takes turns between callers: PGlite has a single connection, so a transaction must own it until
 * it ends, and a plain FIFO let one user's queued slow statements sit in front of everybody (issue 32). When the
 * lock frees, the next is the first waiter of the caller served longest ago (a caller not served since it last
 * had nothing queued comes first); one caller's own work stays in order. The caller is currentCaller().
 */
export class Mutex {
  private busy = false;
  private readonly queues = new Map<string, Waiter[]>();
  /** When (by the counter below) each caller with work queued or running was last given the lock. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private arrivals = 0;

  async run<T>(fn: () => Promise<T>, caller = currentCaller()): Promise<T> {
    if (this.busy) {
      await new Promise<void>((start) => {
        const queue = this.queues.get(caller) ?? [];
        queue.push({ caller, seq: this.arrivals++, since: Date.now(), start });
        this.queues.set(caller, queue);
      });
    } else this.busy = true;
    this.lastServed.set(caller, ++this.served);
    try {
      return await fn();
    } finally {
      this.release(caller);
    }
  }

  state(): QueueState {
    let waiting = 0;
    let oldest = Infinity;
    for (const queue of this.queues.values()) {
      waiting += queue.length;
      oldest = Math.min(oldest, queue[0].since);
    }
    return { waiting, oldestWaitMs: waiting ? Date.now() - oldest : 0 };
  }

  private release(caller: string): void {
    if (!this.queues.has(caller)) this.lastServed.delete(caller);
    let next: Waiter | undefined;
    let nextServed = Infinity;
    for (const [who, queue] of this.queues) {
      const served = this.lastServed.get(who) ?? -1;
      if (!next || served < nextServed || (served === nextServed && queue[0].seq < next.seq)) {
        next = queue[0];
        nextServed = served;
      }
    }
    if (!next) {
      this.busy = false;
      return;
    }
    const queue = this.queues.get(next.caller)!;
    queue.shift();
    if (!queue.length) this.queues.delete(next.caller);
    next.start(); // the lock passes on: busy stays true
  }
}
