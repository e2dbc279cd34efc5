import { ANY_CHANGE, type Db } from "../../db/types.ts";
import { SESSION_ENDED_CHANGE, type TokenVerifier } from "../../auth/types.ts";
import { CHANGE_CHANNEL } from "../metadata/triggers.ts";

type Verified = Awaited<ReturnType<TokenVerifier["verifyAccessToken"]>>;

/** How long a verified access token is answered from memory at most (it is dropped sooner on any change to users). */
export const TOKEN_CACHE_MS = 5_000;
const CACHE_SIZE = 1_000;
/** The change channel's payload naming the users a statement changed: 'users:<id>,<id>…' or 'users:*'. */
const USERS_CHANGED = "users:";

/** When a JWT expires (ms since the epoch; 0 when unreadable). Read without verifying: only to shorten lifetimes. */
export function tokenExpiry(token: string): number {
  try {
    const exp = (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : 0;
  } catch {
    return 0;
  }
}

export interface CachingVerifier {
  verifier: TokenVerifier;
  /**
   * Called after users changed or a session ended (the cache is already empty then): open websockets re-check.
   * `userIds`: only these users changed (the others' sockets need no check); undefined: anyone may have.
   * `userId`: the listener's own user; it is then called only when that user (or anyone) may have changed.
   */
  onRevocation(listener: (userIds?: ReadonlySet<string>) => void, userId?: string): () => void;
  close(): Promise<void>;
}

/**
 * The /v1/graphql verifier with a short memory: the same access token verified again within TOKEN_CACHE_MS
 * reuses the answer (signature, expiry and the user's row: status and current roles) instead of a database
 * turn per request. Revocation is kept: every write to the users table (lock, disable, delete, roles
 * changed) empties the memory at once, on this instance by the change trigger's NOTIFY on `hasura_changes`
 * (statement-level, see metadata/triggers.ts), on other instances sharing the database by the same NOTIFY; so does
 * the end of a sign-in session (SESSION_ENDED_CHANGE on the same channel, sent by a trigger on refresh_tokens).
 * Without that trigger (users untracked, listening failed) nothing is cached. An entry never outlives the
 * token's own `exp`; failures are not cached. Websockets are told which users changed when the database says so
 * ('users:<ids>' from the triggers of migration users_changed_notify; issue 38), so a write to one user's row does
 * not make every open socket verify its token again.
 */
export async function cachingVerifier(verifier: TokenVerifier, db: Db, usersTable = "public.users"): Promise<CachingVerifier> {
  const cache = new Map<string, { value: Verified; until: number }>();
  type Listener = (userIds?: ReadonlySet<string>) => void;
  const listeners = new Set<Listener>();
  // by user: a write to 5,000 users with 5,000 sockets open calls the few sockets of those users, not 25 × 5,000
  const byUser = new Map<string, Set<Listener>>();
  // bumped on every change to users: a verification that ran across a change does not store its answer
  let generation = 0;
  const drop = (userIds?: ReadonlySet<string>) => {
    generation++;
    cache.clear();
    for (const l of listeners) l(userIds);
    if (!userIds) for (const set of byUser.values()) for (const l of set) l(userIds);
    else for (const id of userIds) for (const l of byUser.get(id) ?? []) l(userIds);
  };
  // with the per-user notification, 'public.users' only empties the cache; 'users:<ids>' tells the sockets
  let namesUsers = false;
  let enabled = false;
  let unlisten: (() => Promise<void>) | undefined;
  try {
    const [schema, name] = usersTable.split(".");
    unlisten = await db.listen(CHANGE_CHANNEL, (table) => {
      if (table === usersTable && namesUsers) {
        generation++;
        cache.clear();
      } else if (table.startsWith(USERS_CHANGED)) {
        const ids = table.slice(USERS_CHANGED.length);
        drop(ids === "*" ? undefined : new Set(ids.split(",")));
      } else if (table === usersTable || table === SESSION_ENDED_CHANGE || table === ANY_CHANGE) drop();
    });
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace s on s.oid = c.relnamespace where t.tgname = 'hdb_live_notify' and s.nspname = $1 and c.relname = $2`,
      [schema, name],
    );
    enabled = Boolean(rows[0]?.n);
    const named = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace s on s.oid = c.relnamespace where t.tgname in ('users_changed_update', 'users_changed_delete') and s.nspname = $1 and c.relname = $2`,
      [schema, name],
    );
    namesUsers = named.rows[0]?.n === 2;
  } catch {
    enabled = false;
  }

  return {
    verifier: {
      async verifyAccessToken(token) {
        if (!enabled) return verifier.verifyAccessToken(token);
        const hit = cache.get(token);
        if (hit && hit.until > Date.now()) return hit.value;
        if (hit) cache.delete(token);
        const before = generation;
        const value = await verifier.verifyAccessToken(token);
        const until = Math.min(Date.now() + TOKEN_CACHE_MS, tokenExpiry(token));
        if (until > Date.now() && before === generation) {
          if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
          cache.set(token, { value, until });
        }
        return value;
      },
    },
    onRevocation(listener, userId) {
      if (userId === undefined) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      }
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size && byUser.get(userId) === set) byUser.delete(userId);
      };
    },
    async close() {
      enabled = false;
      listeners.clear();
      byUser.clear();
      drop();
      await unlisten?.();
    },
  };
}
