import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/types.ts";
import { seedScale, ENROLMENTS_PER_STUDENT, LESSONS_PER_CLASS } from "../../server/db/seed-cli.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { moneyModelViolations } from "../support/moneyModel.ts";
import { reconcile } from "../../server/finance/reconcile.ts";

async function one<T>(db: Db, sql: string, params: unknown[] = []): Promise<T> {
  return (await db.query<Record<string, T>>(sql, params)).rows[0].v;
}

for (const lane of databaseLanes()) {
  describe(`scale generator (${lane})`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDb(lane);
    });
    afterAll(async () => {
      await db?.close();
    });

    it("adds N students with proportionate, consistent data and keeps every index", async () => {
      const indexesBefore = await one<number>(db, "select count(*)::int as v from pg_indexes where schemaname = 'public'");
      const usersBefore = await one<number>(db, "select count(*)::int as v from users");
      const n = 40;
      const r = await seedScale(db, n, { tag: "t1" });
      expect(r.students).toBe(n);
      expect(await one<number>(db, "select count(*)::int as v from users") - usersBefore).toBe(n);
      expect(await one<number>(db, "select count(*)::int as v from users where username like 'scale_t1_%' and role = 'student'")).toBe(n);
      expect(r.lessonStudents).toBe(n * ENROLMENTS_PER_STUDENT * LESSONS_PER_CLASS);
      expect(await one<number>(db, `select count(*)::int as v from lessons_students ls join users u on u.id = ls."studentId" where u.username like 'scale_t1_%'`)).toBe(r.lessonStudents);
      expect(await one<number>(db, `select count(*)::int as v from student_classes e join users u on u.id = e."userId" where u.username like 'scale_t1_%'`)).toBe(n * ENROLMENTS_PER_STUDENT);
      expect(r.paymentAdvices).toBe(n * ENROLMENTS_PER_STUDENT);
      expect(await one<number>(db, `select count(*)::int as v from receipts rc join users u on u.id = rc."studentId" where u.username like 'scale_t1_%'`)).toBeGreaterThan(0);
      // the triggers were skipped for speed: the foreign keys must still hold by construction
      expect(await one<number>(db, `select count(*)::int as v from lessons_students ls left join lessons l on l.id = ls."lessonId" left join student_classes e on e.id = ls."studentClassId" where l.id is null or e.id is null`)).toBe(0);
      expect(await one<number>(db, `select count(*)::int as v from student_classes e left join classes c on c.id = e."classId" left join users u on u.id = e."userId" where c.id is null or u.id is null`)).toBe(0);
      // enrolments stay within the student's company
      expect(await one<number>(db, `select count(*)::int as v from student_classes e join classes c on c.id = e."classId" join users u on u.id = e."userId" where c."companyId" <> u."companyId"`)).toBe(0);
      // document numbers continue the counters
      const stale = await one<number>(db, `
        select count(*)::int as v from document_counters c
        where c."documentType" = 'payment_advice' and c."lastNumber" < (select max(split_part(name, '-', 4)::int) from payment_advices p where p."companyId" = c."companyId" and p.name is not null)`);
      expect(stale).toBe(0);
      expect(await one<number>(db, "select count(*)::int as v from pg_indexes where schemaname = 'public'")).toBe(indexesBefore);

      // a second run adds more without clashing
      const again = await seedScale(db, 10, { tag: "t2" });
      expect(again.students).toBe(10);
      expect(await one<number>(db, "select count(*)::int as v from users where username like 'scale_t2_%'")).toBe(10);
      // the money model of FINANCE.md §6 holds over the demo and both scale runs
      expect(await moneyModelViolations(db)).toEqual({});
      // the reports' sums kept by triggers (skipped by the bulk rows) count the new students' seats and PAs too
      const added = (await db.query<{ id: string }>(`select id from users where username like 'scale_t_%'`)).rows.map((r) => r.id);
      expect((await reconcile(db, added)).filter((d) => /^(attendance|PA listing)/.test(d.check))).toEqual([]);
    });
  });
}
