/**
 * Who made a change, for the audit trail (issue 36): each writer records the acting user, role and request id in
 * its transaction (set_config(..., true): until the transaction ends, so it never leaks to another request on a
 * pooled connection), and the database's audit trigger copies them into every log row it writes.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance } from "fastify";
import type { Db, Queryable } from "../db/types.ts";
import type { Session } from "../auth/types.ts";

export interface Actor {
  readonly userId: string | null;
  readonly role: string | null;
}

/** The request a piece of work belongs to, and the actor once its session is known (REST). */
interface RequestScope {
  readonly requestId: string;
  actor?: Actor;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Every request's work carries its id (fastify's request id, also in the server's log lines). */
export function tagRequests(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => scopes.run({ requestId: String(request.id) }, done));
}

/** A REST request's actor, once its session is read (the finance service called from it records the same). */
export function rememberActor(actor: Actor | undefined): void {
  const scope = scopes.getStore();
  if (scope) scope.actor = actor;
}

export function currentActor(): Actor | undefined {
  return scopes.getStore()?.actor;
}

/** A REST session's actor: administrators act as admin, others with their roles. */
export function actorOfSession(session: Session | undefined): Actor | undefined {
  if (!session) return undefined;
  return { userId: session.userId ?? session.variables["x-hasura-user-id"] ?? null, role: session.isAdmin ? "admin" : session.roles.join(",") };
}

/** A GraphQL operation's actor, from its session variables. */
export function actorOfVariables(variables: Readonly<Record<string, string>>, isAdmin: boolean): Actor {
  return { userId: variables["x-hasura-user-id"] ?? null, role: isAdmin ? "admin" : (variables["x-hasura-role"] ?? null) };
}

export const ACTOR_SQL = `set_config('app.user_id', $1, true), set_config('app.role', $2, true), set_config('app.request_id', $3, true)`;

/** The parameters of ACTOR_SQL for an actor (empty strings read as "not set" in the trigger). */
export function actorParams(actor: Actor | undefined): string[] {
  return [actor?.userId ?? "", actor?.role?.slice(0, 100) ?? "", scopes.getStore()?.requestId ?? ""];
}

/** Records the actor for the rest of the transaction. */
export async function recordActor(tx: Queryable, actor: Actor | undefined): Promise<void> {
  await tx.query(`select ${ACTOR_SQL}`, actorParams(actor));
}

const WRITE = /^\s*(insert|update|delete)\b/i;

/** Each actorRecordingDb's database underneath. */
const unrecorded = new WeakMap<Db, Db>();

/**
 * The REST routes' database: every transaction begins by recording the request's actor, and a write run as a
 * statement of its own (a company's save) runs in a transaction that does the same, so no REST change is anonymous.
 */
export function actorRecordingDb(db: Db): Db {
  const recording: Db = {
    ...db,
    transaction: (fn) =>
      db.transaction(async (tx) => {
        await recordActor(tx, currentActor());
        return fn(tx);
      }),
    query: (sql, params, options) =>
      WRITE.test(sql) && currentActor()
        ? db.transaction(async (tx) => {
            await recordActor(tx, currentActor());
            return tx.query(sql, params);
          })
        : db.query(sql, params, options),
  };
  unrecorded.set(recording, db);
  return recording;
}

/**
 * The database under actorRecordingDb (or the one given): for a transaction that records the actor in its own first
 * statement (the finance service's, server/finance/transaction.ts), a statement less than recording it twice.
 */
export function withoutActorRecording(db: Db): Db {
  return unrecorded.get(db) ?? db;
}
