/**
 * The signed-in app's chunk (Refine, antd, the layout): the shell loads it for a signed-in route, and the sign-in
 * page fetches it ahead once the user starts typing, so it is in place when sign-in answers (issue 37's "sign in
 * to a usable home").
 */
export const loadSignedInApp = () => import("./App.tsx");

let prefetched = false;

/** Starts loading the app's chunk once per tab; a failure is left to the real load (which reloads once). */
export function prefetchSignedInApp(): void {
  if (prefetched) return;
  prefetched = true;
  loadSignedInApp().catch(() => undefined);
}

/**
 * Starts the opened route's page chunk as soon as the app's code is in, instead of after the app's first
 * render, the session check and the policy (issue 37: the page's chunk wave was a second wave after those).
 */
export function preloadRoutePage(pathname: string): void {
  loadSignedInApp().then((app) => app.preloadPageFor(pathname), () => undefined);
}
