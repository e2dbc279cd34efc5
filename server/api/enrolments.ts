/**
 * Enrolment actions of the class view (issue 13; spec part 1 §3–4): enrol (also enroll_last_partial),
 * transfer requests (pending → completed / rejected / cancelled) and one-lesson replacements. Each call is
 * one transaction; the class row (or the lesson row) is locked first, so two enrolments can never both take
 * the last seat.
 */
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/index.ts";
import { ATTENDANCE_EXCLUDED_TYPES, SEAT_STATUSES } from "../../src/domain/attendance.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { uuid, validationError } from "./validation.ts";
import { CLASS_MESSAGES, day } from "./classes.ts";

export const ENROLMENT_MESSAGES = {
  studentNotFound: "Student not found.",
  alreadyEnrolled: "The student is already enrolled in this class.",
  notEnrolled: "The student is not enrolled in this class.",
  full: (size: number) => `The class is full (${size} of ${size} seats taken).`,
  lessonFull: (size: number) => `The lesson is full (${size} of ${size} seats taken).`,
  sameClass: "Choose another class to transfer to.",
  pendingExists: "A transfer request of this student from this class is already pending.",
  requestNotFound: "Transfer request not found.",
  notPending: "Only a pending transfer request can be changed.",
  startDateRequired: "Please input lesson start date!",
  notReplaceable: "Only an enrolled or transferred student's lesson can be replaced.",
  sameLesson: "Choose another lesson for the replacement.",
  alreadyInLesson: "The student already attends that lesson.",
} as const;

const enrolBody = z.object({
  studentId: uuid(),
  lessonStartDate: day.optional(),
  action: z.enum(["enroll_last_partial"]).optional(),
});
const transferBody = z.object({ studentId: uuid(), fromClassId: uuid(), toClassId: uuid(), lessonStartDate: day, reason: z.string().max(2000).nullable().optional() });
const transferStatusBody = z.object({ transferClassStatus: z.enum(["completed", "rejected", "cancelled"]) });
const replaceBody = z.object({ lessonStudentId: uuid(), toLessonId: uuid() });

type Outcome<T> = { code: number; message: string } | { data: T };
const fail = (reply: FastifyReply, code: number, message: string) => reply.code(code).send({ success: false, message });
const send = <T>(reply: FastifyReply, r: Outcome<T>, status = 200) =>
  "code" in r ? fail(reply, r.code, r.message) : reply.code(status).send({ success: true, data: r.data });

interface LockedClass {
  classStatus: string;
  classSize: number;
  seats: number;
}

