/**
 * Student-profile calls (spec part 1 §7) under /api/v2: the account wizard's three steps
 * (init → family information → student information, each saving `currentStep` so a draft resumes),
 * the profile update, the avatar and the soft delete. Each call validates its whole body first
 * (400 with a message per field, nothing written) and then writes in one transaction.
 */
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import { MESSAGES, nameLike, username as usernameRule } from "../../src/domain/validators.ts";
import {
  ACTIVE_ENROLMENT_STATUSES,
  LAST_STUDENT_STEP,
  PARENT_RELATIONSHIPS,
  STUDENT_MESSAGES,
  UNPAID_PA_STATUSES,
  primaryContactProblem,
} from "../../src/domain/students.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { keyPathOf, mediaFor, storedType } from "../media/index.ts";
import { validationError } from "./validation.ts";
import { UUID } from "../../src/domain/validators.ts";

const REQUIRED = "This field is required.";

const trimmed = z.string().trim();
const uuid = z.string({ error: REQUIRED }).regex(UUID, "Invalid id.");
const requiredName = trimmed.min(1, REQUIRED).max(100).refine((v) => !nameLike(v), MESSAGES.nameLike);
const optionalName = trimmed.max(100).refine((v) => !nameLike(v), MESSAGES.nameLike).nullable().optional();
const email = trimmed.max(254).email("Please input a valid email!");
const phone = z.object({
  code: trimmed.max(8).regex(/^\+?[0-9]{1,6}$/, MESSAGES.numericOnly),
  number: trimmed.min(1, REQUIRED).max(20).regex(/^[0-9]+$/, MESSAGES.numericOnly),
});

/** Account fields (step 1, and the account part of PUT). */
const account = {
  firstName: requiredName,
  lastName: requiredName,
  username: trimmed.min(1, REQUIRED).max(64).refine((v) => !usernameRule(v), MESSAGES.username),
  email: email.nullable().optional().or(z.literal("").transform(() => null)),
  phone: phone.nullable().optional(),
  dob: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use the format YYYY-MM-DD.").nullable().optional(),
  gender: z.enum(["male", "female"], { error: "Choose male or female." }).nullable().optional(),
  address: trimmed.max(500).nullable().optional(),
  branchId: uuid,
};

const parent = z.object({
  relationship: z.enum(Object.keys(PARENT_RELATIONSHIPS) as [string, ...string[]], { error: "Choose the relationship." }),
  email: email.nullable().optional().or(z.literal("").transform(() => null)),
  firstName: requiredName,
  lastName: optionalName,
  occupation: trimmed.max(100).nullable().optional(),
  phone,
  primaryContact: z.boolean().default(false),
  isEmergencyContact: z.boolean().default(false),
});
const family = {
  parents: z.array(parent).max(6, "At most 6 parents."),
  siblings: z.array(uuid).max(10, "At most 10 siblings.").default([]),
  emergencyContact: z.object({ firstName: requiredName, lastName: optionalName, phone }),
};
const familyChecked = <T extends { parents?: { primaryContact?: boolean }[] }>(schema: z.ZodType<T>) =>
  schema.superRefine((b, ctx) => {
    if (!b.parents) return;
    const problem = primaryContactProblem(b.parents);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["parents"] });
  });

const reference = z.object({ name: optionalName, discountCode: trimmed.min(1, REQUIRED).max(50) });
const studentInfo = {
  schoolId: uuid,
  curriculumId: uuid,
  levelId: uuid,
  subscribe: z.boolean().default(true),
  payOnline: z.boolean().default(false),
  references: z.array(reference).max(10).default([]),
};

const initBody = z.object({ id: uuid.optional(), ...account }).strict();
const familyBody = familyChecked(z.object({ id: uuid, ...family }).strict());
const studentBody = z.object({ id: uuid, ...studentInfo }).strict();
const updateBody = familyChecked(
  z
    .object({
      id: uuid,
      ...Object.fromEntries(Object.entries(account).map(([k, v]) => [k, v.optional()])),
      parents: family.parents.optional(),
      siblings: z.array(uuid).max(10).optional(),
      emergencyContact: family.emergencyContact.optional(),
      schoolId: uuid.optional(),
      curriculumId: uuid.optional(),
      levelId: uuid.optional(),
      subscribe: z.boolean().optional(),
      payOnline: z.boolean().optional(),
      references: z.array(reference).max(10).optional(),
      status: z.enum(["active", "inactive", "pending", "disabled"], { error: "Unknown status." }).optional(),
    })
    .strict() as z.ZodType<Record<string, unknown> & { id: string; parents?: { primaryContact?: boolean }[] }>,
);
const avatarBody = z.object({ avatarUrl: trimmed.min(1, REQUIRED).max(2000) }).strict();

