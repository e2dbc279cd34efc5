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
