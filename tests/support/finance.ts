/**
 * Finance test fixtures over the demo data: open regular classes of one company (one per programme, each
 * with a term of active lessons), a student of that company, and a PA issued through the real calls.
 */
import { expect } from "vitest";
import { api, type TestServer } from "./auth.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";

export interface ClassPick { id: string; companyId: string; branchId: string; termId: string; start: string; programId: string }

export async function pickClasses(server: TestServer, companyShortName = "BME"): Promise<ClassPick[]> {
  const { rows } = await server.db.query<ClassPick>(
    `select distinct on (c."programId") c.id, c."companyId", c."branchId", c."programId", l."termId" as "termId", min(l.date)::text as start
     from classes c join lessons l on l."classId" = c.id and l."lessonStatus" = 'active' and l.status = 'active' and l."termId" is not null
     where c."classType" = 'regular' and c."classStatus" = 'open' and c.status = 'active'
       and c."companyId" = (select id from companies where "shortName" = $1)
     group by c.id, l."termId" order by c."programId", count(*) desc, c.id`,
    [companyShortName],
  );
  return rows;
}

export async function studentsOf(server: TestServer, companyId: string, count: number): Promise<string[]> {
  const { rows } = await server.db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' and "companyId" = $1 order by username limit $2`, [companyId, count]);
  return rows.map((r) => r.id);
}

const plusDays = (n: number) => new Date(Date.parse(`${todayInSingapore()}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);

export function paFields(c: ClassPick, studentId: string, entryOver: Record<string, unknown> = {}) {
  return {
    studentId, companyId: c.companyId, branchId: c.branchId, issueDate: todayInSingapore(), dueDate: plusDays(14), qrExpiryDate: plusDays(30), hasExpiryDate: true,
    isRegistrationFee: false, gst: 9, remarks: null,
    classInformations: [{
      id: c.id, lessonStartDate: c.start, termIds: [c.termId], discountIds: [], quantityAdditionalLesson: 0, additionalDiscount: 0, booterClassIds: [],
      otherPayments: [], deductions: [], deposits: [], deductedDeposit: [], isDeductedDeposit: false, ...entryOver,
    }],
  };
}

/** A draft made and issued by `token`'s user: the PA record as the issue call replies it. */
export async function issuedPa(server: TestServer, token: string, c: ClassPick, studentId: string, entryOver: Record<string, unknown> = {}) {
  const fields = paFields(c, studentId, entryOver);
  const draft = await api(server.app, "POST", "/finances/payment-advices/init", token, fields);
  expect(draft.statusCode, draft.body).toBe(201);
  const issued = await api(server.app, "PUT", `/finances/payment-advices/${draft.json().data.id}`, token, { ...fields, action: "issue", updatedAt: draft.json().data.updatedAt });
  expect(issued.statusCode, issued.body).toBe(200);
  return issued.json().data as { id: string; name: string; companyId: string; studentId: string; summary: { total: string }; updatedAt: string };
}

export interface Enrolment extends ClassPick { studentId: string; lessons: Array<{ id: string; date: string }> }

/**
 * Students enrolled in an open regular class of the company, each with at least `minLessons` lessons of one
 * term still ahead and not attended (what a suspension or a withdrawal acts on), one student per class.
 */
export async function enrolmentsWithLessonsAhead(server: Pick<TestServer, "db">, count: number, minLessons = 4, companyShortName = "BME"): Promise<Enrolment[]> {
  const { rows } = await server.db.query<ClassPick & { studentId: string; lessons: Array<{ id: string; date: string }> }>(
    `select distinct on (c.id) c.id, c."companyId", c."branchId", c."programId", l."termId", sc."userId" as "studentId",
       (select min(x.date)::text from lessons x where x."classId" = c.id and x."termId" = l."termId" and x.status = 'active' and x."lessonStatus" = 'active') as start,
       json_agg(json_build_object('id', l.id, 'date', l.date::text) order by l.date) as lessons
     from student_classes sc join classes c on c.id = sc."classId"
       join lessons_students ls on ls."studentId" = sc."userId" and ls.type = 'enrolled' and ls.status = 'not_attended'
       join lessons l on l.id = ls."lessonId" and l."classId" = c.id and l.status = 'active' and l."lessonStatus" = 'active' and l."termId" is not null
         and l.date > (now() at time zone 'Asia/Singapore')::date
       join users u on u.id = sc."userId" and u.status = 'active' and u."companyId" = c."companyId"
     where sc.status = 'enrolled' and c."classType" = 'regular' and c."classStatus" = 'open' and c.status = 'active'
       and c."companyId" = (select id from companies where "shortName" = $1)
     group by c.id, l."termId", sc."userId" having count(*) >= $2
     order by c.id, count(*) desc`,
    [companyShortName, minLessons],
  );
  const seen = new Set<string>();
  const picked = rows.filter((r) => !seen.has(r.studentId) && seen.add(r.studentId)).slice(0, count);
  expect(picked.length, "enrolled students with lessons ahead in the demo data").toBe(count);
  return picked;
}
