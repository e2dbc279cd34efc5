/**
 * Classes and their lessons (issue 13): create a class with the lessons generated from its academic
 * calendar (src/domain/lessonSchedule), add a lesson, cancel a lesson. Each call is one transaction; a
 * classroom or tutor already booked at an overlapping time is refused with a message naming the clash.
 */
import { randomUUID } from "node:crypto";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/index.ts";
import { generateLessonSchedule, type LessonFrequency } from "../../src/domain/lessonSchedule.ts";
import { CLASS_TIERS, NEW_CLASS_DEFAULTS, SEAT_STATUSES } from "../../src/domain/attendance.ts";
import { formatInSingapore, singaporeWallTimeToIso } from "../../src/domain/dates.ts";
import { uuid, validationError } from "./validation.ts";

export const CLASS_MESSAGES = {
  notFound: "Class not found.",
  lessonNotFound: "Lesson not found.",
  calendarNotFound: "Academic calendar not found.",
  programNotFound: "Programme not found.",
  classroomNotFound: "Classroom not found.",
  noLessons: "No lesson could be generated: check the start date, the terms and their number of lessons.",
  closed: "This class is closed.",
  alreadyCancelled: "This lesson is already cancelled.",
  sessionOrder: "The end time must be after the start time.",
  required: "This field is required.",
} as const;

export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use the format YYYY-MM-DD.");
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use the format HH:mm.");
const session = z
  .object({ startTime: hhmm, endTime: hhmm })
  .refine((s) => s.startTime < s.endTime, { message: CLASS_MESSAGES.sessionOrder, path: ["endTime"] });

const createBody = z.object({
  name: z.string().trim().min(1, CLASS_MESSAGES.required).max(200),
  classCode: z.string().trim().max(100).nullable().optional(),
  programId: uuid(),
  programTypeId: uuid().nullable().optional(),
  academicCalendarId: uuid(),
  /** Terms of the calendar to generate lessons for; default every term of the calendar. */
  termIds: z.array(uuid()).max(50).optional(),
  branchId: uuid(),
  classroomId: uuid(),
  tutorIds: z.array(uuid()).min(1, "Please select tutors!").max(20),
  classTier: z.enum(CLASS_TIERS).nullable().optional(),
  lessonType: z.enum(["regular", "double_lesson", "special", "others"]).default(NEW_CLASS_DEFAULTS.lessonType),
  classSize: z.number().int().min(1).max(1000).default(NEW_CLASS_DEFAULTS.classSize),
  totalLoop: z.number().int().min(1).max(100).default(NEW_CLASS_DEFAULTS.totalLoop),
  classStatus: z.enum(["new", "open", "closed"]).default(NEW_CLASS_DEFAULTS.classStatus),
  /** The first lesson day. */
  startDate: day,
  sessions: z.array(session).min(1, "Add at least one session.").max(5),
  /** custom calendars: the lesson days. */
  customDates: z.array(day).max(400).optional(),
  remark: z.string().max(2000).nullable().optional(),
});

const lessonBody = z.object({
  date: day,
  classroomId: uuid().optional(),
  tutorIds: z.array(uuid()).min(1).max(20).optional(),
  sessions: z.array(session).min(1, "Add at least one session.").max(5),
});

interface PlannedSession {
  lessonId: string;
  date: string;
  start: string;
  end: string;
}

/**
 * The first booking that clashes with the planned sessions: the same classroom or one of the tutors in an
 * active session of an active lesson at an overlapping time. Null when free.
 */
export async function findClash(db: Queryable, planned: PlannedSession[], classroomId: string, tutorIds: string[]): Promise<string | null> {
  if (!planned.length) return null;
  const { rows } = await db.query<{ date: string; startTime: string; endTime: string; className: string; roomName: string | null; sameRoom: boolean; tutorName: string | null }>(
    `select l.date::text as date, s."startTime", s."endTime", c.name as "className", cr.name as "roomName",
       (l."classroomId" = $2::uuid) as "sameRoom",
       (select u."fullName" from users u where u.id::text = any($3::text[]) and s."tutorIds" ? u.id::text order by u."fullName" limit 1) as "tutorName"
     from jsonb_to_recordset($1::jsonb) as p("start" timestamptz, "end" timestamptz)
     join lesson_sessions s on s.status = 'active' and s."startTime" < p."end" and p."start" < s."endTime"
     join lessons l on l.id = s."lessonId" and l.status = 'active' and l."lessonStatus" = 'active'
     join classes c on c.id = l."classId" and c.status = 'active'
     left join classrooms cr on cr.id = l."classroomId"
     where l."classroomId" = $2::uuid or s."tutorIds" ?| $3::text[]
     order by s."startTime" limit 1`,
    [JSON.stringify(planned.map((p) => ({ start: p.start, end: p.end }))), classroomId, tutorIds],
  );
  const clash = rows[0];
  if (!clash) return null;
  const when = `${formatInSingapore(clash.startTime, "DD/MM/YYYY HH:mm")}–${formatInSingapore(clash.endTime, "HH:mm")}`;
  return clash.sameRoom
    ? `The classroom ${clash.roomName ?? ""} is already booked on ${when} by ${clash.className}.`
    : `The tutor ${clash.tutorName ?? ""} already teaches ${clash.className} on ${when}.`;
}

