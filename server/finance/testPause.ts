/**
 * The randomised workflow's kill points (issue 31 §9): a server started with FINANCE_TEST_PAUSES=true lets a request
 * ask, by the header below, to stop for good at a point of its finance transaction — inside it with every write
 * done, or right after its commit before the answer — and says so on stdout, so the simulation kills it exactly
 * there. Off by default: no production server reads the header (the hook is not even registered).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyRequest } from "fastify";

export const PAUSE_HEADER = "x-finance-test-pause";
export const PAUSE_POINTS = ["before-commit", "after-commit"] as const;
export type PausePoint = (typeof PAUSE_POINTS)[number];
/** The line the server prints when it stops at a point (the simulation waits for it). */
export const pausedLine = (point: PausePoint) => `finance-test-paused ${point}`;

const armed = new AsyncLocalStorage<PausePoint>();

/** An onRequest hook: the request's work runs with the point it asked for (if any). */
export function armPause(request: FastifyRequest, _reply: unknown, done: () => void): void {
  const point = request.headers[PAUSE_HEADER];
  if (typeof point === "string" && (PAUSE_POINTS as readonly string[]).includes(point)) armed.run(point as PausePoint, done);
  else done();
}

/** Stops here for good when the request asked for this point (the simulation then kills the server). */
export async function pauseAt(point: PausePoint): Promise<void> {
  if (armed.getStore() !== point) return;
  process.stdout.write(`${pausedLine(point)}\n`);
  await new Promise<never>(() => {});
}
