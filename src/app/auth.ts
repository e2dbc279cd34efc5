/**
 * Sign-in, sign-out and the password flows against the identity provider (DESIGN §5).
 * Free of Refine and antd: the public pages use it directly, the Refine auth provider wraps it.
 */
import { fetchCurrentUser, identityCall } from "./api.ts";
import { loadPolicy } from "./policy.ts";
import { clearSession, getSession, setSession, signedOutByUser, type CurrentUser } from "./session.ts";

/** Spec part 1 §8. */
export const LOCKED_MESSAGE =
  "Your account has been locked due to multiple failed login attempts. Kindly contact the administrator to unlock it.";

export async function signIn(username: string, password: string): Promise<CurrentUser> {
  const res = await identityCall<{ accessToken: string; refreshToken: string }>("/sign-in", { username, password });
  const data = res.data!;
  setSession({ username, accessToken: data.accessToken, refreshToken: data.refreshToken });
  // The app's first page needs the policy too: asked beside the user, not after the app has loaded.
  loadPolicy().catch(() => undefined);
  try {
    return await fetchCurrentUser();
  } catch (err) {
    clearSession();
    throw err;
  }
}

/** Ends the session at the identity provider, then clears the stored marker (also when the call fails). */
export async function signOut(): Promise<void> {
  const s = getSession();
  try {
    if (s) await identityCall("/sign-out", { refreshToken: s.refreshToken });
  } finally {
    clearSession("signed-out");
  }
}

export function requestPasswordCode(username: string) {
  return identityCall("/forgot-password", { username });
}

export function confirmNewPassword(username: string, code: string, newPassword: string) {
  return identityCall("/forgot-password/confirm", { username, code, newPassword });
}

export function changePassword(username: string, oldPassword: string, newPassword: string) {
  return identityCall("/change-password", { username, oldPassword, newPassword });
}

/** The `to` of /login?to=…, kept only when it is a path of this app. */
export function safeReturnPath(to: string | null | undefined): string | undefined {
  if (!to || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/login")) return undefined;
  return to;
}

/**
 * Where a signed-out visitor of `pathname + search` goes: /login, remembering the page in `to` so sign-in
 * returns there — except after the user's own sign-out, which always lands on plain /login.
 */
export function loginPathFor(pathname: string, search = ""): string {
  if (signedOutByUser() || pathname === "/" || pathname.startsWith("/login")) return "/login";
  return `/login?to=${encodeURIComponent(pathname + search)}`;
}
