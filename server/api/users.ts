import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { MESSAGES, nameLike, username as usernameRule } from "../../src/domain/validators.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import type { Identity } from "../auth/index.ts";
import { IdentityError, rolesOf } from "../auth/provider.ts";
import { passwordProblem, temporaryPassword } from "../auth/credentials.ts";
import { recordSession, refusedByGuard } from "../auth/caller.ts";
import { markReauthenticated, IDENTITY_GUARD_MESSAGE } from "../auth/identity-guard.ts";
import { WAITING_SQL, clearAllFailures } from "../auth/throttle.ts";
import { usedAddress } from "../auth/addresses.ts";
import { STAFF_ROLES } from "../auth/policy/rules.ts";
import { sendIdentityError } from "../auth/routes.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { textMail } from "../mail/template.ts";
import { uuid, validationError } from "./validation.ts";
import { UUID } from "../../src/domain/validators.ts";

export const USER_MESSAGES = {
  notFound: "User not found.",
  usernameTaken: "Username already exists.",
  adminOnly: "Only an administrator can grant or change the admin role.",
  forbidden: "You do not have permission to perform this action.",
  deleteSelf: "You cannot delete your own account.",
  required: "This field is required.",
  passwordAdminOnly: "Only an administrator can set another user's password.",
  currentPasswordNeeded: "Enter your current password to change your e-mail, phone, username or status.",
} as const;

const STAFF_AND_ADMIN = ["admin", ...STAFF_ROLES] as const;

const USER_COLUMNS = `id, username, "firstName", "lastName", "fullName", email, phone, dob, gender, address, "avatarUrl", type,
  role, "multipleRoles", status, "companyId", "branchId", "levelIds", "subjectIds", "numOfFailed", "createdAt", "updatedAt"`;

type UserRow = Record<string, unknown> & { id: string; username: string; role: string | null; multipleRoles: string[] | null; status: string; email: string | null };

/** The user as the spec's current-user call reads it: multipleRoles always lists the roles held. */
function present(row: UserRow) {
  return { ...row, multipleRoles: rolesOf(row), isBlocked: row.status === "locked" };
}

const trimmed = z.string().trim();
const nameField = trimmed.min(1, USER_MESSAGES.required).max(100).refine((v) => !nameLike(v), MESSAGES.nameLike);
const usernameField = trimmed.min(1, USER_MESSAGES.required).max(64).refine((v) => !usernameRule(v), MESSAGES.username);
const role = z.enum(STAFF_AND_ADMIN, { error: "Unknown role." });
const userFields = {
  username: usernameField,
  email: trimmed.max(254).email("Please input a valid email!"),
  firstName: nameField,
  lastName: nameField,
  role: role.optional(),
  multipleRoles: z.array(role).min(1, "Choose at least one role.").optional(),
  phone: z.object({ code: z.string().max(8), number: z.string().regex(/^[0-9]{3,20}$/, MESSAGES.numericOnly) }).nullable().optional(),
  dob: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use the format YYYY-MM-DD.").nullable().optional(),
  gender: z.string().max(20).nullable().optional(),
  address: z.string().max(500).nullable().optional(),
  avatarUrl: z.string().max(2000).nullable().optional(),
  companyId: uuid().nullable().optional(),
  branchId: uuid().nullable().optional(),
  levelIds: z.array(uuid()).optional(),
  subjectIds: z.array(uuid()).optional(),
};
const createBody = z
  .object(userFields)
  .strict()
  .refine((b) => b.role || b.multipleRoles, { message: "Choose at least one role.", path: ["multipleRoles"] });
const updateBody = z
  .object({
    ...userFields,
    username: usernameField.optional(),
    email: userFields.email.optional(),
    firstName: nameField.optional(),
    lastName: nameField.optional(),
    status: z.enum(["active", "inactive", "disabled", "pending", "draft"]).optional(),
    // The user's own password, when they change their own identity fields (issue 32 §1).
    currentPassword: z.string().min(1, USER_MESSAGES.required).max(1024).optional(),
  })
  .strict();