function plan(lessons: { id: string; date: string }[], sessions: { startTime: string; endTime: string }[]): PlannedSession[] {
  return lessons.flatMap((l) =>
    sessions.map((s) => ({ lessonId: l.id, date: l.date, start: singaporeWallTimeToIso(l.date, `${s.startTime}:00`)!, end: singaporeWallTimeToIso(l.date, `${s.endTime}:00`)! })),
  );
}

async function insertLessons(
  tx: Queryable,
  classId: string,
  classroomId: string,
  tutorIds: string[],
  lessons: { id: string; date: string; termId: string | null; numberWeek: number }[],
  planned: PlannedSession[],
  by: string | null,
) {
  await tx.query(
    `insert into lessons (id, "classId", "termId", date, "numberWeek", "orderPriority", "classroomId", "createdBy", "updatedBy")
     select x.id, $2, x."termId", x.date, x."numberWeek", x."numberWeek", $3, $4, $4
     from jsonb_to_recordset($1::jsonb) as x(id uuid, "termId" uuid, date date, "numberWeek" int)`,
    [JSON.stringify(lessons), classId, classroomId, by],
  );
  await tx.query(
    `insert into lesson_sessions ("lessonId", "startTime", "endTime", "tutorIds", "createdBy", "updatedBy")
     select x."lessonId", x.start, x."end", $2::jsonb, $3, $3
     from jsonb_to_recordset($1::jsonb) as x("lessonId" uuid, start timestamptz, "end" timestamptz)`,
    [JSON.stringify(planned), JSON.stringify(tutorIds), by],
  );
}

const fail = (reply: FastifyReply, code: number, message: string) => reply.code(code).send({ success: false, message });

