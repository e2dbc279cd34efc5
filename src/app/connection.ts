/**
 * The connection to the server, watched for the red error banner (spec part 1 §2, §8; issue 19): requests
 * that fail on the network for more than a few seconds, or a live socket that drops, set "Connection to
 * the server lost. Reconnecting…"; a 503 (start-up, maintenance) sets its own message at once. While the
 * banner is up the app asks /healthz every few seconds and clears it on the first good answer (or any
 * request that gets through). A page left open without requests (a form being filled) learns of a lost
 * server from a light heartbeat. Nothing on the page is re-mounted, so what the user typed stays.
 */
import { apiUrl } from "./config.ts";
import { getGlobalError, setGlobalError } from "./globalError.ts";

export const CONNECTION_LOST = "Connection to the server lost. Reconnecting…";
export const SERVER_UNAVAILABLE = "The server is unavailable (starting up or under maintenance). Retrying…";

/** How long requests may keep failing before the banner shows (a blip is not worth a red bar). */
export const GRACE_MS = 3000;
const PROBE_MS = 2000;
/** The heartbeat of an idle page (only while the tab is visible). */
export const HEARTBEAT_MS = 10_000;

let failingSince: number | undefined;
let graceTimer: ReturnType<typeof setTimeout> | undefined;
let probeTimer: ReturnType<typeof setInterval> | undefined;
let shown: string | undefined;

function show(message: string) {
  shown = message;
  setGlobalError(message);
  probeTimer ??= setInterval(() => void probe(), PROBE_MS);
}

async function probe() {
  await watchedFetch(apiUrl("/healthz"), { cache: "no-store" }).catch(() => undefined);
}

/** Watches the server while the signed-in app is open; returns the stop function (for an effect's cleanup). */
export function startConnectionWatch(): () => void {
  const timer = setInterval(() => {
    if (document.visibilityState === "visible") void probe();
  }, HEARTBEAT_MS);
  return () => clearInterval(timer);
}

/** A request or the socket failed: "network" (no answer) or "unavailable" (503). */
export function connectionFailed(kind: "network" | "unavailable"): void {
  if (kind === "unavailable") {
    show(SERVER_UNAVAILABLE);
    return;
  }
  failingSince ??= Date.now();
  graceTimer ??= setTimeout(() => {
    graceTimer = undefined;
    if (failingSince !== undefined) show(CONNECTION_LOST);
  }, GRACE_MS);
}

/** The server answered: the banner this module set goes away (a banner set by someone else stays). */
export function connectionOk(): void {
  failingSince = undefined;
  if (graceTimer) clearTimeout(graceTimer);
  graceTimer = undefined;
  if (probeTimer) clearInterval(probeTimer);
  probeTimer = undefined;
  if (shown !== undefined && getGlobalError() === shown) setGlobalError(undefined);
  shown = undefined;
}

/** fetch that reports to the connection watch: no answer or a 503 is a failure, any other answer a success. */
export async function watchedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(input, init);
  } catch (err) {
    // An aborted request (navigation, unmount) says nothing about the server.
    if (!(err instanceof DOMException && err.name === "AbortError")) connectionFailed("network");
    throw err;
  }
  if (res.status === 503) connectionFailed("unavailable");
  else connectionOk();
  return res;
}
