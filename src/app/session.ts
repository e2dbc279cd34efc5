/**
 * The stored session (spec part 1 §4): a marker in local storage holding the username and tokens.
 * The user counts as signed in when the marker exists and GET /users/me answers 200.
 * Kept free of React, Refine and antd so the sign-in page's chunk stays small.
 */
export interface StoredSession {
  username: string;
  accessToken: string;
  refreshToken: string;
}

export const SESSION_KEY = "backoffice.session";

export function getSession(): StoredSession | undefined {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as Partial<StoredSession>;
    return s && typeof s.accessToken === "string" && typeof s.username === "string" ? (s as StoredSession) : undefined;
  } catch {
    return undefined;
  }
}

export function hasSession(): boolean {
  return getSession() !== undefined;
}

export function setSession(session: StoredSession): void {
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  signedOutHere = false;
  notify();
}

export function updateTokens(tokens: { accessToken: string; refreshToken?: string }): void {
  const s = getSession();
  if (!s) return;
  setSession({ ...s, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? s.refreshToken });
}

/** True once the user of this page signed out; their last page is then not remembered for the next sign-in. */
let signedOutHere = false;
export function signedOutByUser(): boolean {
  return signedOutHere;
}

export function clearSession(reason: "signed-out" | "expired" = "expired"): void {
  signedOutHere = reason === "signed-out";
  localStorage.removeItem(SESSION_KEY);
  currentUserCache = undefined;
  notify();
}

/** The user of GET /users/me (spec part 1 §3), roles normalised to names. */
export interface CurrentUser {
  id: string;
  username: string;
  firstName?: string | null;
  lastName?: string | null;
  avatarUrl?: string | null;
  role?: string | null;
  /** The user's roles in the order the server gives them; the badge shows the last one. */
  roles: string[];
}

let currentUserCache: CurrentUser | undefined;
export function cachedCurrentUser(): CurrentUser | undefined {
  return currentUserCache;
}
export function cacheCurrentUser(user: CurrentUser | undefined): void {
  currentUserCache = user;
}

type RoleLike = string | { name?: string; roleCode?: string; code?: string; role?: string } | null | undefined;

export function normaliseUser(data: Record<string, unknown>): CurrentUser {
  const names = (list: unknown): string[] =>
    Array.isArray(list)
      ? (list as RoleLike[])
          .map((r) => (typeof r === "string" ? r : (r?.roleCode ?? r?.code ?? r?.name ?? r?.role)))
          .filter((r): r is string => typeof r === "string" && r.length > 0)
      : [];
  let roles = names(data.multipleRoles);
  if (roles.length === 0) roles = names(data.roles);
  const role = typeof data.role === "string" ? data.role : undefined;
  if (roles.length === 0 && role) roles = [role];
  return {
    id: String(data.id ?? ""),
    username: String(data.username ?? ""),
    firstName: (data.firstName as string | null | undefined) ?? null,
    lastName: (data.lastName as string | null | undefined) ?? null,
    avatarUrl: (data.avatarUrl as string | null | undefined) ?? null,
    role: role ?? null,
    roles: [...new Set(roles)],
  };
}

const listeners = new Set<() => void>();
function notify() {
  for (const l of listeners) l();
}
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
