/**
 * Attendance (issue 13): marking a lesson's students (one transaction: the lesson-students, one
 * backup_attendance_logs row per change, and the three-times-absent notice with the parents' e-mail in the
 * outbox, once per streak of absences), and the gantry records (GET /users/gantry-records).
 *
 * Who may mark which lesson is the access policy's row rule on lessons (tutors: the lessons they teach):
 * the lesson is looked up through the GraphQL engine under the caller's session, so the REST call obeys the
 * same `data:` lines as the pages' queries.
 */
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/index.ts";
import type { Engine } from "../graphql/index.ts";
import type { Session } from "../auth/types.ts";
import { emailMessage, enqueueMessages } from "../mail/outbox.ts";
import { html, mailBody } from "../mail/template.ts";
import { absenceStreak, ATTENDANCE_EXCLUDED_TYPES, type AttendanceMark } from "../../src/domain/attendance.ts";
import { formatDay, singaporeWallTimeToIso, todayInSingapore } from "../../src/domain/dates.ts";
import { uuid, validationError } from "./validation.ts";
import { CLASS_MESSAGES, day } from "./classes.ts";

export const ATTENDANCE_MESSAGES = {
  cancelled: "This lesson is cancelled.",
  notInLesson: "This student is not in the lesson.",
  notMarkable: "Withdrawn or suspended students cannot be marked.",
} as const;

const markBody = z.object({
  students: z
    .array(
      z.object({
        id: uuid(),
        hasAttended: z.boolean(),
        entryTime: z.iso.datetime({ offset: true, message: "Invalid entry time." }).nullable().optional(),
        remarks: z.string().max(1000).nullable().optional(),
      }),
    )
    .min(1)
    .max(500),
});

