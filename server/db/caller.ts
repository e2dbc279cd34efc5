import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who the current work is for (a signed-in user, the admin secret, …), carried through async calls so the
 * embedded database's queue can take turns between callers (issue 32) without every query passing it down.
 */
const callers = new AsyncLocalStorage<string>();

/** Work started outside any request: live-query refreshes, start-up, timers. */
export const SYSTEM_CALLER = "system";

export function asCaller<T>(caller: string, fn: () => T): T {
  return callers.run(caller, fn);
}

export function currentCaller(): string {
  return callers.getStore() ?? SYSTEM_CALLER;
}
