import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Db, Queryable } from "../db/index.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { textMail, type MailBody } from "../mail/template.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { KeyStore, SIGNING_ALG } from "./keys.ts";
import { LOCKED_ACCOUNT_MESSAGE, passwordProblem } from "./credentials.ts";
import { markAddressUsed, usedAddress } from "./addresses.ts";
import { LONG_DELAY_SECONDS, clearFailures, recordFailure, secondsToWait } from "./throttle.ts";
import { HASURA_CLAIMS, InvalidTokenError, SESSION_ENDED_MESSAGE, type HasuraClaims, type TokenVerifier } from "./types.ts";
import { UUID } from "../../src/domain/validators.ts";

/** Access tokens live 15 minutes; refresh tokens 30 days; reset codes 15 minutes and 5 tries. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_DAYS = 30;
export const RESET_CODE_MINUTES = 15;
export const RESET_CODE_MAX_ATTEMPTS = 5;
export const TOKEN_ISSUER = "centre-backoffice";

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token stays valid. */
  expiresIn: number;
}

/** A refused identity operation: the HTTP status and the message shown to the user. */
export class IdentityError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const IDENTITY_MESSAGES = {
  badCredentials: "Incorrect username or password.",
  locked: LOCKED_ACCOUNT_MESSAGE,
  inactive: "Your account is not active. Kindly contact the administrator.",
  mustChangePassword: "You must change your temporary password before signing in.",
  badRefreshToken: "Your session has expired. Please sign in again.",
  badResetCode: "The code is invalid or has expired.",
  badOldPassword: "The current password is incorrect.",
  noUsedAddress: "This user has no e-mail address they have used: a code cannot be sent. Set a temporary password instead.",
} as const;

/** "1 minute", "3 minutes", rounded up. */
const minutes = (seconds: number) => {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return `${n} minute${n === 1 ? "" : "s"}`;
};

/** A password try during a wait: the spec's locked message when the wait is long, else when to try again. */
export function waitError(seconds: number): IdentityError {
  if (seconds >= LONG_DELAY_SECONDS) return new IdentityError(403, IDENTITY_MESSAGES.locked, { isBlocked: true, retryAfter: seconds });
  return new IdentityError(429, `Too many failed attempts. Please try again in ${minutes(seconds)}.`, { retryAfter: seconds });
}

/**
 * The identity provider (the spec's "external identity provider"), built in. An OIDC provider can
 * replace it by implementing this interface: the REST API and the GraphQL engine only see this and
 * the TokenVerifier.
 */
export interface IdentityProvider extends TokenVerifier {
  /** `address`: the client's address, for the per-address count of failures (issue 32 §6). */
  signIn(username: string, password: string, address: string): Promise<TokenPair>;
  /** Rotates the refresh token; a used one revokes its whole family. */
  refresh(username: string, refreshToken: string): Promise<TokenPair>;
  signOut(refreshToken: string): Promise<void>;
  /** Mails a 6-digit code; silent when the user does not exist. */
  requestPasswordReset(usernameOrEmail: string): Promise<void>;
  confirmPasswordReset(usernameOrEmail: string, code: string, newPassword: string): Promise<void>;
  changePassword(usernameOrEmail: string, oldPassword: string, newPassword: string, address: string): Promise<void>;
  /** The signed-in user's password again, counted like a sign-in, before a change of their identity (issue 32 §1). */
  reauthenticate(userId: string, password: string, address: string): Promise<void>;
  /** Admin operations on credentials. */
  setPassword(userId: string, newPassword: string, options: { mustChange: boolean }, tx?: Queryable): Promise<void>;
  startPasswordReset(userId: string): Promise<void>;
  revokeUserTokens(userId: string, tx?: Queryable): Promise<void>;
  jwks(): { keys: unknown[] };
}

interface UserRow {
  id: string;
  username: string;
  email: string | null;
  role: string | null;
  multipleRoles: string[] | string | null;
  status: string;
  numOfFailed: number;
  passwordHash: string | null;
  mustChangePassword: boolean | null;
}

