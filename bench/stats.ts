/** Latency statistics and a bounded concurrent loop, for the benchmarks. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  /** completed requests per second over the wall-clock time of the run */
  rps: number;
  /** CPU time of this process (all its threads) per request, ms, when measured */
  cpuMs?: number;
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(latenciesMs: readonly number[], wallMs: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), rps: (sorted.length / wallMs) * 1000 };
}

/**
 * Runs `fn` exactly `total` times with `concurrency` clients, each taking the next request as soon as
 * its previous one ends; returns the per-request latencies and the wall-clock time.
 */
export async function runConcurrent(total: number, concurrency: number, fn: () => Promise<unknown>): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < total) {
      next++;
      const t = performance.now();
      await fn();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, client));
  return { latencies, wallMs: performance.now() - started };
}

/** Requests per round when two sides are measured alternately. */
export const ROUND = 50;

/** Runs `total` requests with `concurrency` clients somewhere (this thread, a worker); latencies and wall-clock time back. */
export type Rounds = (total: number, concurrency: number) => Promise<{ latencies: number[]; wallMs: number }>;

/** Rounds of `fn` run by clients in this thread. */
export const inThisThread =
  (fn: () => Promise<unknown>): Rounds =>
  (total, concurrency) =>
    runConcurrent(total, concurrency, fn);

/**
 * Measures a and b alternately in rounds of ROUND requests (after their warm-ups), so that load from
 * elsewhere on a shared machine falls on both sides alike rather than on whichever ran second.
 */
export async function measurePair(a: Rounds, b: Rounds, options: { warmup: number; total: number; concurrency: number }): Promise<[Summary, Summary]> {
  await a(options.warmup, options.concurrency);
  await b(options.warmup, options.concurrency);
  const sides = [a, b].map((run) => ({ run, latencies: [] as number[], wallMs: 0, cpuMs: 0 }));
  for (let done = 0; done < options.total; done += ROUND) {
    for (const side of sides) {
      const before = process.cpuUsage();
      const r = await side.run(Math.min(ROUND, options.total - done), options.concurrency);
      const used = process.cpuUsage(before);
      side.cpuMs += (used.user + used.system) / 1000;
      side.latencies.push(...r.latencies);
      side.wallMs += r.wallMs;
    }
  }
  return sides.map((side) => ({ ...summarize(side.latencies, side.wallMs), cpuMs: side.cpuMs / side.latencies.length })) as [Summary, Summary];
}

export const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : "–");

/** A plain text table: the first row is the header; columns after the first are right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}