/** The columns a profile answers with: what the wizard and the view read back. */
const PROFILE_COLUMNS = `id, username, "firstName", "lastName", "fullName", email, phone, dob, gender, address, "avatarUrl", status,
  "companyId", "branchId", parents, "firstParent", siblings, "emergencyContact", "schoolId", "curriculumId", "levelId",
  subscribe, "payOnline", "references", "currentStep", "createdAt", "updatedAt"`;
type Profile = Record<string, unknown> & { id: string; status: string; currentStep: number | null };

/** A problem found against the database (a taken username, an unknown sibling…): 400 on one field. */
class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

const json = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));

async function lockProfile(tx: Queryable, id: string): Promise<Profile> {
  const { rows } = await tx.query<Profile>(
    `select ${PROFILE_COLUMNS} from users where id = $1 and type = 'student' and status <> 'deleted' for update`,
    [id],
  );
  if (!rows[0]) throw new FieldProblem("id", STUDENT_MESSAGES.notFound, 404);
  return rows[0];
}

async function checkUsername(tx: Queryable, name: string, exceptId: string | null) {
  const { rows } = await tx.query(`select 1 from users where lower(username) = lower($1) and ($2::uuid is null or id <> $2::uuid)`, [name, exceptId]);
  if (rows.length) throw new FieldProblem("username", "Username already exists.");
}

async function companyOfBranch(tx: Queryable, branchId: string): Promise<string | null> {
  const { rows } = await tx.query<{ companyId: string | null }>(`select "companyId" from branches where id = $1 and status <> 'deleted'`, [branchId]);
  if (!rows[0]) throw new FieldProblem("branchId", "Branch not found.");
  return rows[0].companyId;
}

/** Sibling ids → the snapshot kept on the profile ({id, firstName, lastName, username}), all of them existing students. */
async function siblingSnapshots(tx: Queryable, selfId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  if (unique.includes(selfId)) throw new FieldProblem("siblings", STUDENT_MESSAGES.siblingIsSelf);
  if (!unique.length) return [];
  const { rows } = await tx.query<{ id: string; firstName: string; lastName: string; username: string }>(
    `select id, "firstName", "lastName", username from users where id = any($1::uuid[]) and type = 'student' and status not in ('deleted', 'draft')`,
    [unique],
  );
  if (rows.length !== unique.length) throw new FieldProblem("siblings", STUDENT_MESSAGES.siblingNotFound);
  return unique.map((id) => rows.find((r) => r.id === id)!);
}

/**
 * Siblings are kept on both sides: the student lists them, and each of them lists the student.
 * Students no longer named lose the back link.
 */
async function linkSiblings(tx: Queryable, self: { id: string; firstName: unknown; lastName: unknown; username: unknown }, siblings: { id: string }[], userId: string | null) {
  const ids = siblings.map((s) => s.id);
  await tx.query(
    `update users set siblings = (select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(siblings) e where e->>'id' <> $1::text), "updatedBy" = $3
     where type = 'student' and siblings @> jsonb_build_array(jsonb_build_object('id', $1::text)) and not (id = any($2::uuid[]))`,
    [self.id, ids, userId],
  );
  if (!ids.length) return;
  const me = { id: self.id, firstName: self.firstName, lastName: self.lastName, username: self.username };
  await tx.query(
    `update users set siblings = (select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(siblings) e where e->>'id' <> $1::text) || jsonb_build_array($3::jsonb),
       "updatedBy" = $4
     where id = any($2::uuid[])`,
    [self.id, ids, JSON.stringify(me), userId],
  );
}

async function checkStudentInfo(tx: Queryable, d: { schoolId?: string; curriculumId?: string; levelId?: string; references?: { discountCode: string }[] }) {
  if (d.schoolId) {
    const { rows } = await tx.query(`select 1 from schools where id = $1 and status <> 'deleted'`, [d.schoolId]);
    if (!rows.length) throw new FieldProblem("schoolId", "School not found.");
  }
  if (d.curriculumId && d.levelId) {
    const { rows } = await tx.query(`select 1 from curriculums_levels where "curriculumId" = $1 and "levelId" = $2 and status <> 'deleted'`, [d.curriculumId, d.levelId]);
    if (!rows.length) throw new FieldProblem("levelId", STUDENT_MESSAGES.levelNotInCurriculum);
  }
  for (const [i, ref] of (d.references ?? []).entries()) {
    const { rows } = await tx.query(`select 1 from discounts where lower(code) = lower($1) and status <> 'deleted'`, [ref.discountCode]);
    if (!rows.length) throw new FieldProblem(`references.${i}.discountCode`, STUDENT_MESSAGES.unknownDiscountCode);
  }
}

