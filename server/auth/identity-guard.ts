/**
 * The database's guard on the identity of staff accounts (issue 32 §1; trigger users_identity_guard in the
 * migration …220000_identity_guard): e-mail, phone, username, roles and status change only by an administrator,
 * or by the user in a transaction marked here after their password was checked again.
 */
import type { Queryable } from "../db/types.ts";

/** The guard's refusal, word for word as the trigger raises it. */
export const IDENTITY_GUARD_MESSAGE =
  "Only an administrator, or the user after entering their current password, can change the e-mail, phone, username, roles or status of a staff account.";

/** After the user re-entered their password: this transaction may change their own identity fields. */
export async function markReauthenticated(tx: Queryable, userId: string): Promise<void> {
  await tx.query(`select set_config('backoffice.reauthenticated', $1, true)`, [userId]);
}
