/**
 * Classes, enrolment and attendance calls (issue 13): a class is created with lessons generated from its
 * calendar; double booking is refused; enrolment past the class size is refused; a transfer request moves the
 * student's future lessons when completed, in one transaction; a replacement swaps one lesson; tutors mark only
 * the lessons they teach; every mark writes a backup log; the third absence in a row makes one notice and one
 * e-mail to the parents, not one per save.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, userId, type TestServer } from "../support/auth.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { addCalendarDays } from "../../src/domain/lessonSchedule.ts";

describe.each(databaseLanes())("classes, enrolment and attendance [%s]", (lane) => {
  let server: TestServer;
  let ops: string;
  let fulltime: string;
  let parttime: string;
  let fulltimeId: string;
  let setup: { programId: string; calendarId: string; branchId: string; classroomId: string; termStart: string };
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows;
  const n = async (sql: string, params: unknown[] = []) => (await q<{ n: number }>(sql, params))[0]!.n;

  beforeAll(async () => {
    server = await startTestServer(lane);
    ops = (await signIn(server.app, "ops_manager")).accessToken;
    fulltime = (await signIn(server.app, "fulltime_tutor")).accessToken;
    parttime = (await signIn(server.app, "parttime_tutor")).accessToken;
    fulltimeId = await userId(server.db, "fulltime_tutor");
    const [cal] = await q<{ programId: string; calendarId: string; companyId: string; termStart: string }>(
      `select p.id as "programId", a.id as "calendarId", p."companyId", min(t."startDate")::text as "termStart"
       from programs p join academic_calendars a on a."companyId" = p."companyId" and a.category = 'weekly' and a.status = 'active'
       join terms t on t."academicCalendarId" = a.id and t.status = 'active' and t."numberOfLessons" > 0
       where p.status = 'active' group by p.id, a.id, p."companyId" order by p.id, a.id limit 1`);
    const [branch] = await q<{ id: string }>(`select id from branches where "companyId" = $1 and status = 'active' order by id limit 1`, [cal!.companyId]);
    // A classroom of our own, so the demo timetable never clashes with the test's classes.
    const [room] = await q<{ id: string }>(`insert into classrooms (name, capacity, "branchId") values ('Test Room 13', 20, $1) returning id`, [branch!.id]);
    setup = { programId: cal!.programId, calendarId: cal!.calendarId, branchId: branch!.id, classroomId: room!.id, termStart: cal!.termStart };
  });
  afterAll(async () => {
    await server?.close();
  });

  const createClass = (token: string, over: Record<string, unknown> = {}) =>
    api(server.app, "POST", "/classes", token, {
      name: "Test Class 13",
      programId: setup.programId,
      academicCalendarId: setup.calendarId,
      branchId: setup.branchId,
      classroomId: setup.classroomId,
      tutorIds: [fulltimeId],
      startDate: setup.termStart,
      sessions: [{ startTime: "22:00", endTime: "23:00" }],
      ...over,
    });
  const students = async (count: number, offset = 0) =>
    (await q<{ id: string }>(`select id from users where type = 'student' and status = 'active' order by username limit $1 offset $2`, [count, offset])).map((r) => r.id);

  it("creates a class with the spec's defaults and its lessons from the calendar, skipping holidays", async () => {
    const res = await createClass(ops);
    expect(res.statusCode).toBe(201);
    const { id, lessons } = res.json().data;
    const [cls] = await q<{ classStatus: string; classSize: number; totalLoop: number; lessonType: string }>(`select "classStatus", "classSize", "totalLoop", "lessonType" from classes where id = $1`, [id]);
    expect(cls).toEqual({ classStatus: "new", classSize: 20, totalLoop: 1, lessonType: "regular" });
    const expected = await n(`select coalesce(sum("numberOfLessons"), 0)::int as n from terms where "academicCalendarId" = $1 and status = 'active'`, [setup.calendarId]);
    expect(lessons).toBeGreaterThan(0);
    expect(lessons).toBeLessThanOrEqual(expected);
    expect(await n(`select count(*)::int as n from lessons l join holidays h on h.date = l.date and h.status = 'active' where l."classId" = $1`, [id])).toBe(0);
    expect(await n(`select count(*)::int as n from lesson_sessions s join lessons l on l.id = s."lessonId" where l."classId" = $1 and s."tutorIds" ? $2`, [id, fulltimeId])).toBe(lessons);
  });

  it("refuses a class whose classroom or tutor is already booked at that time, naming the clash", async () => {
    const room = await createClass(ops, { name: "Clash Room", tutorIds: [await userId(server.db, "hod")], sessions: [{ startTime: "22:30", endTime: "23:30" }] });
    expect(room.statusCode).toBe(409);
    expect(room.json().message).toMatch(/^The classroom Test Room 13 is already booked on .* by Test Class 13\.$/);
    const [other] = await q<{ id: string }>(`insert into classrooms (name, "branchId") values ('Other Room 13', $1) returning id`, [setup.branchId]);
    const tutor = await createClass(ops, { name: "Clash Tutor", classroomId: other!.id });
    expect(tutor.statusCode).toBe(409);
    expect(tutor.json().message).toMatch(/^The tutor .+ already teaches Test Class 13 on /);
    expect(await n(`select count(*)::int as n from classes where name in ('Clash Room', 'Clash Tutor')`)).toBe(0);
    const bad = await createClass(ops, { sessions: [{ startTime: "10:00", endTime: "09:00" }], tutorIds: [], classroomId: 13 });
    expect(bad.statusCode).toBe(400);
    // an id that is not even a string reads as a bad id, as a malformed one does (validation.ts's uuid())
    expect(bad.json().errors).toMatchObject({ tutorIds: "Please select tutors!", "sessions.0.endTime": "The end time must be after the start time.", classroomId: "Invalid id." });
  });

  it("enrols students up to the class size and refuses one more", async () => {
    const [room] = await q<{ id: string }>(`insert into classrooms (name, "branchId") values ('Small Room 13', $1) returning id`, [setup.branchId]);
    const res = await createClass(ops, { name: "Small Class 13", classSize: 2, classroomId: room!.id, tutorIds: [await userId(server.db, "hod")], sessions: [{ startTime: "06:00", endTime: "07:00" }] });
    const classId = res.json().data.id;
    const [a, b, c] = await students(3);
    for (const s of [a, b]) expect((await api(server.app, "POST", `/classes/${classId}/enrolments`, ops, { studentId: s })).statusCode).toBe(201);
    const again = await api(server.app, "POST", `/classes/${classId}/enrolments`, ops, { studentId: a });
    expect(again.json().message).toBe("The student is already enrolled in this class.");
    const full = await api(server.app, "POST", `/classes/${classId}/enrolments`, ops, { studentId: c });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe("The class is full (2 of 2 seats taken).");
    expect(await n(`select count(*)::int as n from student_classes where "classId" = $1`, [classId])).toBe(2);
    expect(await n(`select count(*)::int as n from lessons_students ls join lessons l on l.id = ls."lessonId" where l."classId" = $1 and ls."studentId" = $2`, [classId, c])).toBe(0);
    // a front desk (class-management role) may enrol; a tutor may not call it
    expect((await api(server.app, "POST", `/classes/${classId}/enrolments`, fulltime, { studentId: c })).statusCode).toBe(403);
  });

  it("a transfer request is pending until completed; completing moves the future lessons in one transaction", async () => {
    const [r1] = await q<{ id: string }>(`insert into classrooms (name, "branchId") values ('From Room 13', $1) returning id`, [setup.branchId]);
    const [r2] = await q<{ id: string }>(`insert into classrooms (name, "branchId") values ('To Room 13', $1) returning id`, [setup.branchId]);
    const hod = await userId(server.db, "hod");
    const from = (await createClass(ops, { name: "From 13", classroomId: r1!.id, tutorIds: [hod], sessions: [{ startTime: "05:00", endTime: "05:30" }] })).json().data.id;
    const to = (await createClass(ops, { name: "To 13", classroomId: r2!.id, tutorIds: [hod], classSize: 1, sessions: [{ startTime: "05:30", endTime: "06:00" }] })).json().data.id;
    const [s, other] = await students(2, 10);
    await api(server.app, "POST", `/classes/${from}/enrolments`, ops, { studentId: s });
    const [mid] = await q<{ date: string }>(`select date::text as date from lessons where "classId" = $1 order by date offset 2 limit 1`, [from]);
    const created = await api(server.app, "POST", "/classes/transfers", ops, { studentId: s, fromClassId: from, toClassId: to, lessonStartDate: mid!.date });
    expect(created.statusCode).toBe(201);
    const requestId = created.json().data.id;
    expect((await api(server.app, "POST", "/classes/transfers", ops, { studentId: s, fromClassId: from, toClassId: to, lessonStartDate: mid!.date })).statusCode).toBe(409);
    // the target class fills up meanwhile: completing is refused and nothing changes
    await api(server.app, "POST", `/classes/${to}/enrolments`, ops, { studentId: other });
    const refused = await api(server.app, "PATCH", `/classes/transfers/${requestId}`, ops, { transferClassStatus: "completed" });
    expect(refused.statusCode).toBe(409);
    expect(await n(`select count(*)::int as n from lessons_students where "studentId" = $1 and type = 'has_been_transferred'`, [s])).toBe(0);
    expect((await q(`select "transferClassStatus" from request_transfer_classes where id = $1`, [requestId]))[0]).toEqual({ transferClassStatus: "pending" });
    await server.db.query(`update classes set "classSize" = 2 where id = $1`, [to]);
    const done = await api(server.app, "PATCH", `/classes/transfers/${requestId}`, ops, { transferClassStatus: "completed" });
    expect(done.statusCode).toBe(200);
    const enrolments = await q<{ classId: string; status: string }>(`select "classId", status from student_classes where "userId" = $1 and "classId" in ($2, $3) order by status`, [s, from, to]);
    expect(enrolments).toEqual([{ classId: from, status: "has_been_transferred" }, { classId: to, status: "transferred" }]);
    const moved = await q<{ type: string; before: boolean }>(
      `select ls.type, l.date < $2::date as before from lessons_students ls join lessons l on l.id = ls."lessonId" where ls."studentId" = $1 and l."classId" = $3 order by l.date`, [s, mid!.date, from]);
    expect(moved.filter((m) => m.before).every((m) => m.type === "enrolled")).toBe(true);
    expect(moved.filter((m) => !m.before).every((m) => m.type === "has_been_transferred")).toBe(true);
    expect(await n(`select count(*)::int as n from lessons_students ls join lessons l on l.id = ls."lessonId" where ls."studentId" = $1 and l."classId" = $2 and ls.type = 'transferred' and l.date < $3::date`, [s, to, mid!.date])).toBe(0);
    expect(await n(`select count(*)::int as n from lessons_students ls join lessons l on l.id = ls."lessonId" where ls."studentId" = $1 and l."classId" = $2 and ls.type = 'transferred'`, [s, to])).toBeGreaterThan(0);
    const twice = await api(server.app, "PATCH", `/classes/transfers/${requestId}`, ops, { transferClassStatus: "cancelled" });
    expect(twice.json().message).toBe("Only a pending transfer request can be changed.");
  });

  it("a replacement marks the old lesson has_been_replaced and adds the student to the other lesson", async () => {
    const [ls] = await q<{ id: string; lessonId: string; studentId: string; classId: string }>(
      `select ls.id, ls."lessonId", ls."studentId", l."classId" from lessons_students ls join lessons l on l.id = ls."lessonId" join classes c on c.id = l."classId"
       where c.name = 'Small Class 13' and ls.type = 'enrolled' order by l.date limit 1`);
    const [target] = await q<{ id: string }>(`select id from lessons where "classId" = $1 and id <> $2 order by date desc limit 1`, [ls!.classId, ls!.lessonId]);
    // the target lesson already has the student: refused
    expect((await api(server.app, "POST", "/classes/replacements", ops, { lessonStudentId: ls!.id, toLessonId: target!.id })).json().message).toBe("The student already attends that lesson.");
    const [elsewhere] = await q<{ id: string }>(`select l.id from lessons l join classes c on c.id = l."classId" where c.name = 'Test Class 13' order by l.date desc limit 1`);
    const res = await api(server.app, "POST", "/classes/replacements", ops, { lessonStudentId: ls!.id, toLessonId: elsewhere!.id });
    expect(res.statusCode).toBe(201);
    expect((await q(`select type from lessons_students where id = $1`, [ls!.id]))[0]).toEqual({ type: "has_been_replaced" });
    expect((await q(`select type, "oldLessonId" from lessons_students where id = $1`, [res.json().data.id]))[0]).toEqual({ type: "replacement", oldLessonId: ls!.lessonId });
  });

  it("tutors see and mark only the lessons they teach: the GraphQL row rule and the REST call agree", async () => {
    const [lesson] = await q<{ id: string }>(
      `select l.id from lessons l join classes c on c.id = l."classId" where c.name = 'Small Class 13'
       and exists (select 1 from lessons_students ls where ls."lessonId" = l.id and ls.type = 'enrolled') order by l.date limit 1`);
    const gql = (token: string) =>
      server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query: `{ lessons_by_pk(id: "${lesson!.id}") { id } lessons_students(where: {lessonId: {_eq: "${lesson!.id}"}}) { id } }` } });
    const seen = (await gql(parttime)).json().data;
    expect(seen).toEqual({ lessons_by_pk: null, lessons_students: [] });
    const [row] = await q<{ id: string }>(`select id from lessons_students where "lessonId" = $1 and type = 'enrolled' limit 1`, [lesson!.id]);
    const refused = await api(server.app, "PUT", `/classes/attendance/${lesson!.id}`, parttime, { students: [{ id: row!.id, hasAttended: true }] });
    expect(refused.statusCode).toBe(404);
    expect(await n(`select count(*)::int as n from backup_attendance_logs where "lessonId" = $1`, [lesson!.id])).toBe(0);
    // the hod teaches Small Class 13
    const hod = (await signIn(server.app, "hod")).accessToken;
    const ok = await api(server.app, "PUT", `/classes/attendance/${lesson!.id}`, hod, { students: [{ id: row!.id, hasAttended: true, remarks: "On time" }] });
    expect(ok.statusCode).toBe(200);
    expect((await q(`select status, "hasAttended", remarks from lessons_students where id = $1`, [row!.id]))[0]).toEqual({ status: "attended", hasAttended: true, remarks: "On time" });
    const logs = await q<{ valueBefore: { status: string }; valueAfter: { status: string } }>(`select "valueBefore", "valueAfter" from backup_attendance_logs where "lessonStudentId" = $1`, [row!.id]);
    expect(logs.map((l) => [l.valueBefore.status, l.valueAfter.status])).toEqual([["not_attended", "attended"]]);
    // saving the same marks again changes nothing and logs nothing
    await api(server.app, "PUT", `/classes/attendance/${lesson!.id}`, hod, { students: [{ id: row!.id, hasAttended: true, remarks: "On time" }] });
    expect(await n(`select count(*)::int as n from backup_attendance_logs where "lessonStudentId" = $1`, [row!.id])).toBe(1);
    // the fulltime tutor teaches Test Class 13 and sees its lessons
    const [own] = await q<{ id: string }>(`select l.id from lessons l join classes c on c.id = l."classId" where c.name = 'Test Class 13' limit 1`);
    const mine = await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(fulltime), payload: { query: `{ lessons_by_pk(id: "${own!.id}") { id } }` } });
    expect(mine.json().data.lessons_by_pk).toEqual({ id: own!.id });
  });

  it("the third absence in a row records a three-times-absent notice and mails the parents once per streak", async () => {
    const today = todayInSingapore();
    const hodId = await userId(server.db, "hod");
    const [room] = await q<{ id: string }>(`insert into classrooms (name, "branchId") values ('Absence Room 13', $1) returning id`, [setup.branchId]);
    const [cal] = await q<{ id: string }>(`insert into academic_calendars (name, year, category) values ('Past weeks 13', 2026, 'custom') returning id`);
    await server.db.query(`insert into terms (name, "startDate", "endDate", "numberOfLessons", "academicCalendarId") values ('T', $1, $2, 6, $3)`, [addCalendarDays(today, -60), today, cal!.id]);
    const dates = [35, 28, 21, 14, 7].map((d) => addCalendarDays(today, -d));
    const created = await createClass(ops, { name: "Absence Class 13", academicCalendarId: cal!.id, classroomId: room!.id, tutorIds: [hodId], startDate: dates[0], customDates: dates, sessions: [{ startTime: "07:00", endTime: "07:30" }] });
    expect(created.json().data.lessons).toBe(5);
    const classId = created.json().data.id;
    const [student] = await q<{ id: string }>(`select id from users where type = 'student' and status = 'active' and jsonb_array_length(parents) > 0 order by username desc limit 1`);
    await api(server.app, "POST", `/classes/${classId}/enrolments`, ops, { studentId: student!.id, lessonStartDate: dates[0] });
    const lessonRows = await q<{ lessonId: string; id: string }>(
      `select ls."lessonId", ls.id from lessons_students ls join lessons l on l.id = ls."lessonId" where l."classId" = $1 and ls."studentId" = $2 order by l.date`, [classId, student!.id]);
    const hod = (await signIn(server.app, "hod")).accessToken;
    const mark = (i: number, hasAttended: boolean) => api(server.app, "PUT", `/classes/attendance/${lessonRows[i]!.lessonId}`, hod, { students: [{ id: lessonRows[i]!.id, hasAttended }] });
    const notices = () => q<{ absentDates: string[]; emailStatus: string }>(`select "absentDates", "emailStatus" from three_times_absents where "classId" = $1 and "studentId" = $2`, [classId, student!.id]);
    const mails = () => n(`select count(*)::int as n from outbox where payload->>'logId' in (select id::text from three_times_absents where "classId" = $1)`, [classId]);
    await mark(0, true);
    await mark(1, false);
    await mark(2, false);
    expect(await notices()).toEqual([]);
    const third = await mark(3, false);
    expect(third.json().data.threeTimesAbsent).toBe(1);
    expect(await notices()).toEqual([{ absentDates: [dates[1], dates[2], dates[3]], emailStatus: "pending" }]);
    const sent = await mails();
    expect(sent).toBeGreaterThan(0);
    // saving again, or a fourth absence in the same streak: no second notice or e-mail
    await mark(3, true);
    await mark(3, false);
    await mark(4, false);
    expect(await notices()).toHaveLength(1);
    expect(await mails()).toBe(sent);
  });

  it("GET /users/gantry-records filters by date range, branch and student, newest first, paginated", async () => {
    const [g] = await q<{ studentId: string; branchId: string; day: string }>(
      `select "studentId", "branchId", ("recordedAt" at time zone 'Asia/Singapore')::date::text as day from gantry_records order by "recordedAt" desc limit 1`);
    const all = await n(`select count(*)::int as n from gantry_records where "branchId" = $1`, [g!.branchId]);
    const page = await api(server.app, "GET", `/users/gantry-records?branchId=${g!.branchId}&pageSize=2&page=1`, ops);
    expect(page.statusCode).toBe(200);
    const data = page.json().data;
    expect(data.total).toBe(all);
    expect(data.items.length).toBe(Math.min(2, all));
    expect(data.items.every((i: { branch: { id: string } }) => i.branch.id === g!.branchId)).toBe(true);
    const one = await api(server.app, "GET", `/users/gantry-records?studentId=${g!.studentId}&from=${g!.day}&to=${g!.day}`, ops);
    expect(one.json().data.items.every((i: { student: { id: string } }) => i.student.id === g!.studentId)).toBe(true);
    expect(one.json().data.total).toBeGreaterThan(0);
    expect((await api(server.app, "GET", `/users/gantry-records?from=yesterday`, ops)).statusCode).toBe(400);
    const checker = (await signIn(server.app, "attendance_checker")).accessToken;
    expect((await api(server.app, "GET", `/users/gantry-records`, checker)).statusCode).toBe(403);
  });
});
