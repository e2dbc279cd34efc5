/**
 * Student attendance (issue 17): per student and class over a period, the lessons held, attended, absent and the
 * attendance rate, paged (server/reports/paging.ts). A lesson counts once it has happened (dated before today,
 * Singapore); suspended and withdrawn lessons and lessons the student was replaced or transferred out of are not counted.
 * Whole months are read from app_internal.attendance_months (a page's students) and app_internal.attendance_years (the
 * pairs of a company or branch, the totals) (issue 38), which `npm run reconcile` checks.
 */
import type { PagedReport } from "./paging.ts";

/**
 * A seat the report counts (`l` its lesson, `ls` the lessons_students row): the rule the triggers of migration
 * 1763700730000 keep app_internal.attendance_months by, and `npm run reconcile` checks it with.
 */
export const COUNTED_SEAT = `l.status = 'active' and l."lessonStatus" = 'active' and ls.type in ('enrolled', 'transferred', 'replacement') and ls.status in ('attended', 'not_attended')`;
export const ATTENDED_SEAT = `(ls.status = 'attended' or ls."hasAttended")`;

type AttendanceRow = { student: string | null; username: string | null; className: string; branch: string | null; lessons: number; attended: number };

const rate = (attended: number, lessons: number) => (lessons ? Math.round((attended / lessons) * 100) : 0);

/**
 * The period ($1 from, $2 to) as `e`: lo, hi (yesterday at the latest), fs the first whole month, fe the day after the
 * last; fk and lk the first and last whole months as year × 12 + month - 1 (none when fk > lk).
 */
const PERIOD = `e as (
       select lo, hi, fs, fe, extract(year from fs)::int * 12 + extract(month from fs)::int - 1 as fk, extract(year from fe - 1)::int * 12 + extract(month from fe - 1)::int - 1 as lk
       from (select lo, hi, (date_trunc('month', lo - 1) + interval '1 month')::date as fs, date_trunc('month', hi + 1)::date as fe
         from (select $1::date as lo, least($2::date, (now() at time zone 'Asia/Singapore')::date - 1) as hi) b) c)`;

/** A yearly row's (`y`) lessons ("l") or attended ("a") of the months it has in the period's whole months. */
const wholeMonthsOf = (column: "l" | "a") =>
  Array.from({ length: 12 }, (_, i) => `case when y.year * 12 + ${i} between e.fk and e.lk then y.${column}${i + 1} else 0 end`).join(" + ");

/**
 * The (student, class) pairs of the period ($1 from, $2 to, $3 company, $4 branch) with their lessons and attended, as
 * `a`: whole months from the yearly rows the triggers keep (migrations 1763700730000 and 1763700822000: a year is ~40k
 * rows, where its lesson-students are ~10⁶ and its monthly counts ~240k at scale 20000), the partial months at the
 * ends from the lessons.
 */
const COUNTED = `with ${PERIOD},
     a as (
       select x."studentId", x."classId", sum(x.lessons)::int as lessons, sum(x.attended)::int as attended from (
         select y."studentId", y."classId", ${wholeMonthsOf("l")} as lessons, ${wholeMonthsOf("a")} as attended
         from e join app_internal.attendance_years y on y.year between e.fk / 12 and e.lk / 12
         union all
         select ls."studentId", l."classId", 1, ${ATTENDED_SEAT}::int
         from e join lessons l on l.date between e.lo and e.hi and (l.date < e.fs or l.date >= e.fe) join lessons_students ls on ls."lessonId" = l.id
         where ${COUNTED_SEAT}
       ) x
       where ($3::uuid is null and $4::uuid is null or x."classId" in (select id from classes where ($3::uuid is null or "companyId" = $3) and ($4::uuid is null or "branchId" = $4)))
       group by 1, 2 having sum(x.lessons) > 0)`;

/**
 * The same pairs, named, one student at a time in name order (issue 38: a page reads its own students' months, not the
 * ~240k monthly rows of a year): each student's whole months by migration 1763700820000's index, and the lessons of the
 * partial months only for the classes the monthly counts have the student in those months.
 */
const BY_STUDENT = `with ${PERIOD}
     select u."fullName" as student, u.username, c.name as "className", b.name as branch, a.lessons, a.attended, u.id as "studentId", a."classId"
     from e cross join users u
     cross join lateral (
       select x."classId", sum(x.lessons)::int as lessons, sum(x.attended)::int as attended from (
         select m."classId", m.lessons, m.attended from app_internal.attendance_months m where m."studentId" = u.id and m.month >= e.fs and m.month < e.fe
         union all
         select l."classId", 1, ${ATTENDED_SEAT}::int
         from app_internal.attendance_months p
         join lessons l on l."classId" = p."classId" and l.date >= p.month and l.date < p.month + interval '1 month' and l.date between e.lo and e.hi and (l.date < e.fs or l.date >= e.fe)
         join lessons_students ls on ls."studentId" = u.id and ls."lessonId" = l.id
         where p."studentId" = u.id and p.lessons > 0 and p.month >= date_trunc('month', e.lo) and p.month <= e.hi and (p.month < e.fs or p.month >= e.fe) and ${COUNTED_SEAT}
       ) x
       group by 1 having sum(x.lessons) > 0) a
     join classes c on c.id = a."classId" left join branches b on b.id = c."branchId"
     where ($3::uuid is null or c."companyId" = $3) and ($4::uuid is null or c."branchId" = $4)`;

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
    // the whole group: student by student in the report's order (a page stops early); a company or branch (perhaps a
    // few dozen students): its classes' pairs aggregated first (a hash of student × class), then named (DECISIONS)
    select:
      f.companyId || f.branchId
        ? `${COUNTED}
     select u."fullName" as student, u.username, c.name as "className", b.name as branch, a.lessons, a.attended, a."studentId", a."classId"
     from a join users u on u.id = a."studentId" join classes c on c.id = a."classId" left join branches b on b.id = c."branchId"`
        : BY_STUDENT,
    // the totals count the pairs unnamed
    tally: `${COUNTED} select a.lessons, a.attended from a`,
    orderBy: `u."fullName", c.name, "studentId", a."classId"`,
    params: [f.from, f.to, f.companyId, f.branchId],
  }),
  lines: () => (r) => ({ student: r.student, username: r.username, className: r.className, branch: r.branch, lessons: r.lessons, attended: r.attended, absent: r.lessons - r.attended, rate: rate(r.attended, r.lessons) }),
  whole: async (db, source) => {
    const { rows } = await db.query<{ n: number; lessons: number; attended: number }>(
      `select count(*)::int as n, coalesce(sum(r.lessons), 0)::int as lessons, coalesce(sum(r.attended), 0)::int as attended from (${source.tally ?? source.select}) r`,
      source.params,
    );
    const { n, lessons, attended } = rows[0]!;
    return { count: n, totals: { student: `${n} students × classes`, lessons, attended, absent: lessons - attended, rate: rate(attended, lessons) } };
  },
};
