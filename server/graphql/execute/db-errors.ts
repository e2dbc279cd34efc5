import { RequestError } from "../errors.ts";
import { textBoundViolation } from "../../security/text-bounds.ts";

/** A Postgres error as Hasura reports it. Messages are Postgres's own (no SQL text); admins also get the internals. */
export function fromDatabaseError(error: unknown, isAdmin: boolean, path = "$"): RequestError {
  if (error instanceof RequestError) return error;
  const e = error as { code?: string; message?: string; detail?: string; constraint?: string };
  const code = e.code ?? "";
  const message = e.message ?? String(error);
  const internal = isAdmin ? { error: { message, status_code: code, description: e.detail ?? null } } : undefined;
  if (code === "23505") return new RequestError("constraint-violation", `Uniqueness violation. ${message}`, path, 200, internal);
  if (code === "23503") return new RequestError("constraint-violation", `Foreign key violation. ${message}`, path, 200, internal);
  if (code === "23502") return new RequestError("constraint-violation", `Not-NULL violation. ${message}`, path, 200, internal);
  const bound = textBoundViolation(error);
  if (bound) return new RequestError("constraint-violation", `Check constraint violation. ${bound.message} ${message}`, path, 200, internal);
  if (code === "23514") return new RequestError("constraint-violation", `Check constraint violation. ${message}`, path, 200, internal);
  if (code === "23P01") return new RequestError("constraint-violation", `Exclusion violation. ${message}`, path, 200, internal);
  if (code.startsWith("23")) return new RequestError("constraint-violation", message, path, 200, internal);
  if (code.startsWith("22")) return new RequestError("data-exception", message, path, 200, internal);
  if (code === "42883" || code === "42804") return new RequestError("data-exception", message, path, 200, internal);
  if (code === "40001" || code === "40P01") return new RequestError("concurrent-update", message, path, 200, internal);
  // A guard trigger refusing the caller: its message is written for users.
  if (code === "42501") return new RequestError("permission-error", message, path, 200, internal);
  if (code === "57014") return new RequestError("unexpected", "the query took too long and was stopped (statement timeout)", path, 200, internal);
  if (code === "P0001") return new RequestError("unexpected", message, path, 200, internal);
  return new RequestError("unexpected", isAdmin ? message : "database query error", path, 200, internal);
}
