/**
 * The caller of a write, recorded in its transaction as Hasura records it (`hasura.user`: the session
 * variables as JSON), so the database's guards (roles on users, finance documents) know who writes,
 * whether the write came through our GraphQL engine, a real Hasura, or a REST route. See docs/DECISIONS.md.
 */
import type { Queryable } from "../db/types.ts";
import type { Session } from "./types.ts";

/** The setting Hasura (and we) put the caller in. */
export const CALLER_SETTING = "hasura.user";

/** Records the caller for the rest of the transaction; admin sessions act as the admin role. */
export async function recordCaller(tx: Queryable, variables: Readonly<Record<string, string>>, isAdmin: boolean): Promise<void> {
  const caller = isAdmin ? { ...variables, "x-hasura-role": "admin" } : variables;
  await tx.query(`select set_config($1, $2, true)`, [CALLER_SETTING, JSON.stringify(caller)]);
}

/** recordCaller for a REST request's session. */
export function recordSession(tx: Queryable, session: Session): Promise<void> {
  const variables = { ...session.variables, ...(session.userId ? { "x-hasura-user-id": session.userId } : {}) };
  return recordCaller(tx, variables, session.isAdmin);
}

/** A write the database refused for the caller (SQLSTATE 42501 from a guard): its message is for the user. */
export function refusedByGuard(error: unknown): string | undefined {
  const e = error as { code?: string; message?: string };
  return e?.code === "42501" && e.message ? e.message : undefined;
}