/** The roles a user holds: multipleRoles, or [role] when that list is empty. */
export function rolesOf(user: { role: string | null; multipleRoles: string[] | string | null }): string[] {
  const list = typeof user.multipleRoles === "string" ? (JSON.parse(user.multipleRoles) as string[]) : user.multipleRoles;
  if (Array.isArray(list) && list.length > 0) return list;
  return user.role ? [user.role] : [];
}

/**
 * The one role standing for a user's several roles in their access token: Hasura acts under one role per request, so
 * a token names this inherited role (its set: the user's roles; `npm run metadata:export` declares it) as the default
 * for a real Hasura. Our engine unites the roles themselves and ignores it (it is not among the user's roles).
 */
export function combinedRole(roles: readonly string[]): string | undefined {
  // admin already sees everything (and a Hasura inherited role may not contain it)
  return roles.length > 1 && !roles.includes("admin") ? [...roles].sort().join("+") : undefined;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const USER_COLUMNS = `u.id, u.username, u.email, u.role, u."multipleRoles", u.status, u."numOfFailed",
  c."passwordHash", c."mustChangePassword"`;

export async function createBuiltInProvider(db: Db): Promise<IdentityProvider> {
  const keys = new KeyStore(db);
  await keys.init();
  let dummyHash: Promise<string> | undefined;

  async function findUser(usernameOrEmail: string, q: Queryable = db): Promise<UserRow | undefined> {
    const { rows } = await q.query<UserRow>(
      `select ${USER_COLUMNS} from users u left join user_credentials c on c."userId" = u.id
       where lower(u.username) = lower($1) and u.status <> 'deleted'
       order by u."createdAt" limit 1`,
      [usernameOrEmail.trim()],
    );
    if (rows[0]) return rows[0];
    if (!usernameOrEmail.includes("@")) return undefined;
    const byEmail = await q.query<UserRow>(
      `select ${USER_COLUMNS} from users u left join user_credentials c on c."userId" = u.id
       where lower(u.email) = lower($1) and u.status <> 'deleted' and c."userId" is not null
       order by u."createdAt" limit 2`,
      [usernameOrEmail.trim()],
    );
    return byEmail.rows.length === 1 ? byEmail.rows[0] : undefined;
  }

  /** `sid` names the sign-in session (the refresh-token family): a token of an ended session is refused. */
  async function issueAccessToken(user: { id: string; username: string; role: string | null; multipleRoles: UserRow["multipleRoles"] }, sessionId: string): Promise<string> {
    const roles = rolesOf(user);
    const combined = combinedRole(roles);
    const key = keys.signingKey();
    const claims: HasuraClaims = {
      "x-hasura-allowed-roles": combined ? [...roles, combined] : roles,
      "x-hasura-default-role": combined ?? roles[roles.length - 1] ?? "",
      "x-hasura-user-id": user.id,
    };
    return new SignJWT({ [HASURA_CLAIMS]: claims, preferred_username: user.username, sid: sessionId })
      .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: "JWT" })
      .setSubject(user.id)
      .setIssuer(TOKEN_ISSUER)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
      .sign(key.privateKey);
  }

  async function issueRefreshToken(userId: string, familyId: string, q: Queryable = db): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await q.query(
      `insert into refresh_tokens ("userId", "tokenHash", "familyId", "expiresAt")
       values ($1, $2, $3, now() + make_interval(days => $4))`,
      [userId, sha256(token), familyId, REFRESH_TOKEN_DAYS],
    );
    return token;
  }

  function assertActive(user: UserRow) {
    if (user.status === "locked") throw new IdentityError(403, IDENTITY_MESSAGES.locked, { isBlocked: true });
    if (user.status !== "active") throw new IdentityError(403, IDENTITY_MESSAGES.inactive);
  }

  /**
   * The password of an active user, counted (issue 10 §7, issue 32 §6): during a wait it is not even looked at;
   * a wrong one adds to the failures in a row of its address and of the account (numOfFailed) and answers
   * `wrong`, or the wait it started; a right one clears the counts of its address and of the account, and marks
   * the user's address as used. Sign-in, change-password and re-authentication share the counts.
   */
  async function checkPassword(user: UserRow, password: string, wrong: string, address: string): Promise<void> {
    const wait = await secondsToWait(db, user.id, address);
    if (wait > 0) throw waitError(wait);
    if (await verifyPassword(user.passwordHash!, password)) {
      await db.transaction(async (tx) => {
        await clearFailures(tx, user.id, address);
        if (user.numOfFailed > 0) await tx.query(`update users set "numOfFailed" = 0 where id = $1`, [user.id]);
        await markAddressUsed(tx, user.id);
      });
      return;
    }
    const failure = await db.transaction(async (tx) => {
      const counted = await recordFailure(tx, user.id, address);
      await tx.query(`update users set "numOfFailed" = $2 where id = $1`, [user.id, counted.accountFailures]);
      if (counted.accountDelayStarted) await tellUser(tx, user, "Failed sign-ins on your account",
        textMail`Hello ${user.username},\n\nThere were ${counted.accountFailures} failed attempts to sign in to your account in a row. Further attempts now have to wait, longer after each failure. If this was not you, tell the administrator; they can lift the wait from your user page.`);
      return counted;
    });
    if (failure.wait > 0) throw waitError(failure.wait);
    throw new IdentityError(401, wrong);
  }

  /** A security notice to the newest address the user has used (never to one only someone else set). */
  async function tellUser(q: Queryable, user: { id: string }, subject: string, body: MailBody): Promise<void> {
    const to = await usedAddress(q, user.id);
    if (to) await enqueueMail(q, { to, subject, body });
  }

  /** An unknown user costs as much time as a known one (no user enumeration by timing). */
  async function spendPasswordCheck(password: string): Promise<void> {
    dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
    await verifyPassword(await dummyHash, password);
  }

  async function checkNewPassword(password: string, username: string) {
    const problem = passwordProblem(password, username);
    if (problem) throw new IdentityError(400, problem, { errors: { newPassword: problem } });
  }

  const provider: IdentityProvider = {
    async signIn(username, password, address) {
      const user = await findUser(username);
      if (!user || !user.passwordHash) {
        await spendPasswordCheck(password);
        throw new IdentityError(401, IDENTITY_MESSAGES.badCredentials);
      }
      assertActive(user);
      await checkPassword(user, password, IDENTITY_MESSAGES.badCredentials, address);
      if (user.mustChangePassword) throw new IdentityError(403, IDENTITY_MESSAGES.mustChangePassword, { mustChangePassword: true });
      const sessionId = randomUUID();
      const refreshToken = await issueRefreshToken(user.id, sessionId);
      const accessToken = await issueAccessToken(user, sessionId);
      return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_SECONDS };
    },

    async refresh(username, refreshToken) {
      const hash = sha256(refreshToken);
      type Outcome = { error: string } | { user: UserRow; next: string; sessionId: string };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        const { rows } = await tx.query<{ id: string; userId: string; familyId: string; usedAt: unknown; revokedAt: unknown; expired: boolean }>(
          `select id, "userId", "familyId", "usedAt", "revokedAt", "expiresAt" <= now() as expired
           from refresh_tokens where "tokenHash" = $1 for update`,
          [hash],
        );
        const row = rows[0];
        if (!row) return { error: IDENTITY_MESSAGES.badRefreshToken };
        if (row.usedAt || row.revokedAt) {
          // Reuse of a rotated (or revoked) token: someone holds a stolen copy. End the whole session.
          await tx.query(`update refresh_tokens set "revokedAt" = now() where "familyId" = $1 and "revokedAt" is null`, [row.familyId]);
          return { error: IDENTITY_MESSAGES.badRefreshToken };
        }
        if (row.expired) return { error: IDENTITY_MESSAGES.badRefreshToken };
        const user = await findUser(username, tx);
        if (!user || user.id !== row.userId) return { error: IDENTITY_MESSAGES.badRefreshToken };
        if (user.status !== "active") return { error: user.status === "locked" ? IDENTITY_MESSAGES.locked : IDENTITY_MESSAGES.inactive };
        await tx.query(`update refresh_tokens set "usedAt" = now() where id = $1`, [row.id]);
        const next = await issueRefreshToken(user.id, row.familyId, tx);
        return { user, next, sessionId: row.familyId };
      });
      if ("error" in outcome) throw new IdentityError(401, outcome.error);
      const accessToken = await issueAccessToken(outcome.user, outcome.sessionId);
      return { accessToken, refreshToken: outcome.next, expiresIn: ACCESS_TOKEN_SECONDS };
    },

    async signOut(refreshToken) {
      const { rows } = await db.query<{ familyId: string }>(`select "familyId" from refresh_tokens where "tokenHash" = $1`, [sha256(refreshToken)]);
      if (rows[0]) {
        await db.query(`update refresh_tokens set "revokedAt" = now() where "familyId" = $1 and "revokedAt" is null`, [rows[0].familyId]);
      }
    },

    async requestPasswordReset(usernameOrEmail) {
      const user = await findUser(usernameOrEmail);
      if (!user || !user.passwordHash) return;
      // The same silence when the user has no address they have used (issue 32 §1).
      await provider.startPasswordReset(user.id).catch((e) => {
        if (!(e instanceof IdentityError)) throw e;
      });
    },

    async startPasswordReset(userId) {
      const { rows } = await db.query<{ id: string; username: string }>(
        `select id, username from users where id = $1 and status <> 'deleted'`,
        [userId],
      );
      // Only to an address the user has used: one set by someone else and never used gets no code (issue 32 §1).
      const user = rows[0];
      const to = user && (await usedAddress(db, user.id));
      if (!to) throw new IdentityError(400, IDENTITY_MESSAGES.noUsedAddress);
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      await db.transaction(async (tx) => {
        await tx.query(`update password_reset_codes set "usedAt" = now() where "userId" = $1 and "usedAt" is null`, [user.id]);
        await tx.query(
          `insert into password_reset_codes ("userId", "codeHash", "expiresAt") values ($1, $2, now() + make_interval(mins => $3))`,
          [user.id, sha256(`${user.id}:${code}`), RESET_CODE_MINUTES],
        );
        await enqueueMail(tx, {
          to,
          subject: "Your password reset code",
          body: textMail`Hello ${user.username},\n\nYour code to reset your password is ${code}. It expires in ${RESET_CODE_MINUTES} minutes.\n\nIf you did not ask for it, ignore this e-mail.`,
        });
      });
    },

    async confirmPasswordReset(usernameOrEmail, code, newPassword) {
      const user = await findUser(usernameOrEmail);
      if (!user) throw new IdentityError(400, IDENTITY_MESSAGES.badResetCode);
      const { rows } = await db.query<{ id: string; codeHash: string; attempts: number }>(
        `select id, "codeHash", attempts from password_reset_codes
         where "userId" = $1 and "usedAt" is null and "expiresAt" > now() and attempts < $2
         order by "createdAt" desc limit 1`,
        [user.id, RESET_CODE_MAX_ATTEMPTS],
      );
      const row = rows[0];
      if (!row) throw new IdentityError(400, IDENTITY_MESSAGES.badResetCode);
      if (sha256(`${user.id}:${String(code).trim()}`) !== row.codeHash) {
        await db.query(`update password_reset_codes set attempts = attempts + 1 where id = $1`, [row.id]);
        throw new IdentityError(400, IDENTITY_MESSAGES.badResetCode);
      }
      await checkNewPassword(newPassword, user.username);
      await db.transaction(async (tx) => {
        await tx.query(`update password_reset_codes set "usedAt" = now() where id = $1`, [row.id]);
        await provider.setPassword(user.id, newPassword, { mustChange: false }, tx);
      });
    },

    async changePassword(usernameOrEmail, oldPassword, newPassword, address) {
      const user = await findUser(usernameOrEmail);
      if (!user || !user.passwordHash) {
        await spendPasswordCheck(oldPassword);
        throw new IdentityError(401, IDENTITY_MESSAGES.badOldPassword);
      }
      // The account's state first: a locked account answers the same whether the old password is right or not.
      assertActive(user);
      await checkPassword(user, oldPassword, IDENTITY_MESSAGES.badOldPassword, address);
      if (oldPassword === newPassword) {
        const message = "The new password must differ from the current one.";
        throw new IdentityError(400, message, { errors: { newPassword: message } });
      }
      await checkNewPassword(newPassword, user.username);
      await provider.setPassword(user.id, newPassword, { mustChange: false });
    },

    async reauthenticate(userId, password, address) {
      const { rows } = await db.query<UserRow>(
        `select ${USER_COLUMNS} from users u left join user_credentials c on c."userId" = u.id where u.id = $1 and u.status <> 'deleted'`,
        [userId],
      );
      const user = rows[0];
      if (!user || !user.passwordHash) {
        await spendPasswordCheck(password);
        throw new IdentityError(401, IDENTITY_MESSAGES.badOldPassword);
      }
      assertActive(user);
      await checkPassword(user, password, IDENTITY_MESSAGES.badOldPassword, address);
    },

    async setPassword(userId, newPassword, { mustChange }, tx) {
      const hash = await hashPassword(newPassword);
      const run = async (q: Queryable) => {
        await q.query(
          `insert into user_credentials ("userId", "passwordHash", "mustChangePassword", "passwordChangedAt") values ($1, $2, $3, now())
           on conflict ("userId") do update set "passwordHash" = excluded."passwordHash",
             "mustChangePassword" = excluded."mustChangePassword", "passwordChangedAt" = now()`,
          [userId, hash, mustChange],
        );
        await provider.revokeUserTokens(userId, q);
      };
      if (tx) await run(tx);
      else await db.transaction(run);
    },

    async revokeUserTokens(userId, tx) {
      await (tx ?? db).query(`update refresh_tokens set "revokedAt" = now() where "userId" = $1 and "revokedAt" is null`, [userId]);
    },

    jwks: () => keys.jwks(),

    async verifyAccessToken(token) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, async (header) => {
          const key = await keys.publicKey(header.kid);
          if (!key) throw new InvalidTokenError("unknown signing key");
          return key;
        }, { issuer: TOKEN_ISSUER, algorithms: [SIGNING_ALG] }));
      } catch (e) {
        if (e instanceof InvalidTokenError) throw e;
        if (e instanceof joseErrors.JWTExpired) throw new InvalidTokenError("Your session has expired.");
        throw new InvalidTokenError("Invalid token.");
      }
      const claims = payload[HASURA_CLAIMS] as HasuraClaims | undefined;
      if (!claims || typeof payload.sub !== "string" || claims["x-hasura-user-id"] !== payload.sub) throw new InvalidTokenError("Invalid token.");
      if (typeof payload.sid !== "string" || !UUID.test(payload.sid)) throw new InvalidTokenError("Invalid token.");
      // One indexed lookup per request: a deleted, locked or disabled user is refused at once, roles taken
      // away since the token was issued no longer apply, and so does a session that has ended (signed out,
      // its refresh tokens revoked or expired): it has no refresh token left to use.
      const { rows } = await db.query<{ username: string; status: string; role: string | null; multipleRoles: UserRow["multipleRoles"]; live: boolean }>(
        `select u.username, u.status, u.role, u."multipleRoles",
           exists (select 1 from refresh_tokens r where r."familyId" = $2::uuid and r."userId" = u.id
                     and r."usedAt" is null and r."revokedAt" is null and r."expiresAt" > now()) as live
         from users u where u.id = $1`,
        [payload.sub, payload.sid],
        { reuse: true },
      );
      const user = rows[0];
      if (!user || user.status !== "active") throw new InvalidTokenError("This account is no longer active.");
      if (!user.live) throw new InvalidTokenError(SESSION_ENDED_MESSAGE);
      const current = new Set(rolesOf(user));
      const allowed = (claims["x-hasura-allowed-roles"] ?? []).filter((r) => current.has(r));
      if (allowed.length === 0) throw new InvalidTokenError("Invalid token.");
      const defaultRole = allowed.includes(claims["x-hasura-default-role"]) ? claims["x-hasura-default-role"] : allowed[allowed.length - 1];
      return {
        userId: payload.sub,
        username: user.username,
        claims: { ...claims, "x-hasura-allowed-roles": allowed, "x-hasura-default-role": defaultRole },
      };
    },
  };
  return provider;
}
