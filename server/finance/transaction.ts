/**
 * The finance service's only way to write (FINANCE.md §1): one transaction per document change, marked
 * as the finance writer first — the database trigger of the security issue admits status, number and
 * money changes of finance tables only from transactions so marked (set_config(..., true) lasts until
 * the transaction ends, so the mark never leaks to another request on a pooled connection).
 */
import type { Db, Queryable } from "../db/index.ts";
import { ACTOR_SQL, actorParams, currentActor, withoutActorRecording } from "../audit/actor.ts";
import { markKeyCommitted } from "./committedAnswer.ts";
import { pauseAt } from "./testPause.ts";

export const FINANCE_WRITER = "finance";

export async function financeTransaction<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  // its first statement records the request's actor: not a second time by the REST routes' database
  const result = await withoutActorRecording(db).transaction(async (tx) => {
    // and, for the audit trail (issue 36), the request's actor in the same statement; JIT off for the transaction:
    // its statements are a student's few rows, and the ledger's recognition read is costed high enough to be
    // compiled (server/db/jit.ts) — a statement less than `set local jit = off` before each recognition
    await tx.query(`select set_config('backoffice.writer', $4, true), set_config('jit', 'off', true), ${ACTOR_SQL}`, [...actorParams(currentActor()), FINANCE_WRITER]);
    const result = await fn(tx);
    // a keyed request's answer commits with its money (idempotency after a crash)
    await markKeyCommitted(tx, result);
    await pauseAt("before-commit");
    return result;
  });
  await pauseAt("after-commit");
  return result;
}

/** A refusal: nothing is written, the caller answers `status` with the message (and one message per field). */
export class FinanceError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export const FORBIDDEN_ACTION = "You do not have permission to perform this action.";

/** Asks the access policy for an action right (api:/actions/<document>/<action>) before any write: a 403 otherwise. */
export async function requireRight<A>(can: (action: A) => Promise<boolean>, action: A): Promise<void> {
  if (!(await can(action))) throw new FinanceError(403, FORBIDDEN_ACTION);
}

/** Several field problems at once → a 400 whose message is the first. */
export function fieldErrors(errors: Record<string, string>): FinanceError {
  return new FinanceError(400, Object.values(errors)[0] ?? "Invalid input.", errors);
}

/**
 * Whether a stored timestamp (as read, `to_json(ts) #>> '{}'`) and one a client sent back are the same instant, to
 * the microsecond: the same text is (no statement), another spelling is compared by the database.
 */
export async function sameInstant(db: Queryable, stored: string, given: string): Promise<boolean> {
  if (stored === given) return true;
  const { rows } = await db.query<{ same: boolean }>(`select $1::timestamptz = $2::timestamptz as same`, [stored, given]);
  return rows[0]?.same === true;
}