const suggestQuery = z.object({ firstName: z.string().max(100).optional(), lastName: z.string().max(100).optional() });
const checkBlockBody = z.object({ username: z.string().optional() }).optional();
const confirmBody = z
  .object({
    username: trimmed.min(1).optional(),
    email: trimmed.min(1).optional(),
    code: trimmed.regex(/^\d{6}$/, "The code has 6 digits."),
    newPassword: z.string().min(1, USER_MESSAGES.required).max(1024),
  })
  .refine((b) => b.username || b.email, { message: USER_MESSAGES.required, path: ["username"] });
const changeBody = z.object({ oldPassword: z.string().max(1024).optional(), newPassword: z.string().min(1, USER_MESSAGES.required).max(1024) });
const refreshQuery = z.object({ username: trimmed.min(1, USER_MESSAGES.required), refreshToken: trimmed.min(1, USER_MESSAGES.required) });

/** The roles written to the row: multipleRoles (with role in it), and role = the last of them. */
function resolveRoles(body: { role?: string; multipleRoles?: string[] }): { role: string; multipleRoles: string[] } | undefined {
  if (!body.role && !body.multipleRoles) return undefined;
  const list = [...new Set([...(body.multipleRoles ?? []), ...(body.role && !body.multipleRoles?.includes(body.role) ? [body.role] : [])])];
  return { role: body.role ?? list[list.length - 1], multipleRoles: list };
}

const isAdmin = (request: FastifyRequest) => request.session?.roles.includes("admin") ?? false;
const sameRoles = (a: string[], b: string[]) => a.length === b.length && a.every((r) => b.includes(r));

/** Username suggestion: the lower-cased first and last name, letters and digits only, then 1, 2, … until free. */
export function usernameBase(firstName = "", lastName = ""): string {
  const base = `${firstName}${lastName}`
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 30);
  return base || "user";
}

