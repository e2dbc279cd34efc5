/**
 * The JSON API client (spec part 1 §7): bearer token from local storage; on a 401 it asks for a new token
 * with the username and refresh token (POST /api/v2/auth/access-token), stores it and retries once.
 * When the refresh itself fails the session is cleared and the user goes to /login, the origin remembered.
 * A refused request rejects with the response data. Identity calls (/auth/…) go through `identityCall`.
 */
import { apiUrl } from "./config.ts";
import { watchedFetch } from "./connection.ts";
import { IDEMPOTENCY_HEADER, isMoneyCall } from "../domain/idempotency.ts";
import { clearSession, getSession, normaliseUser, cacheCurrentUser, updateTokens, type CurrentUser } from "./session.ts";

export interface ApiResponse<T = unknown> {
  success: boolean;
  data?: T;
  message?: string;
  [key: string]: unknown;
}

/** The rejection of a refused request: the response data, plus the HTTP status. */
export type ApiRejection = ApiResponse & { statusCode: number };

let refreshing: Promise<string> | undefined;

/** One refresh at a time: concurrent 401s wait for the same new token. */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= (async () => {
    const s = getSession();
    if (!s?.refreshToken) throw new Error("No session to refresh");
    // The POST form of the spec's refresh call: the refresh token stays out of URLs (and so out of logs).
    const res = await fetch(apiUrl("/api/v2/auth/access-token"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: s.username, refreshToken: s.refreshToken }),
    });
    const body = (await res.json().catch(() => ({}))) as ApiResponse<{ accessToken?: string; refreshToken?: string }>;
    const token = body?.data?.accessToken;
    if (!res.ok || !body.success || !token) throw new Error(body?.message ?? `Token refresh failed (${res.status})`);
    updateTokens({ accessToken: token, refreshToken: body.data?.refreshToken });
    return token;
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/** Where the browser goes when the session cannot be renewed; replaceable in tests. */
export let redirectToLogin = (origin: string): void => {
  const to = origin && origin !== "/" && !origin.startsWith("/login") ? `?to=${encodeURIComponent(origin)}` : "";
  window.location.assign(`/login${to}`);
};
export function setRedirectToLogin(fn: (origin: string) => void): void {
  redirectToLogin = fn;
}

/** The refresh failed: sign out locally and go to /login remembering where the user was. */
export function sessionExpired(): void {
  clearSession();
  const origin = typeof window !== "undefined" ? window.location.pathname + window.location.search : "/";
  // On a public page (e.g. /login checking a stale session) there is nowhere to send the user.
  if (PUBLIC_PAGE.test(origin)) return;
  redirectToLogin(origin);
}

const PUBLIC_PAGE = /^\/(login|forgot-password|change-password\/)/;

function withToken(init: RequestInit | undefined, token: string | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  return { ...init, headers };
}

/**
 * fetch with the access token, refreshing once on a 401 (or, for GraphQL, on Hasura's invalid-jwt error).
 * Used by the JSON API client and by the GraphQL client.
 */
export async function authorizedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const session = getSession();
  const res = await watchedFetch(input, withToken(init, session?.accessToken));
  if (!session || !(await needsRefresh(res))) return res;
  // Signed out while the request was under way (its token revoked): nothing to renew and the sign-out
  // already chose where to go, so the refusal is just handed back.
  if (!getSession()) return res;
  let token: string;
  try {
    token = await refreshAccessToken();
  } catch (err) {
    console.error("[auth] token refresh failed", err);
    sessionExpired();
    return res;
  }
  return watchedFetch(input, withToken(init, token));
}

