/**
 * Student attendance (issue 17): per student and class over a period, the lessons held, attended, absent and the
 * attendance rate, paged (server/reports/paging.ts). A lesson counts once it has happened (dated before today,
 * Singapore); suspended and withdrawn lessons and lessons the student was replaced or transferred out of are not counted.
 */
import type { PagedReport } from "./paging.ts";

type AttendanceRow = { student: string | null; username: string | null; className: string; branch: string | null; lessons: number; attended: number };

const rate = (attended: number, lessons: number) => (lessons ? Math.round((attended / lessons) * 100) : 0);

export const studentAttendanceReport: PagedReport<AttendanceRow> = {
  columns: [
    { key: "student", title: "Student", kind: "text" },
    { key: "username", title: "Username", kind: "text" },
    { key: "className", title: "Class", kind: "text" },
    { key: "branch", title: "Branch", kind: "text" },
    { key: "lessons", title: "Lessons", kind: "number" },
    { key: "attended", title: "Attended", kind: "number" },
    { key: "absent", title: "Absent", kind: "number" },
    { key: "rate", title: "Attendance Rate", kind: "percent" },
  ],
  source: (f) => ({
    // aggregate on ids first (a hash of student × class), then name them: a year is ~10⁶ lesson-students
    select: `with a as (
       select ls."studentId", l."classId", count(*)::int as lessons, count(*) filter (where ls.status = 'attended' or ls."hasAttended")::int as attended
       from lessons l join lessons_students ls on ls."lessonId" = l.id
       where l.date between $1::date and least($2::date, (now() at time zone 'Asia/Singapore')::date - 1) and l.status = 'active' and l."lessonStatus" = 'active'
         and ls.type in ('enrolled', 'transferred', 'replacement') and ls.status in ('attended', 'not_attended')
         and ($3::uuid is null and $4::uuid is null or l."classId" in (select id from classes where ($3::uuid is null or "companyId" = $3) and ($4::uuid is null or "branchId" = $4)))
       group by 1, 2)
     select u."fullName" as student, u.username, c.name as "className", b.name as branch, a.lessons, a.attended, a."studentId", a."classId"
     from a join users u on u.id = a."studentId" join classes c on c.id = a."classId" left join branches b on b.id = c."branchId"`,
    orderBy: `u."fullName", c.name, a."studentId", a."classId"`,
    params: [f.from, f.to, f.companyId, f.branchId],
  }),
  lines: () => (r) => ({ student: r.student, username: r.username, className: r.className, branch: r.branch, lessons: r.lessons, attended: r.attended, absent: r.lessons - r.attended, rate: rate(r.attended, r.lessons) }),
  whole: async (db, source) => {
    const { rows } = await db.query<{ n: number; lessons: number; attended: number }>(
      `select count(*)::int as n, coalesce(sum(r.lessons), 0)::int as lessons, coalesce(sum(r.attended), 0)::int as attended from (${source.select}) r`,
      source.params,
    );
    const { n, lessons, attended } = rows[0]!;
    return { count: n, totals: { student: `${n} students × classes`, lessons, attended, absent: lessons - attended, rate: rate(attended, lessons) } };
  },
};
