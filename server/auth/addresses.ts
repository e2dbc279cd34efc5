/**
 * The e-mail addresses a user has shown to be theirs (issue 32 §1), kept by the database in
 * app_internal.user_email_history (see the migration …220000_identity_guard): reset codes and security notices
 * go to the newest of them, never to an address someone else set and the user never used.
 */
import type { Queryable } from "../db/types.ts";

/** The user proved who they are (right password) while their current address was set: it counts as used. */
export async function markAddressUsed(q: Queryable, userId: string): Promise<void> {
  await q.query(
    `insert into app_internal.user_email_history ("userId", email, "lastUsedAt")
     select id, lower(email), now() from users where id = $1 and coalesce(email, '') <> ''
     on conflict ("userId", email) do update set "lastUsedAt" = now()`,
    [userId],
  );
}

/** The newest address the user has used, or undefined when they have used none. */
export async function usedAddress(q: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await q.query<{ email: string }>(
    `select email from app_internal.user_email_history where "userId" = $1 and "lastUsedAt" is not null
     order by "lastUsedAt" desc limit 1`,
    [userId],
  );
  return rows[0]?.email;
}