/** REST calls on users (spec part 1 §7) and the token refresh, under /api/v2. */
export const usersRoutes: FastifyPluginAsync<{ ctx: ServerContext; identity: Identity }> = async (app, { ctx, identity }) => {
  const { db } = ctx;
  const provider = identity.provider;

  async function findUser(id: string): Promise<UserRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1 and status <> 'deleted'`, [id]);
    return rows[0];
  }
  async function usernameTaken(name: string, exceptId?: string): Promise<boolean> {
    const { rows } = await db.query(`select 1 from users where lower(username) = lower($1) and ($2::uuid is null or id <> $2::uuid)`, [name, exceptId ?? null]);
    return rows.length > 0;
  }
  /** A changed e-mail or phone is told to the old address, so a takeover cannot pass unseen (issue 32 §1). */
  async function noticeOfNewContact(tx: Queryable, before: UserRow, after: UserRow): Promise<void> {
    const emailChanged = (before.email ?? "").toLowerCase() !== (after.email ?? "").toLowerCase();
    const phoneChanged = JSON.stringify(before.phone ?? null) !== JSON.stringify(after.phone ?? null);
    if (!before.email || (!emailChanged && !phoneChanged)) return;
    const what = emailChanged && phoneChanged ? "e-mail address and phone number were" : emailChanged ? "e-mail address was" : "phone number was";
    await enqueueMail(tx, {
      to: before.email,
      subject: "Your account's contact details changed",
      body: textMail`Hello ${before.username},\n\nThe ${what} of your back-office account changed${emailChanged ? `: e-mail is now ${after.email ?? "(none)"}` : ""}.\n\nIf you did not make or expect this change, tell the administrator at once.`,
    });
  }
  const notFound = (reply: FastifyReply) => reply.code(404).send({ success: false, message: USER_MESSAGES.notFound });
  const forbidden = (reply: FastifyReply, message: string = USER_MESSAGES.forbidden) => reply.code(403).send({ success: false, message });
  /** A write refused by the database's role guard (the one place roles are checked): its message, for a 403. */
  const refusal = (e: unknown): string => {
    const why = refusedByGuard(e);
    if (why === undefined) throw e;
    return why;
  };

  app.get("/users/me", async (request, reply) => {
    const user = await findUser(request.session!.userId!);
    if (!user) return notFound(reply);
    return { success: true, data: present(user) };
  });

  app.patch<{ Params: { username: string } }>("/users/:username/check-block", async (request, reply) => {
    const body = checkBlockBody.safeParse(request.body ?? undefined);
    if (!body.success) return validationError(reply, body.error);
    const name = body.data?.username || request.params.username;
    // Locked, or waiting after failed sign-ins (issue 32 §6): either way the page offers Unlock.
    const { rows } = await db.query<{ blocked: boolean }>(
      `select u.status = 'locked' or ${WAITING_SQL} as blocked from users u
       where lower(u.username) = lower($1) and u.status <> 'deleted' limit 1`,
      [name],
    );
    return { success: true, data: { isBlocked: rows[0]?.blocked ?? false } };
  });

  app.get("/users/username/suggest", async (request, reply) => {
    const query = suggestQuery.safeParse(request.query ?? {});
    if (!query.success) return validationError(reply, query.error);
    const base = usernameBase(query.data.firstName, query.data.lastName);
    const { rows } = await db.query<{ name: string }>(`select lower(username) as name from users where lower(username) like $1`, [`${base}%`]);
    const taken = new Set(rows.map((r) => r.name));
    let candidate = base;
    for (let n = 1; taken.has(candidate); n++) candidate = `${base}${n}`;
    return { success: true, data: { username: candidate } };
  });

  app.post("/users", async (request, reply) => {
    const body = createBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const roles = resolveRoles(body.data)!;
    if (roles.multipleRoles.includes("admin") && !isAdmin(request)) return forbidden(reply, USER_MESSAGES.adminOnly);
    if (await usernameTaken(body.data.username)) {
      return reply.code(400).send({ success: false, message: USER_MESSAGES.usernameTaken, errors: { username: USER_MESSAGES.usernameTaken } });
    }
    const password = temporaryPassword();
    const d = body.data;
    const type = roles.multipleRoles.every((r) => r === "fulltime_tutor" || r === "parttime_tutor") ? "tutor" : "admin";
    const user = await db.transaction(async (tx) => {
      await recordSession(tx, request.session!);
      const { rows } = await tx.query<UserRow>(
        `insert into users (username, email, "firstName", "lastName", role, "multipleRoles", phone, dob, gender, address, "avatarUrl",
           "companyId", "branchId", "levelIds", "subjectIds", type, status, "createdBy", "updatedBy")
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 'active', $17, $17)
         returning ${USER_COLUMNS}`,
        [d.username, d.email, d.firstName, d.lastName, roles.role, JSON.stringify(roles.multipleRoles), d.phone ? JSON.stringify(d.phone) : null,
          d.dob ?? null, d.gender ?? null, d.address ?? null, d.avatarUrl ?? null, d.companyId ?? null, d.branchId ?? null,
          JSON.stringify(d.levelIds ?? []), JSON.stringify(d.subjectIds ?? []), type, request.session!.userId ?? null],
      );
      const created = rows[0];
      await provider.setPassword(created.id, password, { mustChange: true }, tx);
      await enqueueMail(tx, {
        to: d.email,
        subject: "Your back-office account",
        body: textMail`Hello ${d.firstName},\n\nAn account was created for you.\nUsername: ${d.username}\nTemporary password: ${password}\n\nChange it at ${ctx.config.publicUrl}/change-password/${encodeURIComponent(d.email)} before signing in.`,
      });
      return created;
    }).catch((e) => refusal(e));
    if (typeof user === "string") return forbidden(reply, user);
    return reply.code(201).send({ success: true, data: present(user) });
  });

  app.put<{ Params: { id: string } }>("/users/:id", async (request, reply) => {
    const body = updateBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const user = await findUser(request.params.id);
    if (!user) return notFound(reply);
    const resolved = resolveRoles(body.data);
    if ((rolesOf(user).includes("admin") || resolved?.multipleRoles.includes("admin")) && !isAdmin(request)) return forbidden(reply, USER_MESSAGES.adminOnly);
    // The form sends the roles it shows: written only when they change (a change is the guard's to judge).
    const roles = resolved && !(sameRoles(resolved.multipleRoles, rolesOf(user)) && (!body.data.role || body.data.role === user.role)) ? resolved : undefined;
    const { currentPassword, ...d } = body.data;
    const self = user.id === request.session!.userId;
    if (currentPassword !== undefined) {
      if (!self) return reply.code(400).send({ success: false, message: "Only the user themself gives their current password.", errors: { currentPassword: "Not expected here." } });
      try {
        await provider.reauthenticate(user.id, currentPassword, request.ip);
      } catch (e) {
        // 400, not 401: a wrong password here is a field error, and the browser retries a 401 after refreshing.
        if (e instanceof IdentityError && e.statusCode === 401) {
          return reply.code(400).send({ success: false, message: e.message, errors: { currentPassword: e.message } });
        }
        return sendIdentityError(reply, e);
      }
    }
    if (d.username && (await usernameTaken(d.username, user.id))) {
      return reply.code(400).send({ success: false, message: USER_MESSAGES.usernameTaken, errors: { username: USER_MESSAGES.usernameTaken } });
    }
    const set: Record<string, unknown> = {};
    for (const key of ["username", "email", "firstName", "lastName", "dob", "gender", "address", "avatarUrl", "companyId", "branchId", "status"] as const) {
      if (d[key] !== undefined) set[key] = d[key];
    }
    if (d.phone !== undefined) set.phone = d.phone ? JSON.stringify(d.phone) : null;
    if (d.levelIds) set.levelIds = JSON.stringify(d.levelIds);
    if (d.subjectIds) set.subjectIds = JSON.stringify(d.subjectIds);
    if (roles) {
      set.role = roles.role;
      set.multipleRoles = JSON.stringify(roles.multipleRoles);
    }
    set.updatedBy = request.session!.userId ?? null;
    const keys = Object.keys(set);
    const updated = await db.transaction(async (tx) => {
      await recordSession(tx, request.session!);
      if (currentPassword !== undefined) await markReauthenticated(tx, user.id);
      const { rows } = await tx.query<UserRow>(
        `update users set ${keys.map((k, i) => `"${k}" = $${i + 2}`).join(", ")} where id = $1 returning ${USER_COLUMNS}`,
        [user.id, ...keys.map((k) => set[k])],
      );
      if (d.status && d.status !== "active") await provider.revokeUserTokens(user.id, tx);
      await noticeOfNewContact(tx, user, rows[0]);
      return rows[0];
    }).catch((e) => refusal(e));
    if (updated === IDENTITY_GUARD_MESSAGE && self && currentPassword === undefined) {
      return reply.code(400).send({ success: false, message: USER_MESSAGES.currentPasswordNeeded, errors: { currentPassword: USER_MESSAGES.currentPasswordNeeded } });
    }
    if (typeof updated === "string") return forbidden(reply, updated);
    return { success: true, data: present(updated) };
  });

  app.delete<{ Params: { id: string } }>("/users/:id", async (request, reply) => {
    const user = await findUser(request.params.id);
    if (!user) return notFound(reply);
    if (user.id === request.session!.userId) return reply.code(400).send({ success: false, message: USER_MESSAGES.deleteSelf });
    if (rolesOf(user).includes("admin") && !isAdmin(request)) return forbidden(reply, USER_MESSAGES.adminOnly);
    await db.transaction(async (tx) => {
      await tx.query(`update users set status = 'deleted', "updatedBy" = $2 where id = $1`, [user.id, request.session!.userId ?? null]);
      await provider.revokeUserTokens(user.id, tx);
    });
    return { success: true, data: { id: user.id } };
  });

  app.patch<{ Params: { id: string } }>("/users/:id/forget-password", async (request, reply) => {
    const user = await findUser(request.params.id);
    if (!user) return notFound(reply);
    if (rolesOf(user).includes("admin") && !isAdmin(request)) return forbidden(reply, USER_MESSAGES.adminOnly);
    try {
      await provider.startPasswordReset(user.id);
    } catch (e) {
      return sendIdentityError(reply, e);
    }
    return { success: true, data: null };
  });

  // A code guessed here is a credential guess: the per-address bucket of /auth/* counts it (issue 32 §7).
  app.patch("/users/confirm-forget-password", { onRequest: identity.credentialLimit }, async (request, reply) => {
    const body = confirmBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    try {
      await provider.confirmPasswordReset((body.data.username ?? body.data.email)!, body.data.code, body.data.newPassword);
    } catch (e) {
      return sendIdentityError(reply, e);
    }
    return { success: true, data: null };
  });

  // Lifts the waits of failed sign-ins (anyone the policy lets), and a lock (status locked: the identity guard
  // leaves that to an administrator); the user is told at the address they have used.
  app.patch<{ Params: { id: string } }>("/users/:id/unblock", async (request, reply) => {
    const user = await findUser(request.params.id);
    if (!user) return notFound(reply);
    const updated = await db.transaction(async (tx) => {
      await recordSession(tx, request.session!);
      const waited = await clearAllFailures(tx, user.id);
      const { rows } = await tx.query<UserRow>(
        `update users set status = case when status = 'locked' then 'active' else status end, "numOfFailed" = 0, "updatedBy" = $2
         where id = $1 returning ${USER_COLUMNS}`,
        [user.id, request.session!.userId ?? null],
      );
      const to = await usedAddress(tx, user.id);
      if (to && (waited || user.status === "locked")) {
        await enqueueMail(tx, {
          to,
          subject: "Your account was unlocked",
          body: textMail`Hello ${user.username},\n\nAn administrator unlocked your back-office account: you can sign in again.`,
        });
      }
      return rows[0];
    }).catch((e) => refusal(e));
    if (typeof updated === "string") return forbidden(reply, updated);
    return { success: true, data: present(updated) };
  });

  app.patch<{ Params: { id: string } }>("/users/:id/change-password", async (request, reply) => {
    const body = changeBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const user = await findUser(request.params.id);
    if (!user) return notFound(reply);
    try {
      if (user.id === request.session!.userId) {
        if (!body.data.oldPassword) {
          return reply.code(400).send({ success: false, message: USER_MESSAGES.required, errors: { oldPassword: USER_MESSAGES.required } });
        }
        await provider.changePassword(user.username, body.data.oldPassword, body.data.newPassword, request.ip);
      } else {
        // Another user's password is an identity field: an administrator's alone (issue 32 §1).
        if (!isAdmin(request)) return forbidden(reply, USER_MESSAGES.passwordAdminOnly);
        const problem = passwordProblem(body.data.newPassword, user.username);
        if (problem) throw new IdentityError(400, problem, { errors: { newPassword: problem } });
        // A password set by someone else is temporary: the user changes it at the next sign-in.
        await provider.setPassword(user.id, body.data.newPassword, { mustChange: true });
      }
    } catch (e) {
      return sendIdentityError(reply, e);
    }
    return { success: true, data: null };
  });

  // The spec's refresh call carries the refresh token in the URL (kept out of our logs by the logger's
  // serialisers); the POST form with the same fields in a JSON body keeps it out of every URL (issue 10 §8).
  const refresh = async (input: unknown, reply: FastifyReply) => {
    const parsed = refreshQuery.safeParse(input ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    try {
      return { success: true, data: await provider.refresh(parsed.data.username, parsed.data.refreshToken) };
    } catch (e) {
      return sendIdentityError(reply, e);
    }
  };
  app.get("/auth/access-token", async (request, reply) => refresh(request.query, reply));
  app.post("/auth/access-token", async (request, reply) => refresh(request.body, reply));
};
