import type { FastifyInstance } from "fastify";
import { asCaller } from "./db/caller.ts";
import type { Session } from "./auth/types.ts";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The caller a request's database work is queued as (issue 32: the embedded connection takes turns between
 * callers): the user named by the bearer token, the admin secret, or "anonymous". Read before the token is
 * verified, so the verification's own statements queue fairly too; a forged token's name can only place those
 * few statements, as nothing else runs until the signature and session are checked.
 */
export function callerOfHeaders(headers: Headers): string {
  if (first(headers["x-hasura-admin-secret"]) !== undefined || first(headers["x-hasura-access-key"]) !== undefined) return "admin-secret";
  const token = /^Bearer\s+([^.\s]+)\.([^.\s]+)\./i.exec(first(headers.authorization)?.trim() ?? "");
  if (token) {
    try {
      const sub = (JSON.parse(Buffer.from(token[2], "base64url").toString("utf8")) as { sub?: unknown }).sub;
      if (typeof sub === "string") return `user:${sub}`;
    } catch {
      // not a JWT: the verifier will say so
    }
  }
  return "anonymous";
}

/** The same for a verified session (a websocket's operations, which run outside the request that opened it). */
export function callerOfSession(session: Session | undefined): string {
  if (session?.byAdminSecret) return "admin-secret";
  return session?.userId ? `user:${session.userId}` : "anonymous";
}

/** Every request's work runs as its caller (see server/db/caller.ts). */
export function queueRequestsByCaller(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => asCaller(callerOfHeaders(request.headers), done));
}
