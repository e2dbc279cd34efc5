/**
 * Student attendance (issue 17): per student and class over a period, the lessons held, attended, absent and the
 * attendance rate. A lesson counts once it has happened (dated before today, Singapore); suspended and withdrawn
 * lessons and lessons the student was replaced or transferred out of are not counted.
 */
import type { Queryable } from "../db/index.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

export async function studentAttendanceReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<{ student: string | null; username: string | null; className: string; branch: string | null; lessons: number; attended: number }>(
    // aggregate on ids first (a hash of student × class), then name them: a year is ~10⁶ lesson-students
    `with a as (
       select ls."studentId", l."classId", count(*)::int as lessons, count(*) filter (where ls.status = 'attended' or ls."hasAttended")::int as attended
       from lessons l join lessons_students ls on ls."lessonId" = l.id
       where l.date between $1::date and least($2::date, (now() at time zone 'Asia/Singapore')::date - 1) and l.status = 'active' and l."lessonStatus" = 'active'
         and ls.type in ('enrolled', 'transferred', 'replacement') and ls.status in ('attended', 'not_attended')
         and ($3::uuid is null and $4::uuid is null or l."classId" in (select id from classes where ($3::uuid is null or "companyId" = $3) and ($4::uuid is null or "branchId" = $4)))
       group by 1, 2)
     select u."fullName" as student, u.username, c.name as "className", b.name as branch, a.lessons, a.attended
     from a join users u on u.id = a."studentId" join classes c on c.id = a."classId" left join branches b on b.id = c."branchId"
     order by u."fullName", c.name`,
    [f.from, f.to, f.companyId, f.branchId],
  );
  const lines = rows.map((r) => ({ ...r, absent: r.lessons - r.attended, rate: r.lessons ? Math.round((r.attended / r.lessons) * 100) : 0 }));
  const lessons = lines.reduce((s, l) => s + l.lessons, 0);
  const attended = lines.reduce((s, l) => s + l.attended, 0);
  return {
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
    rows: lines,
    totals: { student: `${lines.length} students × classes`, lessons, attended, absent: lessons - attended, rate: lessons ? Math.round((attended / lessons) * 100) : 0 },
  };
}