/** Locks the class row and counts its seats; null when there is no such class. */
async function lockClass(tx: Queryable, classId: string): Promise<LockedClass | null> {
  const cls = (await tx.query<{ classStatus: string; classSize: number }>(
    `select "classStatus", "classSize" from classes where id = $1 and status = 'active' for update`, [classId])).rows[0];
  if (!cls) return null;
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from student_classes where "classId" = $1 and status = any($2::text[])`, [classId, [...SEAT_STATUSES]]);
  return { ...cls, seats: rows[0]!.n };
}

/** Enrols a student from a lesson day: the enrolment and a lesson-student row for each active lesson from that day. */
async function enrolFrom(tx: Queryable, args: { classId: string; studentId: string; start: string; status: string; type: string; action: string | null; by: string | null; lessonType: string }) {
  const terms = await tx.query<{ termId: string }>(
    `select distinct "termId" from lessons where "classId" = $1 and status = 'active' and "lessonStatus" = 'active' and date >= $2::date and "termId" is not null`,
    [args.classId, args.start]);
  const { rows } = await tx.query<{ id: string }>(
    `insert into student_classes ("userId", "classId", status, type, action, "termsRef", "lessonStartDate", "createdBy", "updatedBy")
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $8) returning id`,
    [args.studentId, args.classId, args.status, args.type, args.action, JSON.stringify(terms.rows.map((t) => t.termId)), args.start, args.by]);
  const enrolmentId = rows[0]!.id;
  const lessons = await tx.query(
    `insert into lessons_students ("lessonId", "studentId", "studentClassId", type, "createdBy", "updatedBy")
     select l.id, $2, $3, $5, $6, $6 from lessons l
     where l."classId" = $1 and l.status = 'active' and l."lessonStatus" = 'active' and l.date >= $4::date`,
    [args.classId, args.studentId, enrolmentId, args.start, args.lessonType, args.by]);
  return { id: enrolmentId, lessons: lessons.rowCount };
}

/** The class's first active lesson from today (else its first lesson): where an enrolment starts by default. */
async function defaultStart(tx: Queryable, classId: string): Promise<string | null> {
  const { rows } = await tx.query<{ date: string | null }>(
    `select coalesce(
       (select min(date) from lessons where "classId" = $1 and status = 'active' and "lessonStatus" = 'active' and date >= $2::date),
       (select min(date) from lessons where "classId" = $1 and status = 'active' and "lessonStatus" = 'active'))::text as date`,
    [classId, todayInSingapore()]);
  return rows[0]?.date ?? null;
}

export const enrolmentRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const { db } = ctx;

  app.post<{ Params: { classId: string } }>("/classes/:classId/enrolments", async (request, reply) => {
    const classId = uuid().safeParse(request.params.classId);
    if (!classId.success) return fail(reply, 404, CLASS_MESSAGES.notFound);
    const parsed = enrolBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const b = parsed.data;
    if (b.action === "enroll_last_partial" && !b.lessonStartDate) return reply.code(400).send({ success: false, message: ENROLMENT_MESSAGES.startDateRequired, errors: { lessonStartDate: ENROLMENT_MESSAGES.startDateRequired } });
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx): Promise<Outcome<unknown>> => {
      const cls = await lockClass(tx, classId.data);
      if (!cls) return { code: 404, message: CLASS_MESSAGES.notFound };
      if (cls.classStatus === "closed") return { code: 400, message: CLASS_MESSAGES.closed };
      const student = (await tx.query(`select id from users where id = $1 and type = 'student' and status = 'active'`, [b.studentId])).rows[0];
      if (!student) return { code: 400, message: ENROLMENT_MESSAGES.studentNotFound };
      const already = (await tx.query(`select 1 from student_classes where "classId" = $1 and "userId" = $2 and status = any($3::text[])`,
        [classId.data, b.studentId, [...SEAT_STATUSES]])).rows[0];
      if (already) return { code: 400, message: ENROLMENT_MESSAGES.alreadyEnrolled };
      if (cls.seats >= cls.classSize) return { code: 409, message: ENROLMENT_MESSAGES.full(cls.classSize) };
      const start = b.lessonStartDate ?? (await defaultStart(tx, classId.data)) ?? todayInSingapore();
      const data = await enrolFrom(tx, { classId: classId.data, studentId: b.studentId, start, status: "enrolled", type: "enrollment", action: b.action ?? null, by, lessonType: "enrolled" });
      return { data };
    });
    return send(reply, result, 201);
  });

  // A transfer request starts pending; completing it moves the student's lessons from its start day.
  app.post("/classes/transfers", async (request, reply) => {
    const parsed = transferBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const b = parsed.data;
    if (b.fromClassId === b.toClassId) return reply.code(400).send({ success: false, message: ENROLMENT_MESSAGES.sameClass, errors: { toClassId: ENROLMENT_MESSAGES.sameClass } });
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx): Promise<Outcome<unknown>> => {
      const enrolment = (await tx.query(`select id from student_classes where "classId" = $1 and "userId" = $2 and status = any($3::text[]) for update`,
        [b.fromClassId, b.studentId, [...SEAT_STATUSES]])).rows[0];
      if (!enrolment) return { code: 400, message: ENROLMENT_MESSAGES.notEnrolled };
      const to = (await tx.query<{ classStatus: string }>(`select "classStatus" from classes where id = $1 and status = 'active'`, [b.toClassId])).rows[0];
      if (!to) return { code: 404, message: CLASS_MESSAGES.notFound };
      if (to.classStatus === "closed") return { code: 400, message: CLASS_MESSAGES.closed };
      const pending = (await tx.query(`select 1 from request_transfer_classes where "studentId" = $1 and "fromClassId" = $2 and "transferClassStatus" = 'pending' and status = 'active'`,
        [b.studentId, b.fromClassId])).rows[0];
      if (pending) return { code: 409, message: ENROLMENT_MESSAGES.pendingExists };
      const { rows } = await tx.query<{ id: string }>(
        `insert into request_transfer_classes ("studentId", "fromClassId", "toClassId", "lessonStartDate", reason, "createdBy", "updatedBy")
         values ($1, $2, $3, $4, $5, $6, $6) returning id`,
        [b.studentId, b.fromClassId, b.toClassId, b.lessonStartDate, b.reason ?? null, by]);
      return { data: { id: rows[0]!.id, transferClassStatus: "pending" } };
    });
    return send(reply, result, 201);
  });

  app.patch<{ Params: { id: string } }>("/classes/transfers/:id", async (request, reply) => {
    const id = uuid().safeParse(request.params.id);
    if (!id.success) return fail(reply, 404, ENROLMENT_MESSAGES.requestNotFound);
    const parsed = transferStatusBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const next = parsed.data.transferClassStatus;
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx): Promise<Outcome<unknown>> => {
      const req = (await tx.query<{ studentId: string; fromClassId: string; toClassId: string; lessonStartDate: string | null; transferClassStatus: string }>(
        `select "studentId", "fromClassId", "toClassId", "lessonStartDate"::text as "lessonStartDate", "transferClassStatus"
         from request_transfer_classes where id = $1 and status = 'active' for update`, [id.data])).rows[0];
      if (!req) return { code: 404, message: ENROLMENT_MESSAGES.requestNotFound };
      if (req.transferClassStatus !== "pending") return { code: 409, message: ENROLMENT_MESSAGES.notPending };
      if (next === "completed") {
        const to = await lockClass(tx, req.toClassId);
        if (!to) return { code: 404, message: CLASS_MESSAGES.notFound };
        if (to.classStatus === "closed") return { code: 400, message: CLASS_MESSAGES.closed };
        if (to.seats >= to.classSize) return { code: 409, message: ENROLMENT_MESSAGES.full(to.classSize) };
        const old = (await tx.query<{ id: string }>(`select id from student_classes where "classId" = $1 and "userId" = $2 and status = any($3::text[]) for update`,
          [req.fromClassId, req.studentId, [...SEAT_STATUSES]])).rows[0];
        if (!old) return { code: 400, message: ENROLMENT_MESSAGES.notEnrolled };
        const start = req.lessonStartDate ?? (await defaultStart(tx, req.toClassId)) ?? todayInSingapore();
        await tx.query(`update student_classes set status = 'has_been_transferred', "endDate" = $2::date - 1, "updatedBy" = $3 where id = $1`, [old.id, start, by]);
        await tx.query(
          `update lessons_students ls set type = 'has_been_transferred', "updatedBy" = $3
           from lessons l where l.id = ls."lessonId" and ls."studentClassId" = $1 and l.date >= $2::date and ls.type <> all($4::text[])`,
          [old.id, start, by, [...ATTENDANCE_EXCLUDED_TYPES]]);
        await enrolFrom(tx, { classId: req.toClassId, studentId: req.studentId, start, status: "transferred", type: "transferred", action: "transfer", by, lessonType: "transferred" });
      }
      await tx.query(`update request_transfer_classes set "transferClassStatus" = $2, "updatedBy" = $3 where id = $1`, [id.data, next, by]);
      return { data: { id: id.data, transferClassStatus: next } };
    });
    return send(reply, result);
  });

  // Replace one lesson: the student attends another lesson (of this or another class) instead.
  app.post("/classes/replacements", async (request, reply) => {
    const parsed = replaceBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const b = parsed.data;
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx): Promise<Outcome<unknown>> => {
      const ls = (await tx.query<{ lessonId: string; studentId: string; studentClassId: string | null; type: string; status: string }>(
        `select "lessonId", "studentId", "studentClassId", type, status from lessons_students where id = $1 for update`, [b.lessonStudentId])).rows[0];
      if (!ls || ls.status === "deleted") return { code: 404, message: CLASS_MESSAGES.lessonNotFound };
      if (!["enrolled", "transferred"].includes(ls.type)) return { code: 400, message: ENROLMENT_MESSAGES.notReplaceable };
      if (ls.lessonId === b.toLessonId) return { code: 400, message: ENROLMENT_MESSAGES.sameLesson };
      const target = (await tx.query<{ classSize: number }>(
        `select c."classSize" from lessons l join classes c on c.id = l."classId"
         where l.id = $1 and l.status = 'active' and l."lessonStatus" = 'active' and c.status = 'active' for update of l`, [b.toLessonId])).rows[0];
      if (!target) return { code: 404, message: CLASS_MESSAGES.lessonNotFound };
      const { rows: occ } = await tx.query<{ n: number; mine: number }>(
        `select count(*)::int as n, count(*) filter (where "studentId" = $3)::int as mine from lessons_students
         where "lessonId" = $1 and status <> 'deleted' and type <> all($2::text[])`,
        [b.toLessonId, [...ATTENDANCE_EXCLUDED_TYPES], ls.studentId]);
      if (occ[0]!.mine > 0) return { code: 400, message: ENROLMENT_MESSAGES.alreadyInLesson };
      if (occ[0]!.n >= target.classSize) return { code: 409, message: ENROLMENT_MESSAGES.lessonFull(target.classSize) };
      await tx.query(`update lessons_students set type = 'has_been_replaced', "updatedBy" = $2 where id = $1`, [b.lessonStudentId, by]);
      const { rows } = await tx.query<{ id: string }>(
        `insert into lessons_students ("lessonId", "studentId", "studentClassId", type, "oldLessonId", "createdBy", "updatedBy")
         values ($1, $2, $3, 'replacement', $4, $5, $5) returning id`,
        [b.toLessonId, ls.studentId, ls.studentClassId, ls.lessonId, by]);
      return { data: { id: rows[0]!.id, replacedId: b.lessonStudentId } };
    });
    return send(reply, result, 201);
  });
};
