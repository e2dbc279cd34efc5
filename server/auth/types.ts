/** Contracts between identity, the access policy and the GraphQL engine. */
export const HASURA_CLAIMS = "https://hasura.io/jwt/claims";

export interface HasuraClaims {
  "x-hasura-allowed-roles": string[];
  "x-hasura-default-role": string;
  "x-hasura-user-id": string;
  [claim: string]: unknown;
}

/** Who is asking. Admin secret requests have isAdmin; a user with several roles acts with all of them (union). */
export interface Session {
  userId?: string;
  username?: string;
  /** The roles whose permissions apply to this request (one when X-Hasura-Role picks one, else all allowed roles). */
  roles: string[];
  isAdmin: boolean;
  /**
   * The request carried the admin secret (the operator's tooling, as Hasura's admin): the request bounds of
   * issue 11 do not apply. A signed-in user with the admin role is bounded like every other user.
   */
  byAdminSecret?: boolean;
  /** With the admin secret, `x-hasura-use-backend-only-permissions: true`: the role's backend_only mutations apply. */
  useBackendOnlyPermissions?: boolean;
  /** Hasura session variables, lower-case keys: x-hasura-user-id, x-hasura-role, … */
  variables: Record<string, string>;
}

export class InvalidTokenError extends Error {}

/** An access token of a session that has ended (signed out, refresh family revoked): issue 10 §5. */
export const SESSION_ENDED_MESSAGE = "Your session has ended. Please sign in again.";

/**
 * Payload of a NOTIFY on the change channel (`hasura_changes`) when a sign-in session ends (a refresh token
 * is revoked; see the migration …110000_session_end_notify): token caches forget, websockets re-check.
 */
export const SESSION_ENDED_CHANGE = "auth.sessions";

export interface TokenVerifier {
  /** Verifies signature, expiry and that the user is still active; throws InvalidTokenError otherwise. */
  verifyAccessToken(token: string): Promise<{ userId: string; username: string; claims: HasuraClaims }>;
}

/**
 * Per role, per table permissions in Hasura metadata form, generated from the access policy's data rules.
 * `rules` (engine only, never exported): the role's rules one by one when it has several on the table and
 * action; the permission around them is their union.
 */
type Columns = string[] | "*";
export interface TableRolePermissions {
  select?: { columns: Columns; filter: Record<string, unknown>; limit?: number; allow_aggregations?: boolean; rules?: { columns: Columns; filter: Record<string, unknown> }[] };
  insert?: { columns: Columns; check: Record<string, unknown>; set?: Record<string, string>; rules?: { columns: Columns; check: Record<string, unknown> }[] };
  update?: { columns: Columns; filter: Record<string, unknown>; check?: Record<string, unknown>; set?: Record<string, string>; rules?: { columns: Columns; filter: Record<string, unknown>; check: Record<string, unknown> }[] };
  delete?: { filter: Record<string, unknown> };
}
export type GeneratedPermissions = Record<string /* role */, Record<string /* table */, TableRolePermissions>>;
