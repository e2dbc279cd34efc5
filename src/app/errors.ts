/**
 * The error catalogue's toasts (spec part 1 §8, §9): each GraphQL error message as a toast followed by a
 * period, for 3 seconds, at most one at a time; network errors are only logged.
 */
import { TOAST_SECONDS, toast } from "../framework/toast.ts";

let lastReportedAt = 0;

/** The toast text of a GraphQL error message: the message followed by a period. */
export function graphqlToastText(msg: string): string {
  return `${msg}.`;
}

export function toastGraphQLErrors(errors: readonly { message?: string }[]): void {
  for (const e of errors) {
    if (!e?.message) continue;
    void toast.error({ content: graphqlToastText(e.message), duration: TOAST_SECONDS, key: "graphql-error" });
  }
  lastReportedAt = Date.now();
}

export function logNetworkError(err: unknown): void {
  console.error("[network]", err);
  lastReportedAt = Date.now();
}

/** True right after a GraphQL or network error was handled, so Refine's own error notice is not shown twice. */
export function errorJustReported(windowMs = 1000): boolean {
  return Date.now() - lastReportedAt < windowMs;
}

/** GraphQL errors carried by graphql-request's ClientError (graphql.ts) or a plain `{ response: { errors } }`. */
export function graphqlErrorsOf(err: unknown): { message?: string }[] | undefined {
  const errors = (err as { response?: { errors?: unknown } } | undefined)?.response?.errors;
  return Array.isArray(errors) ? (errors as { message?: string }[]) : undefined;
}

export function isNetworkError(err: unknown): boolean {
  if (err instanceof TypeError) return true; // fetch: "Failed to fetch" (Chromium), "Load failed" (Safari), "fetch failed" (Node)
  if (!(err instanceof Error)) return false;
  return err.name === "FetchError" || /network|failed to fetch|fetch failed|load failed|ECONNREFUSED|ECONNRESET/i.test(err.message);
}
