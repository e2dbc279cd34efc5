/**
 * Idempotency keys on the money calls (issue 31 §3, FINANCE.md §1 "Idempotent."; which calls: isMoneyCall).
 * A call with an `Idempotency-Key` header claims the key (caller, method, path, key) by inserting its row before
 * the handler runs; the handler's answer is stored on the row as it is sent. A repeat with the same body gets the
 * stored answer (header `Idempotent-Replayed: true`) and runs nothing; with another body it is refused (409).
 * A repeat that arrives while the first still runs waits for its answer (a double submit), up to a limit.
 * 5xx answers are not kept: the row is released, so a retry runs again. The header is optional (scripts,
 * tests); the browser always sends it (src/app/api.ts). Hooked in from outside the route handlers.
 * After a crash: the money transaction marks the key committed with its answer (server/finance/committedAnswer.ts),
 * so a claim left with no answer is either committed (its committed answer is replayed; the money is never written
 * twice) or not (nothing was written: it is claimed again once abandoned).
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/index.ts";
import { API_PREFIX } from "./guard.ts";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX, isMoneyCall } from "../../src/domain/idempotency.ts";
import { IDEMPOTENCY_TABLE as TABLE, WHERE_KEY, openKeyScope, rememberClaim, type KeyClaim as Claim } from "../finance/committedAnswer.ts";

export const IDEMPOTENCY_MESSAGES = {
  badKey: `The ${IDEMPOTENCY_HEADER} header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters long.`,
  otherRequest: `This ${IDEMPOTENCY_HEADER} was already used for a different request. Please send a new key for a new request.`,
  inProgress: `A request with this ${IDEMPOTENCY_HEADER} is still being processed. Please try again in a moment.`,
} as const;

export const REPLAYED_HEADER = "Idempotent-Replayed";

/** How long an answer is kept (Stripe keeps keys 24 hours). */
const KEEP = "24 hours";
/** A claim with no answer after this long belongs to a server that stopped mid-request: it may be claimed again. */
const ABANDONED = "2 minutes";
/** How long a repeat waits for the first request's answer before it is answered 409 "in progress" (ms). */
const WAIT_MS = 10_000;

const JSON_TYPE = "application/json; charset=utf-8";

interface KeyRow {
  requestHash: string;
  statusCode: number | null;
  contentType: string | null;
  body: string | null;
  /** The money transaction committed; its answer (status, body) is kept even if the server never sent it. */
  committed: boolean;
  committedStatus: number | null;
  committedBody: string | null;
  abandoned: boolean;
}

/** JSON with object keys sorted: the same body sent with its fields in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function requestHash(request: FastifyRequest): string {
  return createHash("sha256").update(canonical({ query: request.query, body: request.body })).digest("hex");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The preHandler (after the session and the policy guard) and onSend/onResponse hooks of the REST API. */
export function idempotencyHooks(db: Db) {
  const claims = new WeakMap<FastifyRequest, Claim>();

  // a committed claim is never released: its money was written
  const release = async (claim: Claim) => {
    await db.query(`delete from ${TABLE} where ${WHERE_KEY} and "statusCode" is null and "committedAt" is null`, [claim.userId, claim.method, claim.path, claim.key]);
  };
  /** A committed claim whose answer was never stored (the server died, or failed after the commit): its committed answer becomes the answer. */
  const keepCommitted = async (claim: Claim) => {
    await db.query(`update ${TABLE} set "statusCode" = "committedStatus", "contentType" = $5, body = "committedBody" where ${WHERE_KEY} and "statusCode" is null and "committedAt" is not null`, [
      claim.userId, claim.method, claim.path, claim.key, JSON_TYPE,
    ]);
  };

  /** Every request's work sees its key scope (the finance transaction marks the claim committed in it). */
  function onRequest(_request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    openKeyScope(done);
  }

  async function preHandler(request: FastifyRequest, reply: FastifyReply) {
    const pattern = request.routeOptions.url;
    if (!pattern || !isMoneyCall(request.method, pattern.slice(API_PREFIX.length))) return;
    const header = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (header === undefined) return;
    if (typeof header !== "string" || header.length === 0 || header.length > IDEMPOTENCY_KEY_MAX) {
      return reply.code(400).send({ success: false, message: IDEMPOTENCY_MESSAGES.badKey });
    }
    const claim: Claim = { userId: request.session?.userId ?? "", method: request.method, path: request.url.split("?")[0]!, key: header };
    const params = [claim.userId, claim.method, claim.path, claim.key];
    const hash = requestHash(request);
    await db.query(
      `delete from ${TABLE} where "createdAt" < now() - interval '${KEEP}' or ("statusCode" is null and "committedAt" is null and "createdAt" < now() - interval '${ABANDONED}')`,
    );
    const started = Date.now();
    for (let delay = 20; ; delay = Math.min(delay * 1.5, 250)) {
      // The claim is its own statement, committed before the handler starts: of two requests sent at once
      // only one inserts the row; the other finds it.
      const claimed = await db.query(
        `insert into ${TABLE} ("userId", method, path, key, "requestHash") values ($1, $2, $3, $4, $5) on conflict do nothing returning key`,
        [...params, hash],
      );
      if (claimed.rowCount === 1) {
        claims.set(request, claim);
        rememberClaim(claim);
        return;
      }
      const row = (
        await db.query<KeyRow>(
          `select "requestHash", "statusCode", "contentType", body, "committedAt" is not null as committed, "committedStatus", "committedBody",
                  "createdAt" < now() - interval '${ABANDONED}' as abandoned
           from ${TABLE} where ${WHERE_KEY}`,
          params,
        )
      ).rows[0];
      if (!row) continue; // the first request failed (5xx) and released the key meanwhile: claim it again
      if (row.requestHash !== hash) return reply.code(409).send({ success: false, message: IDEMPOTENCY_MESSAGES.otherRequest });
      if (row.statusCode === null && row.committed && row.abandoned) {
        // the server that wrote the money died before answering: its committed answer is the answer
        await keepCommitted(claim);
        return reply.code(row.committedStatus ?? 200).header(REPLAYED_HEADER, "true").type(JSON_TYPE).send(row.committedBody ?? "");
      }
      if (row.statusCode !== null) {
        reply.code(row.statusCode).header(REPLAYED_HEADER, "true");
        if (row.contentType) reply.type(row.contentType);
        return reply.send(row.body ?? "");
      }
      if (Date.now() - started >= WAIT_MS) return reply.code(409).send({ success: false, message: IDEMPOTENCY_MESSAGES.inProgress });
      await sleep(delay);
    }
  }

  /** Keeps the answer of a claimed call before it leaves, so a repeat never finds the key without it. */
  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    const body = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
    if (reply.statusCode >= 500 || body === undefined) {
      await keepCommitted(claim);
      await release(claim);
      return payload;
    }
    const contentType = reply.getHeader("content-type");
    await db.query(`update ${TABLE} set "statusCode" = $5, "contentType" = $6, body = $7 where ${WHERE_KEY}`, [
      claim.userId,
      claim.method,
      claim.path,
      claim.key,
      reply.statusCode,
      typeof contentType === "string" ? contentType : null,
      body,
    ]);
    return payload;
  }

  /** A claimed call that ended without an answer sent through onSend (e.g. the client went away): release it. */
  async function onResponse(request: FastifyRequest) {
    const claim = claims.get(request);
    if (!claim) return;
    claims.delete(request);
    await keepCommitted(claim);
    await release(claim);
  }

  return { onRequest, preHandler, onSend, onResponse };
}
