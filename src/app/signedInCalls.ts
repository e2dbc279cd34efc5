/**
 * The signed-in app's first two calls — the session check (GET /users/me) and the access policy — started by
 * the shell as soon as it knows a signed-in route is opened, so they answer while the app's code downloads
 * instead of after it (issue 33: they were a round trip of their own before the layout's first paint).
 */
import { fetchCurrentUser } from "./api.ts";
import { ensurePolicy } from "./policy.ts";
import { cachedCurrentUser, getSession, type CurrentUser } from "./session.ts";

/** The user the calls were started for: once per signed-in user of the tab. */
let startedFor: string | undefined;
let sessionCheck: { token: string; pathname: string; answer: Promise<CurrentUser> } | undefined;

export function startSignedInCalls(): void {
  const session = getSession();
  if (session === undefined || session.username === startedFor) return;
  startedFor = session.username;
  // Just signed in: sign-in read the user with this token a moment ago, and started the policy (signIn).
  const known = cachedCurrentUser();
  const answer = known ? Promise.resolve(known) : fetchCurrentUser();
  answer.catch(() => undefined); // a refusal is the auth provider's to handle, when a check reads it
  sessionCheck = { token: session.accessToken, pathname: window.location.pathname, answer };
  ensurePolicy().catch((err) => console.error("[policy] could not load the access policy", err));
}

/**
 * The session check started at load, for the checks of the page it was started on (Refine checks on mount and
 * on each route change, and its Authenticated guard checks too) with the same token; once the user moves on,
 * checks ask the server.
 */
export function startedSessionCheck(): Promise<CurrentUser> | undefined {
  if (sessionCheck && sessionCheck.pathname === window.location.pathname && sessionCheck.token === getSession()?.accessToken) return sessionCheck.answer;
  sessionCheck = undefined;
  return undefined;
}
