/**
 * Idempotency after a crash (issue 31): the money transaction of a keyed request marks its key as committed, with
 * the answer its result makes, in the SAME transaction as the money write. A server killed between the commit and
 * the answer leaves a key that is committed, so a retry replays that answer (server/api/idempotency.ts) instead of
 * taking the key for abandoned and writing the money again; a server killed before the commit leaves nothing
 * written and an uncommitted claim, which is claimed again.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable } from "../db/index.ts";

export const IDEMPOTENCY_TABLE = "app_internal.idempotency_keys";
export const WHERE_KEY = `"userId" = $1 and method = $2 and path = $3 and key = $4`;

/** The key a request claimed (caller, method, path, key). */
export interface KeyClaim {
  userId: string;
  method: string;
  path: string;
  key: string;
}

/** Per request: its claim once made, and the status its route answers on success. */
interface KeyScope {
  claim?: KeyClaim;
  status?: number;
}

const scopes = new AsyncLocalStorage<KeyScope>();

/** Opens the request's scope (an onRequest hook: everything the request runs sees it). */
export function openKeyScope(done: () => void): void {
  scopes.run({}, done);
}

export function rememberClaim(claim: KeyClaim | undefined): void {
  const scope = scopes.getStore();
  if (scope) scope.claim = claim;
}

/** The status the route answers when its work succeeds (runFinance: 200 or 201). */
export function rememberSuccessStatus(status: number): void {
  const scope = scopes.getStore();
  if (scope) scope.status = status;
}

/** The body a finance route answers for a result (runFinance's `{ success, data }`, serialised as fastify does). */
export const successBody = (data: unknown): string => JSON.stringify({ success: true, data });

/**
 * Inside a finance transaction, about to commit with `result`: marks the request's key committed with its answer.
 * A request running several transactions keeps the last one's.
 */
export async function markKeyCommitted(tx: Queryable, result: unknown): Promise<void> {
  const scope = scopes.getStore();
  const claim = scope?.claim;
  if (!claim) return;
  await tx.query(`update ${IDEMPOTENCY_TABLE} set "committedAt" = now(), "committedStatus" = $5, "committedBody" = $6 where ${WHERE_KEY}`, [
    claim.userId,
    claim.method,
    claim.path,
    claim.key,
    scope.status ?? 200,
    successBody(result),
  ]);
}
