/**
 * Enrolment lists (issue 17): the students enrolled per class during a period, and the first-time enrolments
 * (students whose first enrolment starts in the period). `POST /reports/enrollment-list-by-user-ids` answers
 * the live enrolments of given students.
 */
import type { Queryable } from "../db/index.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

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

function result(rows: Row[], label: string): ReportResult {
  const byClass = new Map<string, number>();
  for (const r of rows) byClass.set(r.className, (byClass.get(r.className) ?? 0) + 1);
  return { columns: COLUMNS, rows: rows.map((r) => ({ ...r, status: r.status.replace(/_/g, " ") })), totals: { className: `${rows.length} ${label}`, classCode: `${byClass.size} classes` } };
}

export async function enrolmentListReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<Row>(
    `${SELECT}
     where sc.status in ${LIVE} and c.status = 'active' and coalesce(sc."lessonStartDate", c."startDate", $2::date) <= $2::date and coalesce(sc."endDate", c."endDate", $1::date) >= $1::date
       and ($3::uuid is null or c."companyId" = $3) and ($4::uuid is null or c."branchId" = $4)
     order by c.name, u."fullName"`,
    [f.from, f.to, f.companyId, f.branchId],
  );
  return result(rows, "enrolments");
}

export async function newEnrolmentListReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const { rows } = await db.query<Row>(
    `${SELECT}
     where sc.status <> 'deleted' and c.status = 'active' and sc."createdAt" >= (($1::date)::timestamp at time zone 'Asia/Singapore') and sc."createdAt" < (($2::date + 1)::timestamp at time zone 'Asia/Singapore')
       and not exists (select 1 from student_classes e where e."userId" = sc."userId" and e.status <> 'deleted' and e."createdAt" < sc."createdAt")
       and ($3::uuid is null or c."companyId" = $3) and ($4::uuid is null or c."branchId" = $4)
     order by sc."createdAt", u."fullName"`,
    [f.from, f.to, f.companyId, f.branchId],
  );
  return result(rows, "first-time enrolments");
}

export async function enrolmentsOfUsers(db: Queryable, userIds: readonly string[]): Promise<ReportResult> {
  const { rows } = await db.query<Row>(`${SELECT} where sc."userId" = any($1::uuid[]) and sc.status in ${LIVE} order by u."fullName", c.name`, [userIds]);
  return result(rows, "enrolments");
}