async function needsRefresh(res: Response): Promise<boolean> {
  if (res.status === 401) return true;
  if (!res.ok || !(res.headers.get("content-type") ?? "").includes("json")) return false;
  try {
    const body = (await res.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
    return Array.isArray(body?.errors) && body.errors.some((e) => e?.extensions?.code === "invalid-jwt");
  } catch {
    return false;
  }
}

/**
 * A fresh Idempotency-Key. crypto.randomUUID exists only in a secure context (https, localhost); a centre's server
 * reached over plain http on its network still gets 128 random bits from getRandomValues.
 */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The keys of money calls whose answer never came (network error, timeout) or was a 5xx, by method, path and body.
 * The user cannot know whether such a call was recorded: sending the same call again is the same action retried,
 * so it goes with the same key and the server answers what the first did (or runs it if it never arrived).
 */
const unanswered = new Map<string, string>();

/**
 * A call to the JSON API under /api/v2. Resolves with the response body; rejects with it when refused.
 * A money call (FINANCE.md §1) carries an Idempotency-Key: a fresh one per user action (one call), the same one
 * for the retry after a token refresh (the same headers) and for a repeat of a call left unanswered.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = body === undefined ? {} : { "Content-Type": "application/json" };
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const call = isMoneyCall(method, path) ? `${method.toUpperCase()} ${path} ${init.body ?? ""}` : undefined;
  const key = call === undefined ? undefined : (unanswered.get(call) ?? newIdempotencyKey());
  if (key !== undefined) headers[IDEMPOTENCY_HEADER] = key;
  const answered = (yes: boolean) => {
    if (call === undefined || key === undefined) return;
    if (yes) unanswered.delete(call);
    else unanswered.set(call, key);
  };
  let res: Response;
  try {
    res = await authorizedFetch(apiUrl(`/api/v2${path}`), init);
  } catch (err) {
    answered(false);
    throw err;
  }
  answered(res.status < 500);
  const data = (await res.json().catch(() => ({ success: false, message: res.statusText }))) as ApiResponse<T>;
  if (!res.ok || data.success === false) throw { ...data, statusCode: res.status } satisfies ApiRejection;
  return data;
}

/** A call to the identity provider (/auth/…), no token. Resolves with the body; rejects with it when refused. */
export async function identityCall<T = unknown>(path: string, body: unknown): Promise<ApiResponse<T>> {
  const res = await fetch(apiUrl(`/auth${path}`), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({ success: false, message: res.statusText }))) as ApiResponse<T>;
  if (!res.ok || data.success === false) throw { ...data, statusCode: res.status } satisfies ApiRejection;
  return data;
}

let currentUserCall: { token: string | undefined; answer: Promise<CurrentUser> } | undefined;

/**
 * GET /users/me; caches the user. Asks made with the same token while one is under way share it (the session
 * check and the identity are asked at once).
 */
export function fetchCurrentUser(): Promise<CurrentUser> {
  const token = getSession()?.accessToken;
  if (currentUserCall && currentUserCall.token === token) return currentUserCall.answer;
  const call = {
    token,
    answer: (async () => {
      const body = await api<Record<string, unknown>>("GET", "/users/me");
      const user = normaliseUser(body.data ?? {});
      cacheCurrentUser(user);
      return user;
    })().finally(() => {
      if (currentUserCall === call) currentUserCall = undefined;
    }),
  };
  currentUserCall = call;
  return call.answer;
}

/**
 * The per-field messages of a refused REST call ({errors: {field: message}}) in antd's setFields form.
 * Nested paths ("phone.number") have no form field of that name; the toast carries their message.
 */
export function rejectionFieldErrors(err: unknown): { name: string; errors: string[] }[] {
  const errors = (err as { errors?: Record<string, string> } | null)?.errors ?? {};
  return Object.entries(errors)
    .filter(([name]) => !name.includes("."))
    .map(([name, message]) => ({ name, errors: [message] }));
}

export function rejectionMessage(err: unknown, fallback: string): string {
  if (err && typeof err === "object" && "message" in err && typeof (err as { message: unknown }).message === "string") {
    const m = (err as { message: string }).message;
    if (m) return m;
  }
  return fallback;
}