export const classesRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const { db } = ctx;

  // Create a class with its generated lessons.
  app.post("/classes", async (request, reply) => {
    const parsed = createBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const b = parsed.data;
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx) => {
      const program = (await tx.query<{ companyId: string | null; category: string; programTypeId: string | null }>(
        `select "companyId", category, "programTypeId" from programs where id = $1 and status = 'active'`, [b.programId])).rows[0];
      if (!program) return { code: 400, message: CLASS_MESSAGES.programNotFound };
      const calendar = (await tx.query<{ category: LessonFrequency; companyId: string | null }>(
        `select category, "companyId" from academic_calendars where id = $1 and status = 'active'`, [b.academicCalendarId])).rows[0];
      if (!calendar) return { code: 400, message: CLASS_MESSAGES.calendarNotFound };
      const room = (await tx.query(`select id from classrooms where id = $1 and "branchId" = $2 and status = 'active'`, [b.classroomId, b.branchId])).rows[0];
      if (!room) return { code: 400, message: CLASS_MESSAGES.classroomNotFound };
      const terms = (await tx.query<{ id: string; startDate: string; endDate: string; numberOfLessons: number }>(
        `select id, "startDate"::text as "startDate", "endDate"::text as "endDate", "numberOfLessons" from terms
         where "academicCalendarId" = $1 and status = 'active' and ($2::uuid[] is null or id = any($2::uuid[]))`,
        [b.academicCalendarId, b.termIds?.length ? b.termIds : null])).rows;
      const holidays = (await tx.query<{ date: string }>(
        `select date::text as date from holidays where status = 'active' and ("companyId" is null or "companyId" = $1::uuid)`,
        [program.companyId])).rows.map((h) => h.date);
      const schedule = generateLessonSchedule({ frequency: calendar.category, firstDate: b.startDate, terms, holidays, customDates: b.customDates });
      if (!schedule.lessons.length) return { code: 400, message: CLASS_MESSAGES.noLessons };
      const lessons = schedule.lessons.map((l) => ({ id: randomUUID(), date: l.date, termId: l.termId, numberWeek: l.numberWeek }));
      const planned = plan(lessons, b.sessions);
      const clash = await findClash(tx, planned, b.classroomId, b.tutorIds);
      if (clash) return { code: 409, message: clash };
      const classId = randomUUID();
      await tx.query(
        `insert into classes (id, name, "classCode", "classStatus", "classType", "classTier", "lessonType", year, "startDate", "endDate", remark, "totalLoop",
           "classSize", "companyId", "branchId", "programId", "programTypeId", "academicCalendarId", "tutorIds", "createdBy", "updatedBy")
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19::jsonb, $20, $20)`,
        [classId, b.name, b.classCode ?? null, b.classStatus, program.category, b.classTier ?? null, b.lessonType, Number(lessons[0]!.date.slice(0, 4)),
          lessons[0]!.date, lessons[lessons.length - 1]!.date, b.remark ?? null, b.totalLoop, b.classSize, program.companyId, b.branchId, b.programId,
          b.programTypeId ?? program.programTypeId, b.academicCalendarId, JSON.stringify(b.tutorIds), by],
      );
      await insertLessons(tx, classId, b.classroomId, b.tutorIds, lessons, planned, by);
      return { data: { id: classId, lessons: lessons.length, shortfalls: schedule.shortfalls } };
    });
    if ("code" in result) return fail(reply, result.code!, result.message!);
    return reply.code(201).send({ success: true, data: result.data });
  });

  // Add one lesson to a class (/class/management/{classId}/view/lesson-create); its enrolled students join it.
  app.post<{ Params: { classId: string } }>("/classes/:classId/lessons", async (request, reply) => {
    const id = uuid().safeParse(request.params.classId);
    if (!id.success) return fail(reply, 404, CLASS_MESSAGES.notFound);
    const parsed = lessonBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const b = parsed.data;
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx) => {
      const cls = (await tx.query<{ classStatus: string; tutorIds: string[]; academicCalendarId: string | null; branchId: string | null }>(
        `select "classStatus", "tutorIds", "academicCalendarId", "branchId" from classes where id = $1 and status = 'active' for update`, [id.data])).rows[0];
      if (!cls) return { code: 404, message: CLASS_MESSAGES.notFound };
      if (cls.classStatus === "closed") return { code: 400, message: CLASS_MESSAGES.closed };
      const roomId = b.classroomId ?? (await tx.query<{ classroomId: string }>(
        `select "classroomId" from lessons where "classId" = $1 and status = 'active' and "classroomId" is not null order by date desc limit 1`, [id.data])).rows[0]?.classroomId;
      if (!roomId) return { code: 400, message: CLASS_MESSAGES.classroomNotFound };
      const tutors = b.tutorIds ?? cls.tutorIds;
      const term = (await tx.query<{ id: string }>(
        `select id from terms where "academicCalendarId" = $1 and status = 'active' and $2::date between "startDate" and "endDate" limit 1`,
        [cls.academicCalendarId, b.date])).rows[0];
      const { rows: nw } = await tx.query<{ n: number }>(
        `select count(*)::int + 1 as n from lessons where "classId" = $1 and status = 'active' and date < $2::date`, [id.data, b.date]);
      const lesson = { id: randomUUID(), date: b.date, termId: term?.id ?? null, numberWeek: nw[0]!.n };
      const planned = plan([lesson], b.sessions);
      const clash = await findClash(tx, planned, roomId, tutors);
      if (clash) return { code: 409, message: clash };
      await insertLessons(tx, id.data, roomId, tutors, [lesson], planned, by);
      const joined = await tx.query(
        `insert into lessons_students ("lessonId", "studentId", "studentClassId", type, "createdBy", "updatedBy")
         select $1, sc."userId", sc.id, case when sc.status = 'transferred' then 'transferred' else 'enrolled' end, $4, $4
         from student_classes sc
         where sc."classId" = $2 and sc.status = any($3::text[]) and (sc."lessonStartDate" is null or sc."lessonStartDate" <= $5::date)`,
        [lesson.id, id.data, [...SEAT_STATUSES], by, b.date],
      );
      return { data: { id: lesson.id, students: joined.rowCount } };
    });
    if ("code" in result) return fail(reply, result.code!, result.message!);
    return reply.code(201).send({ success: true, data: result.data });
  });

  // Cancel a lesson: status cancel; its lesson-students follow (soft-deleted, so they count nowhere).
  app.patch<{ Params: { lessonId: string } }>("/classes/lessons/:lessonId/cancel", async (request, reply) => {
    const id = uuid().safeParse(request.params.lessonId);
    if (!id.success) return fail(reply, 404, CLASS_MESSAGES.lessonNotFound);
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx) => {
      const lesson = (await tx.query<{ lessonStatus: string }>(`select "lessonStatus" from lessons where id = $1 and status = 'active' for update`, [id.data])).rows[0];
      if (!lesson || lesson.lessonStatus === "deleted") return { code: 404, message: CLASS_MESSAGES.lessonNotFound };
      if (lesson.lessonStatus === "cancel") return { code: 400, message: CLASS_MESSAGES.alreadyCancelled };
      await tx.query(`update lessons set "lessonStatus" = 'cancel', "updatedBy" = $2 where id = $1`, [id.data, by]);
      const students = await tx.query(`update lessons_students set status = 'deleted', "updatedBy" = $2 where "lessonId" = $1 and status <> 'deleted'`, [id.data, by]);
      return { data: { id: id.data, lessonStatus: "cancel", students: students.rowCount } };
    });
    if ("code" in result) return fail(reply, result.code!, result.message!);
    return reply.send({ success: true, data: result.data });
  });
};