/** An UPDATE of the given columns (names from this file only, never from the caller) returning the profile. */
async function writeProfile(tx: Queryable, id: string, set: Record<string, unknown>): Promise<Profile> {
  const keys = Object.keys(set).filter((k) => set[k] !== undefined);
  const { rows } = await tx.query<Profile>(
    `update users set ${keys.map((k, i) => `"${k}" = $${i + 2}`).join(", ")} where id = $1 returning ${PROFILE_COLUMNS}`,
    [id, ...keys.map((k) => set[k])],
  );
  return rows[0]!;
}

const familyColumns = (parents: { primaryContact: boolean }[], emergencyContact: unknown) => ({
  parents: json(parents),
  firstParent: json(parents.find((p) => p.primaryContact) ?? null),
  emergencyContact: json(emergencyContact),
});

export const studentProfileRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const { db } = ctx;
  const media = mediaFor(ctx);

  /** Runs one call's transaction; a FieldProblem rolls it back and answers 400/404 on its field. */
  async function run<T>(reply: FastifyReply, work: (tx: Queryable) => Promise<T>, status = 200) {
    try {
      const data = await db.transaction(work);
      return reply.code(status).send({ success: true, data });
    } catch (e) {
      if (e instanceof FieldProblem) return reply.code(e.statusCode).send({ success: false, message: e.message, errors: { [e.field]: e.message } });
      throw e;
    }
  }

  app.post("/student-profiles/init", async (request, reply) => {
    const body = initBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const { id, ...d } = body.data;
    const userId = request.session!.userId ?? null;
    return run(reply, async (tx) => {
      const existing = id ? await lockProfile(tx, id) : undefined;
      await checkUsername(tx, d.username, existing?.id ?? null);
      const companyId = await companyOfBranch(tx, d.branchId);
      const set = {
        username: d.username, firstName: d.firstName, lastName: d.lastName, email: d.email ?? null, phone: d.phone ? json(d.phone) : null,
        dob: d.dob ?? null, gender: d.gender ?? null, address: d.address ?? null, branchId: d.branchId, companyId, updatedBy: userId,
      };
      if (existing) return writeProfile(tx, existing.id, { ...set, currentStep: Math.max(existing.currentStep ?? 0, 1) });
      const { rows } = await tx.query<{ id: string }>(
        `insert into users (username, type, role, "multipleRoles", status, "currentStep", "createdBy") values ($1, 'student', 'student', '["student"]', 'draft', 1, $2) returning id`,
        [d.username, userId],
      );
      return writeProfile(tx, rows[0]!.id, set);
    }, id ? 200 : 201);
  });

  app.post("/student-profiles/step-family-information", async (request, reply) => {
    const body = familyBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const d = body.data;
    const userId = request.session!.userId ?? null;
    return run(reply, async (tx) => {
      const profile = await lockProfile(tx, d.id);
      const siblings = await siblingSnapshots(tx, profile.id, d.siblings);
      await linkSiblings(tx, profile as Profile & { firstName: unknown; lastName: unknown; username: unknown }, siblings, userId);
      return writeProfile(tx, profile.id, {
        ...familyColumns(d.parents, d.emergencyContact),
        siblings: json(siblings),
        currentStep: Math.max(profile.currentStep ?? 0, 2),
        updatedBy: userId,
      });
    });
  });

  app.post("/student-profiles/step-student-information", async (request, reply) => {
    const body = studentBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const d = body.data;
    const userId = request.session!.userId ?? null;
    return run(reply, async (tx) => {
      const profile = await lockProfile(tx, d.id);
      if ((profile.currentStep ?? 0) < 2) throw new FieldProblem("id", STUDENT_MESSAGES.stepOrder);
      await checkStudentInfo(tx, d);
      return writeProfile(tx, profile.id, {
        schoolId: d.schoolId, curriculumId: d.curriculumId, levelId: d.levelId, levelIds: json([d.levelId]),
        subscribe: d.subscribe, payOnline: d.payOnline, references: json(d.references),
        currentStep: LAST_STUDENT_STEP,
        // Saving the last step completes a draft account.
        status: profile.status === "draft" ? "active" : profile.status,
        updatedBy: userId,
      });
    });
  });

  app.put("/student-profiles", async (request, reply) => {
    const body = updateBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const d = body.data as Record<string, any> & { id: string };
    const userId = request.session!.userId ?? null;
    return run(reply, async (tx) => {
      const profile = await lockProfile(tx, d.id);
      if (d.username) await checkUsername(tx, d.username, profile.id);
      const companyId = d.branchId ? await companyOfBranch(tx, d.branchId) : undefined;
      await checkStudentInfo(tx, { schoolId: d.schoolId, curriculumId: d.curriculumId ?? (d.levelId ? (profile.curriculumId as string) : undefined), levelId: d.levelId ?? (d.curriculumId ? (profile.levelId as string) : undefined), references: d.references });
      const set: Record<string, unknown> = { updatedBy: userId };
      for (const key of ["username", "firstName", "lastName", "email", "dob", "gender", "address", "branchId", "schoolId", "curriculumId", "levelId", "subscribe", "payOnline"]) {
        if (d[key] !== undefined) set[key] = d[key];
      }
      if (companyId !== undefined) set.companyId = companyId;
      if (d.phone !== undefined) set.phone = d.phone ? json(d.phone) : null;
      if (d.levelId) set.levelIds = json([d.levelId]);
      if (d.references) set.references = json(d.references);
      if (d.parents) Object.assign(set, familyColumns(d.parents, d.emergencyContact ?? profile.emergencyContact));
      else if (d.emergencyContact) set.emergencyContact = json(d.emergencyContact);
      // A draft stays a draft until its wizard is finished.
      if (d.status && profile.status !== "draft") set.status = d.status;
      const named = { ...profile, ...set } as Profile & { firstName: unknown; lastName: unknown; username: unknown };
      if (d.siblings) {
        const siblings = await siblingSnapshots(tx, profile.id, d.siblings);
        await linkSiblings(tx, named, siblings, userId);
        set.siblings = json(siblings);
      } else if (d.firstName || d.lastName || d.username) {
        // Keep the name shown on the siblings' side current.
        await linkSiblings(tx, named, (profile.siblings as { id: string }[]) ?? [], userId);
      }
      return writeProfile(tx, profile.id, set);
    });
  });

  app.patch<{ Params: { id: string } }>("/student-profiles/:id/avatar", async (request, reply) => {
    const params = z.object({ id: uuid }).safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const body = avatarBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    const key = keyPathOf(body.data.avatarUrl);
    if (!/\.(gif|jpe?g|png)$/i.test(key)) {
      return reply.code(400).send({ success: false, message: STUDENT_MESSAGES.avatarType, errors: { avatarUrl: STUDENT_MESSAGES.avatarType } });
    }
    // Only an image our media store holds (its upload already enforced type and size).
    const stored = await storedType(media, key);
    if (!stored) return reply.code(400).send({ success: false, message: STUDENT_MESSAGES.avatarMissing, errors: { avatarUrl: STUDENT_MESSAGES.avatarMissing } });
    return run(reply, async (tx) => {
      const profile = await lockProfile(tx, params.data.id);
      return writeProfile(tx, profile.id, { avatarUrl: body.data.avatarUrl, updatedBy: request.session!.userId ?? null });
    });
  });

  app.delete<{ Params: { id: string } }>("/student-profiles/:id", async (request, reply) => {
    const params = z.object({ id: uuid }).safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const userId = request.session!.userId ?? null;
    return run(reply, async (tx) => {
      const profile = await lockProfile(tx, params.data.id);
      const { rows } = await tx.query<{ unpaid: boolean; enrolled: boolean }>(
        `select exists (select 1 from payment_advices where "studentId" = $1 and status <> 'deleted' and "paymentStatus" = any($2::text[])) as unpaid,
                exists (select 1 from student_classes where "userId" = $1 and status = any($3::text[])) as enrolled`,
        [profile.id, UNPAID_PA_STATUSES, ACTIVE_ENROLMENT_STATUSES],
      );
      if (rows[0]!.unpaid) throw new FieldProblem("id", STUDENT_MESSAGES.hasUnpaidPa, 409);
      if (rows[0]!.enrolled) throw new FieldProblem("id", STUDENT_MESSAGES.hasActiveEnrolment, 409);
      await linkSiblings(tx, profile as Profile & { firstName: unknown; lastName: unknown; username: unknown }, [], userId);
      await tx.query(`update users set status = 'deleted', "updatedBy" = $2 where id = $1`, [profile.id, userId]);
      return { id: profile.id };
    });
  });
};