const gantryQuery = z.object({
  from: day.optional(),
  to: day.optional(),
  branchId: uuid().optional(),
  studentId: uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

const fail = (reply: FastifyReply, code: number, message: string) => reply.code(code).send({ success: false, message });

/** True when the caller's access policy lets them read this lesson (tutors: only the lessons they teach). */
async function canSeeLesson(engine: Engine, session: Session, lessonId: string): Promise<boolean> {
  const { body } = await engine.execute({ query: "query($id: uuid!) { lessons_by_pk(id: $id) { id } }", variables: { id: lessonId } }, session);
  return Boolean((body as { data?: { lessons_by_pk?: { id: string } | null } }).data?.lessons_by_pk);
}

interface LessonStudentRow {
  id: string;
  studentId: string;
  type: string;
  status: string;
  hasAttended: boolean;
  entryTime: string | null;
  remarks: string | null;
}

const snapshot = (r: Pick<LessonStudentRow, "status" | "hasAttended" | "entryTime" | "remarks">) => ({
  status: r.status, hasAttended: r.hasAttended, entryTime: r.entryTime, remarks: r.remarks,
});

/**
 * After a student is marked absent: when that absence completes a run of three, a three_times_absents row and
 * the parents' e-mail (outbox) — unless a notice already covers a day of the same run.
 */
async function noticeAbsences(tx: Queryable, classId: string, className: string, studentId: string, lessonDate: string, by: string | null): Promise<boolean> {
  const today = todayInSingapore();
  const { rows } = await tx.query<{ date: string; status: string; type: string; lessonStatus: string }>(
    `select l.date::text as date, ls.status, ls.type, l."lessonStatus" from lessons_students ls join lessons l on l.id = ls."lessonId"
     where ls."studentId" = $1 and l."classId" = $2 and l.status = 'active' and ls.status <> 'deleted'`, [studentId, classId]);
  const marks: AttendanceMark[] = rows.map((r) => ({
    date: r.date,
    state: r.lessonStatus !== "active" || (ATTENDANCE_EXCLUDED_TYPES as readonly string[]).includes(r.type) || r.date > today
      ? "other" : r.status === "attended" ? "present" : r.status === "not_attended" ? "absent" : "other",
  }));
  const run = absenceStreak(marks, lessonDate);
  if (!run) return false;
  const noticed = (await tx.query(
    `select 1 from three_times_absents where "classId" = $1 and "studentId" = $2 and status = 'active' and "absentDates" ?| $3::text[]`,
    [classId, studentId, run])).rows[0];
  if (noticed) return false;
  const student = (await tx.query<{ fullName: string | null; emails: string[] }>(
    `select u."fullName", coalesce((select array_agg(distinct p->>'email') from jsonb_array_elements(coalesce(u.parents, '[]'::jsonb)) p
       where coalesce(p->>'email', '') <> ''), '{}') as emails from users u where u.id = $1`, [studentId])).rows[0];
  const emails = student?.emails ?? [];
  const { rows: created } = await tx.query<{ id: string }>(
    `insert into three_times_absents ("classId", "studentId", "absentDates", "emailStatus", "createdBy", "updatedBy")
     values ($1, $2, $3::jsonb, $4, $5, $5) returning id`,
    [classId, studentId, JSON.stringify(run), emails.length ? "pending" : "failed", by]);
  const child = student?.fullName ?? "Your child";
  const subject = `${child} has been absent three times from ${className}`;
  const body = mailBody(html`<p>Dear parent,</p><p>${child} was absent from ${className} on ${run.map(formatDay).join(", ")}.</p><p>Please contact the centre if you have any questions.</p>`);
  await enqueueMessages(tx, emails.map((recipient) => emailMessage(recipient, subject, body, { threeTimesAbsent: true, logId: created[0]!.id, studentId })));
  return true;
}

export const attendanceRoutes: FastifyPluginAsync<{ ctx: ServerContext; engine: Engine }> = async (app, { ctx, engine }) => {
  const { db } = ctx;

  app.put<{ Params: { lessonId: string } }>("/classes/attendance/:lessonId", async (request, reply) => {
    const lessonId = uuid().safeParse(request.params.lessonId);
    if (!lessonId.success || !request.session) return fail(reply, 404, CLASS_MESSAGES.lessonNotFound);
    const parsed = markBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    if (!(await canSeeLesson(engine, request.session, lessonId.data))) return fail(reply, 404, CLASS_MESSAGES.lessonNotFound);
    const by = request.session.userId ?? null;
    const result = await db.transaction(async (tx) => {
      const lesson = (await tx.query<{ date: string; lessonStatus: string; classId: string; className: string }>(
        `select l.date::text as date, l."lessonStatus", l."classId", c.name as "className" from lessons l join classes c on c.id = l."classId"
         where l.id = $1 and l.status = 'active' for update of l`, [lessonId.data])).rows[0];
      if (!lesson) return { code: 404, message: CLASS_MESSAGES.lessonNotFound };
      if (lesson.lessonStatus !== "active") return { code: 400, message: ATTENDANCE_MESSAGES.cancelled };
      const { rows } = await tx.query<LessonStudentRow>(
        `select id, "studentId", type, status, "hasAttended", "entryTime", remarks from lessons_students
         where "lessonId" = $1 and id = any($2::uuid[]) and status <> 'deleted' for update`,
        [lessonId.data, parsed.data.students.map((s) => s.id)]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const changes: { id: string; studentId: string; before: ReturnType<typeof snapshot>; after: ReturnType<typeof snapshot> }[] = [];
      for (const s of parsed.data.students) {
        const row = byId.get(s.id);
        if (!row || (ATTENDANCE_EXCLUDED_TYPES as readonly string[]).includes(row.type)) return { code: 400, message: ATTENDANCE_MESSAGES.notInLesson };
        if (row.status !== "attended" && row.status !== "not_attended") return { code: 400, message: ATTENDANCE_MESSAGES.notMarkable };
        const entry = s.hasAttended
          ? s.entryTime !== undefined && s.entryTime !== null ? new Date(s.entryTime).toISOString() : row.entryTime ? new Date(row.entryTime).toISOString() : new Date().toISOString()
          : null;
        const before = snapshot({ ...row, entryTime: row.entryTime ? new Date(row.entryTime).toISOString() : null });
        const after = { status: s.hasAttended ? "attended" : "not_attended", hasAttended: s.hasAttended, entryTime: entry, remarks: s.remarks === undefined ? row.remarks : s.remarks };
        if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ id: row.id, studentId: row.studentId, before, after });
      }
      if (changes.length) {
        await tx.query(
          `update lessons_students ls set status = x.status, "hasAttended" = x."hasAttended", "entryTime" = x."entryTime", remarks = x.remarks, "updatedBy" = $2
           from jsonb_to_recordset($1::jsonb) as x(id uuid, status text, "hasAttended" boolean, "entryTime" timestamptz, remarks text) where ls.id = x.id`,
          [JSON.stringify(changes.map((c) => ({ id: c.id, ...c.after }))), by]);
        await tx.query(
          `insert into backup_attendance_logs ("lessonId", "lessonStudentId", "studentId", "valueBefore", "valueAfter", "createdBy", "updatedBy")
           select $1, x.id, x."studentId", x.before, x.after, $3, $3
           from jsonb_to_recordset($2::jsonb) as x(id uuid, "studentId" uuid, before jsonb, after jsonb)`,
          [lessonId.data, JSON.stringify(changes), by]);
      }
      // Every absence marked (changed or confirmed) may complete a streak; a streak already noticed is skipped.
      let notices = 0;
      for (const s of parsed.data.students) {
        if (!s.hasAttended && (await noticeAbsences(tx, lesson.classId, lesson.className, byId.get(s.id)!.studentId, lesson.date, by))) notices++;
      }
      return { data: { changed: changes.length, threeTimesAbsent: notices } };
    });
    if ("code" in result) return fail(reply, result.code!, result.message!);
    return reply.send({ success: true, data: result.data });
  });

  // Gantry entry records: date range (Singapore days), branch, student; newest first, paginated.
  app.get("/users/gantry-records", async (request, reply) => {
    const parsed = gantryQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const q = parsed.data;
    const from = q.from ? singaporeWallTimeToIso(q.from) : null;
    const to = q.to ? singaporeWallTimeToIso(q.to) : null;
    const params = [from, to, q.branchId ?? null, q.studentId ?? null];
    const where = `g.status = 'active' and ($1::timestamptz is null or g."recordedAt" >= $1::timestamptz)
      and ($2::timestamptz is null or g."recordedAt" < $2::timestamptz + interval '1 day')
      and ($3::uuid is null or g."branchId" = $3::uuid) and ($4::uuid is null or g."studentId" = $4::uuid)`;
    const { rows } = await db.query<{ items: unknown[]; total: number }>(
      `select coalesce((select json_agg(r) from (
           select g.id, g."recordedAt", g.direction, g."cardNo", g."deviceId",
             json_build_object('id', u.id, 'fullName', u."fullName", 'username', u.username) as student,
             json_build_object('id', b.id, 'name', b.name) as branch,
             case when l.id is null then null else json_build_object('id', l.id, 'date', l.date, 'className', c.name) end as lesson
           from gantry_records g left join users u on u.id = g."studentId" left join branches b on b.id = g."branchId"
             left join lessons l on l.id = g."lessonId" left join classes c on c.id = l."classId"
           where ${where} order by g."recordedAt" desc, g.id limit $5 offset $6) r), '[]'::json) as items,
         (select count(*)::int from gantry_records g where ${where}) as total`,
      [...params, q.pageSize, (q.page - 1) * q.pageSize]);
    return reply.send({ success: true, data: { items: rows[0]!.items, total: rows[0]!.total, page: q.page, pageSize: q.pageSize } });
  });
};
