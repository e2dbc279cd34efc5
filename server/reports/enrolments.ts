/**
 * Enrolment lists (issue 17): the students enrolled per class during a period, and the first-time enrolments
 * (students whose first enrolment starts in the period), both paged (server/reports/paging.ts).
 * `POST /reports/enrollment-list-by-user-ids` answers the live enrolments of given students.
 */
import type { Queryable } from "../db/index.ts";
import type { ReportResult, ReportRow } from "../../src/domain/reports.ts";
import { storedValueLabel } from "../../src/domain/enumLabels.ts";
import type { ReportFilters } from "./filters.ts";
import type { PagedReport, ReportSource } from "./paging.ts";

const LIVE = `('enrolled', 'transferred', 'replacement', 'suspended', 'completed')`;
const COLUMNS: ReportResult["columns"] = [
  { key: "className", title: "Class", kind: "text" },
  { key: "classCode", title: "Class Code", kind: "text" },
  { key: "branch", title: "Branch", kind: "text" },
  { key: "student", title: "Student", kind: "text" },
  { key: "username", title: "Username", kind: "text" },
  { key: "status", title: "Status", kind: "text" },
  { key: "lessonStartDate", title: "Start Date", kind: "date" },
];

type Row = { className: string; classCode: string | null; branch: string | null; student: string | null; username: string | null; status: string; lessonStartDate: string | null };
const SELECT = `select c.name as "className", c."classCode", b.name as branch, u."fullName" as student, u.username, sc.status, coalesce(sc."lessonStartDate", c."startDate")::text as "lessonStartDate"
  from student_classes sc join classes c on c.id = sc."classId" join users u on u.id = sc."userId" left join branches b on b.id = c."branchId"`;
/**
 * The rows counted for the totals, a line per class (its name, its enrolments `n`): the students' names are not needed
 * (every enrolment has its student: a foreign key), and the distinct class names are counted over classes, not enrolments.
 */
const TALLY = (where: string) => `select c.name as "className", count(*)::int as n from student_classes sc join classes c on c.id = sc."classId" ${where} group by c.id`;

const line = (r: Row): ReportRow => ({ ...r, status: storedValueLabel("student_classes", "status", r.status) ?? r.status });

function enrolmentList(label: string, source: (f: ReportFilters) => ReportSource): PagedReport<Row> {
  return {
    columns: COLUMNS,
    source,
    lines: () => line,
    whole: async (db, s) => {
      const { rows } = await db.query<{ n: number; classes: number }>(`select coalesce(sum(r.n), 0)::int as n, count(distinct r."className")::int as classes from (${s.tally}) r`, s.params);
      const { n, classes } = rows[0]!;
      return { count: n, totals: { className: `${n} ${label}`, classCode: `${classes} classes` } };
    },
  };
}

const ENROLLED_IN_CLASS = `sc.status in ${LIVE} and coalesce(sc."lessonStartDate", c."startDate", $2::date) <= $2::date and coalesce(sc."endDate", c."endDate", $1::date) >= $1::date`;
const CLASS_FILTER = `c.status = 'active' and ($3::uuid is null or c."companyId" = $3) and ($4::uuid is null or c."branchId" = $4)`;

export const enrolmentListReport = enrolmentList("enrolments", (f) => ({
  // class by class in name order (migration 1763700821000's index): a page reads its own classes' enrolments. `offset 0`
  // keeps the walk: joined flat, the plan hung on PostgreSQL's estimate of the period's enrolments (4,000 for 36,000
  // at scale 20000), which had it name every enrolment of the year one by one before taking 50 (DECISIONS)
  select: `select c.name as "className", c."classCode", b.name as branch, s.student, s.username, s.status, coalesce(s."lessonStartDate", c."startDate")::text as "lessonStartDate"
    from classes c left join branches b on b.id = c."branchId"
    cross join lateral (select sc.id, sc.status, sc."lessonStartDate", u."fullName" as student, u.username
      from student_classes sc join users u on u.id = sc."userId" where sc."classId" = c.id and ${ENROLLED_IN_CLASS} offset 0) s
    where ${CLASS_FILTER}`,
  tally: TALLY(`where ${ENROLLED_IN_CLASS} and ${CLASS_FILTER}`),
  orderBy: `c.name, s.student, s.id`,
  params: [f.from, f.to, f.companyId, f.branchId],
}));

const FIRST_ENROLLED = `where sc.status <> 'deleted' and c.status = 'active' and sc."createdAt" >= (($1::date)::timestamp at time zone 'Asia/Singapore') and sc."createdAt" < (($2::date + 1)::timestamp at time zone 'Asia/Singapore')
       and not exists (select 1 from student_classes e where e."userId" = sc."userId" and e.status <> 'deleted' and e."createdAt" < sc."createdAt")
       and ($3::uuid is null or c."companyId" = $3) and ($4::uuid is null or c."branchId" = $4)`;

export const newEnrolmentListReport = enrolmentList("first-time enrolments", (f) => ({
  select: `${SELECT} ${FIRST_ENROLLED}`,
  tally: TALLY(FIRST_ENROLLED),
  orderBy: `sc."createdAt", u."fullName", sc.id`,
  params: [f.from, f.to, f.companyId, f.branchId],
}));

/** At most 500 students' live enrolments, whole. */
export async function enrolmentsOfUsers(db: Queryable, userIds: readonly string[]): Promise<ReportResult> {
  const { rows } = await db.query<Row>(`${SELECT} where sc."userId" = any($1::uuid[]) and sc.status in ${LIVE} order by u."fullName", c.name`, [userIds]);
  const classes = new Set(rows.map((r) => r.className)).size;
  return { columns: COLUMNS, rows: rows.map(line), totals: { className: `${rows.length} enrolments`, classCode: `${classes} classes` } };
}
