/**
 * Growing delays after failed password checks (issue 32 §6, OWASP ASVS 2.2.1), instead of a lock anyone could
 * cause: failures in a row are counted per account and client address, and per account across all addresses.
 * Past a threshold each further failure doubles the wait before the next try (capped), and a try during the wait
 * is refused without looking at the password. A right password clears the counts of its address and of the
 * account; an administrator's unlock clears them all. Counts live in app_internal.sign_in_throttles.
 */
import type { Queryable } from "../db/types.ts";

/** Failures in a row from one address before its waits start, and from all addresses together. */
export const ADDRESS_FAILURES_BEFORE_DELAY = 5;
export const ACCOUNT_FAILURES_BEFORE_DELAY = 20;
/** The first wait, doubled by each further failure, up to the longest. */
export const FIRST_DELAY_SECONDS = 60;
export const LONGEST_DELAY_SECONDS = 60 * 60;
/** A wait at least this long reads as the spec's locked message (the administrator can lift it). */
export const LONG_DELAY_SECONDS = 15 * 60;

/** The key of the account-wide count (no client address is written so). */
const ACCOUNT = "*";

export function delaySeconds(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  return Math.min(FIRST_DELAY_SECONDS * 2 ** (failures - threshold), LONGEST_DELAY_SECONDS);
}

/** Seconds the user must still wait before a password may be tried from this address (0: go ahead). */
export async function secondsToWait(q: Queryable, userId: string, address: string): Promise<number> {
  const { rows } = await q.query<{ wait: number | null }>(
    `select ceil(extract(epoch from max("retryAt") - now()))::int as wait from app_internal.sign_in_throttles
     where "userId" = $1 and address in ($2, $3) and "retryAt" > now()`,
    [userId, ACCOUNT, address],
  );
  return Math.max(0, rows[0]?.wait ?? 0);
}

export interface Failure {
  /** Seconds before the next try (0 when none). */
  wait: number;
  /** Failures in a row on the account, all addresses. */
  accountFailures: number;
  /** This failure started the account-wide waits (the user is told once). */
  accountDelayStarted: boolean;
}

/** Counts a wrong password from this address; returns the wait it causes. */
export async function recordFailure(q: Queryable, userId: string, address: string): Promise<Failure> {
  const count = async (key: string, threshold: number) => {
    const { rows } = await q.query<{ failures: number }>(
      `insert into app_internal.sign_in_throttles ("userId", address, failures) values ($1, $2, 1)
       on conflict ("userId", address) do update set failures = app_internal.sign_in_throttles.failures + 1
       returning failures`,
      [userId, key],
    );
    const failures = rows[0].failures;
    const wait = delaySeconds(failures, threshold);
    if (wait > 0) {
      await q.query(`update app_internal.sign_in_throttles set "retryAt" = now() + make_interval(secs => $3) where "userId" = $1 and address = $2`, [userId, key, wait]);
    }
    return { failures, wait };
  };
  const pair = await count(address, ADDRESS_FAILURES_BEFORE_DELAY);
  const account = await count(ACCOUNT, ACCOUNT_FAILURES_BEFORE_DELAY);
  return {
    wait: Math.max(pair.wait, account.wait),
    accountFailures: account.failures,
    accountDelayStarted: account.failures === ACCOUNT_FAILURES_BEFORE_DELAY,
  };
}

/** A right password from this address: its count and the account's start again. */
export async function clearFailures(q: Queryable, userId: string, address: string): Promise<void> {
  await q.query(`delete from app_internal.sign_in_throttles where "userId" = $1 and address in ($2, $3)`, [userId, ACCOUNT, address]);
}

/** The administrator's unlock: every count of the account goes. Returns whether there was a wait to lift. */
export async function clearAllFailures(q: Queryable, userId: string): Promise<boolean> {
  const { rows } = await q.query<{ waiting: boolean }>(
    `delete from app_internal.sign_in_throttles where "userId" = $1 returning "retryAt" > now() as waiting`,
    [userId],
  );
  return rows.some((r) => r.waiting);
}

/**
 * SQL: whether the account (alias `u` of users) waits, account-wide or from some address: the user's page shows it
 * as locked and offers Unlock (the owner may be the one waiting, e.g. behind an office's shared address).
 */
export const WAITING_SQL = `exists (select 1 from app_internal.sign_in_throttles t where t."userId" = u.id and t."retryAt" > now())`;
