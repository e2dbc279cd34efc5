import { timingSafeEqual } from "node:crypto";
import type { Config } from "../../config.ts";
import { InvalidTokenError, type Session, type TokenVerifier } from "../../auth/types.ts";
import { RequestError } from "../errors.ts";

export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

function header(h: HeaderMap, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** X-Hasura-* headers as session variables (lower-case), trusted only with the admin secret. */
function headerVariables(h: HeaderMap): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    const key = k.toLowerCase();
    if (key.startsWith("x-hasura-") && key !== "x-hasura-admin-secret" && v !== undefined) vars[key] = Array.isArray(v) ? v[0] : v;
  }
  return vars;
}

function claimValue(v: unknown): string {
  if (Array.isArray(v)) return `{${v.map((x) => `"${String(x).replace(/(["\\])/g, "\\$1")}"`).join(",")}}`;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * Who is asking, as Hasura decides it: the admin secret (then X-Hasura-Role and X-Hasura-* headers),
 * else a Bearer JWT (X-Hasura-Role may pick one allowed role; otherwise all allowed roles apply).
 * With neither, access is denied: the product is never open.
 */
export async function sessionFromHeaders(headers: HeaderMap, config: Pick<Config, "adminSecret">, verifier: TokenVerifier | undefined): Promise<Session> {
  const lower: Record<string, string | string[] | undefined> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const secret = header(lower, "x-hasura-admin-secret") ?? header(lower, "x-hasura-access-key");
  if (secret !== undefined) {
    if (!config.adminSecret || !sameSecret(secret, config.adminSecret)) throw new RequestError("access-denied", "invalid x-hasura-admin-secret/x-hasura-access-key", "$", 401);
    const variables = headerVariables(lower);
    const role = variables["x-hasura-role"] ?? "admin";
    variables["x-hasura-role"] = role;
    const useBackendOnlyPermissions = (header(lower, "x-hasura-use-backend-only-permissions") ?? "").toLowerCase() === "true";
    return { roles: [role], isAdmin: role === "admin", byAdminSecret: true, useBackendOnlyPermissions, variables, userId: variables["x-hasura-user-id"] };
  }
  const auth = header(lower, "authorization");
  const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (bearer && verifier) {
    let verified: Awaited<ReturnType<TokenVerifier["verifyAccessToken"]>>;
    try {
      verified = await verifier.verifyAccessToken(bearer[1]);
    } catch (e) {
      const why = e instanceof InvalidTokenError || e instanceof Error ? e.message : "invalid token";
      throw new RequestError("invalid-jwt", `Could not verify JWT: ${why}`, "$", 200);
    }
    const claims = verified.claims;
    const allowed = (claims["x-hasura-allowed-roles"] ?? []).map(String);
    const requested = header(lower, "x-hasura-role");
    if (requested !== undefined && !allowed.includes(requested)) throw new RequestError("access-denied", "Your requested role is not in allowed roles", "$", 200);
    const roles = requested !== undefined ? [requested] : allowed.length ? allowed : [claims["x-hasura-default-role"]];
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries(claims)) if (k.toLowerCase().startsWith("x-hasura-") && k !== "x-hasura-allowed-roles" && k !== "x-hasura-default-role") variables[k.toLowerCase()] = claimValue(v);
    variables["x-hasura-user-id"] = variables["x-hasura-user-id"] ?? verified.userId;
    variables["x-hasura-role"] = requested ?? claims["x-hasura-default-role"];
    return { userId: verified.userId, username: verified.username, roles, isAdmin: roles.includes("admin"), variables };
  }
  if (bearer) throw new RequestError("invalid-jwt", "Could not verify JWT: JWT authentication is not configured", "$", 200);
  throw new RequestError("access-denied", config.adminSecret ? "x-hasura-admin-secret/x-hasura-access-key required, but not found" : "Missing 'Authorization' or 'Cookie' header in JWT authentication mode", "$", 401);
}
