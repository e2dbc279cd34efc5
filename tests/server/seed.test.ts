import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/types.ts";
import { seedDemo, demoAccounts, demoAccountsText, DEMO_PASSWORD, STAFF_ROLES } from "../../server/db/seed-demo.ts";
import { verifyPassword } from "../../server/auth/passwords.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";

async function counts(db: Db): Promise<Record<string, number>> {
  const tables = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows.map((r) => r.t);
  const sql = tables.map((t) => `select '${t}' as t, count(*)::int as n from public.${t}`).join(" union all ");
  return Object.fromEntries((await db.query<{ t: string; n: number }>(sql)).rows.map((r) => [r.t, r.n]));
}
async function values(db: Db, sql: string): Promise<string[]> {
  return (await db.query<{ v: string }>(sql)).rows.map((r) => r.v);
}

for (const lane of databaseLanes()) {
  describe(`demo seed (${lane})`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDb(lane); // the template is already migrated and seeded
    });
    afterAll(async () => {
      await db?.close();
    });

    it("is idempotent: a second run returns false and changes nothing", async () => {
      const before = await counts(db);
      expect(await seedDemo(db)).toBe(false);
      expect(await counts(db)).toEqual(before);
    });

    it("has the organisation and programme data", async () => {
      const n = await counts(db);
      expect(n.companies).toBe(2);
      expect(n.branches).toBeGreaterThanOrEqual(3);
      const roomless = await db.query(`select b.id from branches b where not exists (select 1 from classrooms c where c."branchId" = b.id)`);
      expect(roomless.rows).toEqual([]);
      expect(new Set(await values(db, "select abbreviation as v from curriculums"))).toEqual(new Set(["A", "IP", "EXP", "IB"]));
      expect(new Set(await values(db, "select abbreviation as v from levels"))).toEqual(new Set(["J1", "J2", "S1", "S2", "S3", "S4"]));
      expect(n.subjects).toBeGreaterThan(0);
      expect(n.curriculums_levels).toBeGreaterThan(0);
      expect(await values(db, `select code as v from categories order by "sortOrder"`)).toEqual(["regular", "double_lesson", "special", "others"]);
      expect(n.program_types).toBeGreaterThan(0);
      expect(n.programs).toBeGreaterThan(0);
      const year = String(new Date().getFullYear());
      expect(await values(db, "select distinct year::text as v from academic_calendars")).toEqual([year]);
      expect(n.terms).toBeGreaterThan(0);
      expect(n.holidays).toBeGreaterThan(0);
      expect(n.academic_program_type_pricings).toBeGreaterThan(0);
      expect(n.special_class_pricings).toBeGreaterThan(0);
    });

    it("has at least 20 classes in new/open/closed with lessons and sessions", async () => {
      expect((await counts(db)).classes).toBeGreaterThanOrEqual(20);
      expect(new Set(await values(db, `select distinct "classStatus" as v from classes`))).toEqual(new Set(["new", "open", "closed"]));
      const lessonless = await db.query(`select id from classes c where not exists (select 1 from lessons l where l."classId" = c.id)`);
      expect(lessonless.rows).toEqual([]);
      const sessionless = await db.query(`select id from lessons l where not exists (select 1 from lesson_sessions s where s."lessonId" = l.id)`);
      expect(sessionless.rows).toEqual([]);
    });

    it("has at least 60 students with parents, emergency contacts, enrolments and attendance", async () => {
      const r = await db.query<{ students: number; withParents: number; withEmergency: number; enrolled: number; attended: number }>(`
        select count(*)::int as students,
          count(*) filter (where jsonb_array_length(parents) > 0)::int as "withParents",
          count(*) filter (where "emergencyContact" ? 'phone')::int as "withEmergency",
          count(*) filter (where exists (select 1 from student_classes e where e."userId" = u.id))::int as enrolled,
          count(*) filter (where exists (select 1 from lessons_students ls where ls."studentId" = u.id and ls.status = 'attended'))::int as attended
        from users u where role = 'student' and type = 'student'`);
      const s = r.rows[0];
      expect(s.students).toBeGreaterThanOrEqual(60);
      expect(s.withParents).toBe(s.students);
      expect(s.withEmergency).toBe(s.students);
      expect(s.enrolled).toBeGreaterThanOrEqual(60);
      expect(s.attended).toBeGreaterThanOrEqual(60);
      const parent = (await db.query<{ p: Record<string, unknown> }>(`select parents->0 as p from users where role = 'student' limit 1`)).rows[0].p;
      expect(Object.keys(parent).sort()).toEqual(["email", "firstName", "isEmergencyContact", "lastName", "occupation", "phone", "primaryContact", "relationship"]);
    });

    it("has finance data in every payment advice status, with invoices, receipts, credit notes and refunds", async () => {
      // Overdue is never stored (FINANCE.md §4): it is an unpaid PA past its due day.
      expect(new Set(await values(db, `select distinct "paymentStatus" as v from payment_advices`))).toEqual(
        new Set(["draft", "paid", "unpaid", "voided", "overpaid", "withdrawn"]),
      );
      expect((await values(db, `select id as v from payment_advices where "paymentStatus" = 'unpaid' and "dueDate" < current_date`)).length).toBeGreaterThan(0);
      const n = await counts(db);
      expect(n.invoices).toBeGreaterThan(0);
      expect(n.receipts).toBeGreaterThan(0);
      expect(n.invoice_payments).toBeGreaterThan(0);
      expect(n.deposits).toBeGreaterThan(0);
      expect(n.payment_advice_logs).toBeGreaterThan(0);
      expect((await values(db, `select distinct "creditNoteStatus" as v from credit_notes`)).length).toBeGreaterThanOrEqual(3);
      expect((await values(db, `select distinct "refundStatus" as v from refunds`)).length).toBeGreaterThanOrEqual(3);
      expect((await values(db, `select distinct type as v from discounts`)).length).toBeGreaterThanOrEqual(3);
      const waive = await db.query<{ value: { startDate: string; endDate: string } }>(`select value from system_settings where key = 'waivePeriod' and type = 'fee'`);
      expect(waive.rows).toHaveLength(1);
      expect(waive.rows[0].value.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(waive.rows[0].value.endDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((await values(db, `select key as v from system_settings where type = 'deposit'`)).length).toBeGreaterThan(0);
      expect((await values(db, `select key as v from system_settings where type = 'gst'`)).length).toBeGreaterThan(0);
      // money snapshots are two-decimal strings, never floats
      const badMoney = await db.query(`select id from payment_advices where ("paymentSummaryStatic"->>'totalPayable') !~ '^-?[0-9]+\\.[0-9]{2}$'`);
      expect(badMoney.rows).toEqual([]);
      // every document counter is at the highest number issued
      const counters = await db.query<{ ok: boolean }>(`
        select bool_and(c."lastNumber" = (
          select max(split_part(d.name, '-', 4)::int) from (
            select name, "companyId", 'payment_advice' as t from payment_advices union all
            select name, "companyId", 'invoice' from invoices union all select name, "companyId", 'receipt' from receipts union all
            select name, "companyId", 'credit_note' from credit_notes union all select name, "companyId", 'refund' from refunds union all
            select name, "companyId", 'deposit' from deposits) d
          where d.t = c."documentType" and d."companyId" = c."companyId" and d.name is not null)) as ok
        from document_counters c`);
      expect(counters.rows[0].ok).toBe(true);
    });

    it("has communication, content, enquiries and referrals", async () => {
      const n = await counts(db);
      for (const t of ["broadcasts", "broadcast_logs", "news", "news_logs", "posts", "content_categories", "menus", "resource_posts", "resource_categories", "surveys", "enquiries", "referrals", "gantry_records"]) {
        expect(n[t], t).toBeGreaterThan(0);
      }
    });

    it("has a roles row for every role and one active demo account per role, sharing the demo password", async () => {
      expect(new Set(await values(db, "select name as v from roles"))).toEqual(new Set([...STAFF_ROLES, "student", "parent", "tutor"]));
      const accounts = await db.query<{ username: string; role: string; multipleRoles: string[]; status: string; email: string; passwordHash: string }>(
        `select u.username, u.role, u."multipleRoles", u.status, u.email, c."passwordHash" from users u join user_credentials c on c."userId" = u.id`,
      );
      const byName = new Map(accounts.rows.map((a) => [a.username, a]));
      for (const a of demoAccounts()) {
        const row = byName.get(a.username);
        expect(row, a.username).toBeDefined();
        expect(row!.multipleRoles).toEqual(a.roles);
        expect(row!.role).toBe(a.roles[a.roles.length - 1]);
        expect(row!.status).toBe("active");
        expect(row!.email).toBe(`${a.username}@demo.centre.sg`);
      }
      expect(byName.get("multi_role")!.multipleRoles).toEqual(["front_desk", "hod"]);
      expect(byName.get("multi_role")!.role).toBe("hod");
      const hashes = new Set(accounts.rows.map((a) => a.passwordHash));
      expect(hashes.size).toBe(1);
      expect(await verifyPassword([...hashes][0], DEMO_PASSWORD)).toBe(true);
      const text = demoAccountsText();
      for (const a of demoAccounts()) expect(text).toContain(a.username);
      expect(text).toContain(DEMO_PASSWORD);
    });
  });
}
