/**
 * `npm run seed -- --scale N`: opens the database (DATABASE_URL, else the embedded one under DATA_DIR),
 * migrates it, creates the demo data when missing, then adds N students with proportionate classes,
 * lessons, sessions, enrolments (2 per student), lesson students (about 50 per student), payment
 * advices, invoices and receipts with their payments — all in set-based SQL (generate_series), for benchmarks —
 * obeying the money model of FINANCE.md §6 (statuses of the finance service, receipt = payment, invoice = PA).
 * Without --scale it only migrates and seeds the demo data.
 */
import { createHash } from "node:crypto";
import { configFromEnv } from "../config.ts";
import { openDatabase, migrate, type Db, type Queryable } from "./index.ts";
import { seedDemo } from "./seed-demo.ts";
import { backfillLedger } from "../finance/ledgerBackfill.ts";
import { insertRows, money, todaySg, addDays, type Row } from "./seed-util.ts";

export const STUDENTS_PER_CLASS = 15;
export const ENROLMENTS_PER_STUDENT = 2;
export const LESSONS_PER_CLASS = 25; // 2 × 25 = 50 lesson-student rows per student
const BATCH = 2500; // students per batch
const BILLED_LESSONS = 12; // lessons each scale PA bills (the first of its class)
const OVERPAID = 50; // S$ an overpaid scale PA received beyond its total

const FIRST = ["Wei Ming", "Jia Hui", "Arjun", "Siti", "Ethan", "Chloe", "Darren", "Priya", "Marcus", "Hui Min", "Ryan", "Nur Aisyah", "Javier", "Xin Yi", "Kumar", "Megan", "Isaac", "Shu Fen", "Aaron", "Farah"];
const LAST = ["Tan", "Lim", "Lee", "Ng", "Ong", "Wong", "Goh", "Chua", "Koh", "Teo", "Ang", "Yeo", "Tay", "Ho", "Low", "Sim", "Chong", "Rahman", "Pillai", "Singh"];

/** The same uuid as SQL's md5(text)::uuid. */
export function md5Uuid(text: string): string {
  const h = createHash("md5").update(text).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const sqlArray = (items: string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`;

interface Company { id: string; shortName: string }

export interface ScaleResult {
  students: number;
  classes: number;
  lessons: number;
  lessonStudents: number;
  paymentAdvices: number;
  ms: number;
}

/** Adds n students and their proportionate data. tag makes this run's usernames and codes unique. */
export async function seedScale(db: Db, n: number, options: { tag?: string; log?: (line: string) => void; now?: Date } = {}): Promise<ScaleResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const tag = options.tag ?? Date.now().toString(36);
  const today = todaySg(options.now);
  const Y = Number(today.slice(0, 4));
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => db.query<T>(sql, params);

  const companies = (await q<Company>(`select id, "shortName" from companies where status = 'active' order by name`)).rows;
  if (companies.length === 0) throw new Error("No company: seed the demo data first.");
  const nc = companies.length;
  const programs = (await q<{ id: string; companyId: string; programTypeId: string; categoryId: string; category: string; programCode: string }>(
    `select id, "companyId", "programTypeId", "categoryId", category, coalesce("programCode", 'P') as "programCode" from programs where status = 'active' and category in ('regular', 'double_lesson') order by "programCode", id`,
  )).rows;
  const branches = (await q<{ id: string; companyId: string }>(`select id, "companyId" from branches where status = 'active' order by name`)).rows;
  const rooms = (await q<{ id: string; branchId: string }>(`select id, "branchId" from classrooms where status = 'active' order by name`)).rows;
  const calendars = (await q<{ id: string; companyId: string; categoryId: string }>(`select id, "companyId", "categoryId" from academic_calendars where status = 'active' and year = $1 order by name`, [Y])).rows;
  const tutors = (await q<{ id: string }>(`select id from users where type = 'tutor' and status = 'active' order by username`)).rows.map((r) => r.id);

  // ── classes (built here: a few thousand rows) ─────────────────────────────────────────
  const perCompany = Math.max(1, Math.ceil((n * ENROLMENTS_PER_STUDENT) / STUDENTS_PER_CLASS / nc));
  const C = perCompany * nc;
  const classes: Row[] = [];
  for (let i = 0; i < C; i++) {
    const co = companies[i % nc];
    const progs = programs.filter((p) => p.companyId === co.id);
    const prog = progs[Math.floor(i / nc) % progs.length];
    const brs = branches.filter((b) => b.companyId === co.id);
    const br = brs[i % brs.length];
    const cal = calendars.find((c) => c.companyId === co.id && c.categoryId === prog.categoryId) ?? calendars.find((c) => c.companyId === co.id);
    const status = i % 10 === 8 ? "new" : i % 10 === 9 ? "closed" : "open";
    const start = status === "new" ? addDays(today, 7 + (i % 28)) : addDays(`${Y}-01-05`, i % 120);
    classes.push({
      id: md5Uuid(`${tag}:c:${i}`), name: `Scale ${tag} ${prog.programCode} ${i + 1}`, classCode: `SCALE-${tag}-${i + 1}`, classStatus: status,
      classType: prog.category, lessonType: prog.category, classTier: `BL${(i % 4) + 1}`, year: Y, startDate: start, totalLoop: 1, classSize: 20,
      companyId: co.id, branchId: br?.id ?? null, programId: prog.id, programTypeId: prog.programTypeId, academicCalendarId: cal?.id ?? null,
      tutorIds: tutors.length ? [tutors[i % tutors.length]] : [], status: "active",
    });
  }
  await db.transaction((tx) => insertRows(tx, "classes", classes));
  log(`classes: ${C} (${Date.now() - started} ms)`);

  // ── lessons and sessions, set-based ───────────────────────────────────────────────────
  await db.transaction(async (tx) => {
    await skipTriggers(tx);
    const rebuild = await dropSecondaryIndexes(tx, ["lessons", "lesson_sessions"]);
    await tx.query(
      `insert into lessons (id, "classId", "termId", date, "numberWeek", "orderPriority", "lessonStatus", "classroomId", status)
       select md5($1 || ':l:' || i || ':' || k)::uuid, c.id,
              (select t.id from terms t where t."academicCalendarId" = c."academicCalendarId" and c."startDate" + 7 * (k - 1) between t."startDate" and t."endDate" limit 1),
              c."startDate" + 7 * (k - 1), k, k, 'active',
              (select r.id from classrooms r where r."branchId" = c."branchId" order by r.name limit 1), 'active'
       from generate_series(0, $2::int - 1) i
       join classes c on c.id = md5($1 || ':c:' || i)::uuid
       cross join generate_series(1, $3::int) k`,
      [tag, C, LESSONS_PER_CLASS],
    );
    await tx.query(
      `insert into lesson_sessions ("lessonId", "startTime", "endTime", "tutorIds", status)
       select l.id, (l.date + time '16:00') at time zone 'Asia/Singapore', (l.date + time '18:00') at time zone 'Asia/Singapore', c."tutorIds", 'active'
       from classes c join lessons l on l."classId" = c.id where c."classCode" like $1`,
      [`SCALE-${tag}-%`],
    );
    await rebuild();
  });
  void rooms;
  log(`lessons and sessions: ${C * LESSONS_PER_CLASS} (${Date.now() - started} ms)`);

  // class index of student s's enrolment j: same company (s mod nc), spread over its classes
  const classIndex = (s: string, j: string) => `((${s}) % ${nc} + ${nc} * ((2 * ((${s}) / ${nc}) + ${j}) % ${perCompany}))`;
  const classId = (s: string, j: string) => `md5($1 || ':c:' || ${classIndex(s, j)})::uuid`;
  const companyIds = sqlArray(companies.map((c) => c.id));
  const shortNames = sqlArray(companies.map((c) => c.shortName));

  let pas = 0;
  for (let lo = 0; lo < n; lo += BATCH) {
    const hi = Math.min(n, lo + BATCH) - 1;
    const steps: string[] = [];
    let mark = Date.now();
    const step = (name: string) => {
      steps.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)}s`);
      mark = Date.now();
    };
    await db.transaction(async (tx: Queryable) => {
      await skipTriggers(tx);
      // students
      await tx.query(
        `insert into users (id, username, "firstName", "lastName", email, phone, type, role, "multipleRoles", status, "studentId", "companyId", "branchId",
                            parents, "firstParent", "emergencyContact", siblings, subscribe, "payOnline", "curriculumId", "levelId", "schoolId", "currentStep")
         select md5($1 || ':s:' || s)::uuid, 'scale_' || $1 || '_' || s, f, l, 'scale_' || $1 || '_' || s || '@student.demo.centre.sg',
                jsonb_build_object('code', '+65', 'number', (80000000 + (s::bigint * 7919) % 19999999)::text), 'student', 'student', '["student"]'::jsonb,
                'active', 'X' || $1 || '-' || s, co, (select b.id from branches b where b."companyId" = co order by b.name limit 1),
                jsonb_build_array(jsonb_build_object('relationship', 'mother', 'email', 'parent_' || $1 || '_' || s || '@example.com', 'firstName', pf, 'lastName', l,
                  'occupation', 'Engineer', 'phone', jsonb_build_object('code', '+65', 'number', (90000000 + (s::bigint * 104729) % 9999999)::text), 'primaryContact', true, 'isEmergencyContact', true)),
                jsonb_build_object('relationship', 'mother', 'firstName', pf, 'lastName', l),
                jsonb_build_object('firstName', pf, 'lastName', l, 'phone', jsonb_build_object('code', '+65', 'number', (90000000 + (s::bigint * 104729) % 9999999)::text)),
                '[]'::jsonb, s % 13 <> 5, s % 4 = 0,
                (select c.id from curriculums c where c."companyId" = co order by c.abbreviation offset (s % 4) limit 1),
                (select v.id from levels v where v."companyId" = co order by v."order" offset (s % 6) limit 1),
                (select h.id from schools h order by h.name offset (s % 10) limit 1), 3
         from generate_series($2::int, $3::int) s,
              lateral (select (${companyIds})[1 + s % ${nc}]::uuid as co, (${sqlArray(FIRST)})[1 + s % ${FIRST.length}] as f,
                              (${sqlArray(LAST)})[1 + (s / ${FIRST.length}) % ${LAST.length}] as l, (${sqlArray(FIRST)})[1 + (s * 7) % ${FIRST.length}] as pf) x`,
        [tag, lo, hi],
      );
      step("users");
      // enrolments
      await tx.query(
        `insert into student_classes (id, "userId", "classId", status, type, "termsRef", "lessonStartDate")
         select md5($1 || ':e:' || s || ':' || j)::uuid, md5($1 || ':s:' || s)::uuid, c.id,
                case c."classStatus" when 'closed' then 'completed' when 'new' then 'pending' else 'enrolled' end, 'enrollment', '[]'::jsonb, c."startDate"
         from generate_series($2::int, $3::int) s cross join generate_series(0, 1) j
         join classes c on c.id = ${classId("s", "j")}`,
        [tag, lo, hi],
      );
      step("enrolments");
      // payment advices (one per enrolment), numbered after the company's counter
      const pa = await tx.query(
        `with src as (
           select s, j, c.id as "classId", c."companyId", c."branchId", c."startDate",
                  (array['paid','paid','paid','paid','paid','paid','paid','paid','paid','paid','paid','paid','unpaid','unpaid','unpaid','unpaid','unpaid','draft','voided','overpaid'])[1 + (s * 2 + j) % 20] as st,
                  coalesce(p."pricePerLesson", 50.00) as unit, coalesce(p."pricePerLesson", 50.00) * ${BILLED_LESSONS} as fee,
                  ${classIndex("s", "j")} as ci,
                  greatest(least(c."startDate", $5::date) - 7, make_date($4::int, 1, 1)) as issued
           from generate_series($2::int, $3::int) s cross join generate_series(0, 1) j
           join classes c on c.id = ${classId("s", "j")}
           left join academic_program_type_pricings p on p."academicCalendarId" = c."academicCalendarId" and p."programTypeId" = c."programTypeId" and p."companyId" = c."companyId" and p.status = 'active'
         ), numbered as (
           select src.*, case when st = 'draft' then null else
                    coalesce((select d."lastNumber" from document_counters d where d."companyId" = src."companyId" and d.year = $4::int and d."documentType" = 'payment_advice'), 0)
                    + row_number() over (partition by "companyId", st = 'draft' order by s, j) end as no
           from src
         )
         insert into payment_advices (id, name, "paymentStatus", type, "companyId", "branchId", "studentId", "issueDate", "dueDate", "qrExpiryDate", "hasExpiryDate",
                                      "classInformations", gst, "paymentSummaryStatic", summary, "paidAt", status)
         select md5($1 || ':pa:' || s || ':' || j)::uuid,
                case when no is null then null else 'PA-' || (${shortNames})[array_position(${companyIds}::uuid[], "companyId")] || '-' || $4 || '-' || case when no < 100000 then lpad(no::text, 5, '0') else no::text end end,
                st, 'normal', "companyId", "branchId", md5($1 || ':s:' || s)::uuid,
                issued, issued + 14, issued + 44, true,
                -- the card as the finance service stores it: the lessons billed and the class total (FINANCE.md §3)
                jsonb_build_array(jsonb_build_object('id', "classId", 'lessonStartDate', "startDate", 'termIds', '[]'::jsonb, 'discountIds', '[]'::jsonb,
                  'responses', jsonb_build_object('lessons', ${BILLED_LESSONS}, 'unitPrice', unit::numeric(12,2)::text, 'classBase', fee::numeric(12,2)::text, 'totalDiscount', '0.00', 'total', fee::numeric(12,2)::text,
                    'lessonIds', (select jsonb_agg(md5($1 || ':l:' || ci || ':' || k)::uuid order by k) from generate_series(1, ${BILLED_LESSONS}) k)))), 0,
                jsonb_build_object('classFee', fee::numeric(12,2)::text, 'registrationFee', '0.00', 'materialFee', '0.00', 'otherPayment', '0.00', 'deduction', '0.00',
                  'deductedDeposit', '0.00', 'totalBeforeGst', fee::numeric(12,2)::text, 'gst', '0.00', 'totalAfterGst', fee::numeric(12,2)::text, 'deposit', '0.00',
                  'totalPayable', fee::numeric(12,2)::text, 'gstConfig', jsonb_build_object('percentage', 0)),
                jsonb_build_object('registrationFee', '0.00', 'total', fee::numeric(12,2)::text),
                case when st in ('paid', 'overpaid') then (least(issued + 2, $5::date)::timestamp at time zone 'Asia/Singapore') end, 'active'
         from numbered`,
        [tag, lo, hi, Y, today],
      );
      pas += pa.rowCount;
      await bumpCounter(tx, "payment_advice", "PA-%", Y);
      step("payment advices");
      // invoices for every issued PA
      await tx.query(
        `with src as (
           select p.id as pa, p."companyId", p."studentId", p."issueDate", p."paymentStatus", (p."paymentSummaryStatic"->>'totalPayable')::numeric(12,2) as total,
                  coalesce((select d."lastNumber" from document_counters d where d."companyId" = p."companyId" and d.year = $2::int and d."documentType" = 'invoice'), 0)
                  + row_number() over (partition by p."companyId" order by p.id) as no
           from generate_series($3::int, $4::int) s cross join generate_series(0, 1) j
           join payment_advices p on p.id = md5($1 || ':pa:' || s || ':' || j)::uuid
           where p."paymentStatus" <> 'draft'
         )
         insert into invoices (id, name, "invoiceDate", total, "paidAmount", "invoiceStatus", "isGeneratedReceipt", "paymentAdviceId", "companyId", "studentId", reasons, status)
         select md5($1 || ':inv:' || pa)::uuid,
                'INV-' || (${shortNames})[array_position(${companyIds}::uuid[], "companyId")] || '-' || $2 || '-' || case when no < 100000 then lpad(no::text, 5, '0') else no::text end,
                "issueDate", total, case "paymentStatus" when 'paid' then total when 'overpaid' then total + ${OVERPAID} else 0 end,
                case "paymentStatus" when 'paid' then 'paid' when 'overpaid' then 'overpaid' when 'voided' then 'voided' else 'active' end,
                "paymentStatus" in ('paid', 'overpaid'), pa, "companyId", "studentId", case when "paymentStatus" = 'voided' then 'Issued with the wrong class' end, 'active'
         from src`,
        [tag, Y, lo, hi],
      );
      await bumpCounter(tx, "invoice", "INV-%", Y);
      step("invoices");
      // receipts for paid invoices, each with its payment (as the finance service records one: FINANCE.md §4)
      await tx.query(
        `with src as (
           select i.id as inv, i."paymentAdviceId", i."companyId", i."studentId", i."paidAmount", p."branchId", (p."paidAt" at time zone 'Asia/Singapore')::date as day,
                  coalesce((select d."lastNumber" from document_counters d where d."companyId" = i."companyId" and d.year = $2::int and d."documentType" = 'receipt'), 0)
                  + row_number() over (partition by i."companyId" order by i.id) as no
           from generate_series($3::int, $4::int) s cross join generate_series(0, 1) j
           join invoices i on i.id = md5($1 || ':inv:' || md5($1 || ':pa:' || s || ':' || j)::uuid)::uuid
           join payment_advices p on p.id = i."paymentAdviceId"
           where i."invoiceStatus" in ('paid', 'overpaid')
         ), rc as (
           insert into receipts (id, name, "receiptDate", amount, "paymentMethod", "invoiceId", "paymentAdviceId", "companyId", "branchId", "studentId", status)
           select md5($1 || ':rc:' || inv)::uuid,
                  'RC-' || (${shortNames})[array_position(${companyIds}::uuid[], "companyId")] || '-' || $2 || '-' || case when no < 100000 then lpad(no::text, 5, '0') else no::text end,
                  day, "paidAmount", (array['cash','nets','cheque','credit_card','interbank_transfer','qr_code'])[1 + no % 6], inv, "paymentAdviceId", "companyId", "branchId", "studentId", 'active'
           from src
           returning id, "invoiceId", amount, "paymentMethod", "receiptDate"
         )
         insert into invoice_payments ("invoiceId", "receiptId", amount, "paymentMethod", "transactionStatus", "paidAt", status)
         select "invoiceId", id, amount, "paymentMethod", 'success', "receiptDate"::timestamp at time zone 'Asia/Singapore', 'active' from rc`,
        [tag, Y, lo, hi],
      );
      await bumpCounter(tx, "receipt", "RC-%", Y);
      step("receipts");
    });
    log(`students ${lo + 1}–${hi + 1} of ${n} (${Date.now() - started} ms: ${steps.join(", ")})`);
  }

  // ── lesson students: every lesson of both classes (about 50 per student), one transaction
  // with the secondary indexes rebuilt once at the end (much faster than maintaining them per row)
  let lessonStudents = 0;
  await db.transaction(async (tx) => {
    await skipTriggers(tx);
    const rebuild = await dropSecondaryIndexes(tx, ["lessons_students"]);
    for (let lo = 0; lo < n; lo += BATCH) {
      const hi = Math.min(n, lo + BATCH) - 1;
      const r = await tx.query(
        `insert into lessons_students ("lessonId", "studentId", "studentClassId", type, status, "hasAttended", "entryTime")
         select l.id, md5($1 || ':s:' || s)::uuid, md5($1 || ':e:' || s || ':' || j)::uuid, 'enrolled',
                case when a then 'attended' else 'not_attended' end, a,
                case when a then (l.date + time '15:55') at time zone 'Asia/Singapore' end
         from generate_series($2::int, $3::int) s cross join generate_series(0, 1) j
         join lessons l on l."classId" = ${classId("s", "j")}
         cross join lateral (select l.date < $4::date and (l."numberWeek" * 31 + s * 17) % 100 < 86 as a) x`,
        [tag, lo, hi, today],
      );
      lessonStudents += r.rowCount;
      log(`lesson students for students ${lo + 1}–${hi + 1}: ${lessonStudents} rows (${Date.now() - started} ms)`);
    }
    await rebuild();
    log(`lesson-student indexes rebuilt (${Date.now() - started} ms)`);
  });
  // the documents above are raw rows: the ledger gets the entries they imply (FINANCE.md §6, §7)
  const entries = await backfillLedger(db);
  log(`ledger: ${entries} entries for the new documents (${Date.now() - started} ms)`);
  await rebuildReportSums(db);
  log(`report sums rebuilt (${Date.now() - started} ms)`);
  return { students: n, classes: C, lessons: C * LESSONS_PER_CLASS, lessonStudents, paymentAdvices: pas, ms: Date.now() - started };
}

/**
 * The sums the reports read, kept by triggers the bulk rows skipped (attendance per month and per year, migrations
 * 1763700730000 and 1763700822000;
 * the PA listing per issue day, 1763700771000): counted again from every row, as the migrations first filled them.
 */
async function rebuildReportSums(db: Db) {
  await db.transaction(async (tx) => {
    await tx.query("delete from app_internal.attendance_months");
    await tx.query("delete from app_internal.attendance_years");
    await tx.query("delete from app_internal.pa_listing_days");
    await tx.query(`do $$ begin
      execute app_internal.attendance_months_sql(1, 'lessons_students', 'lessons');
      execute app_internal.pa_listing_days_sql(1, 'payment_advices');
    end $$`);
  });
}

/**
 * Bulk rows built consistently by construction: skip the per-row foreign-key and change triggers for
 * this transaction when the role may (PGlite, a superuser); otherwise keep them (slower, same result).
 */
async function skipTriggers(tx: Queryable) {
  await tx.query("savepoint skip_triggers");
  try {
    await tx.query("set local session_replication_role = replica");
    await tx.query("release savepoint skip_triggers");
  } catch {
    await tx.query("rollback to savepoint skip_triggers");
  }
}

/**
 * Drops the indexes of the tables that back no constraint (inside the caller's transaction, so a
 * failure restores them) and returns the function that recreates them, each built once by sorting.
 */
async function dropSecondaryIndexes(tx: Queryable, tables: string[]): Promise<() => Promise<void>> {
  const r = await tx.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
     where i.indrelid = any($1::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables.map((t) => `public.${t}`)],
  );
  for (const { name } of r.rows) await tx.query(`drop index ${name}`);
  return async () => {
    await tx.query("set local maintenance_work_mem = '256MB'");
    for (const { def } of r.rows) await tx.query(def);
  };
}

/** Moves each company's counter for a document type up to the highest number issued this year. */
async function bumpCounter(tx: Queryable, documentType: string, like: string, year: number) {
  const table = { payment_advice: "payment_advices", invoice: "invoices", receipt: "receipts" }[documentType]!;
  await tx.query(
    `insert into document_counters ("companyId", year, "documentType", "lastNumber")
     select "companyId", $1::int, $2, max(substring(name from '-([0-9]+)$')::int) from ${table}
     where name like $3 and name ~ ('-' || $1::text || '-[0-9]+$') group by "companyId"
     on conflict ("companyId", year, "documentType") do update set "lastNumber" = greatest(document_counters."lastNumber", excluded."lastNumber")`,
    [year, documentType, like],
  );
}

function parseScale(argv: string[]): number | undefined {
  const i = argv.findIndex((a) => a === "--scale" || a.startsWith("--scale="));
  if (i < 0) return undefined;
  const raw = argv[i].includes("=") ? argv[i].split("=")[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--scale needs a whole number of students, got ${raw}`);
  return n;
}

async function main() {
  const started = Date.now();
  const config = configFromEnv();
  const scale = parseScale(process.argv.slice(2));
  const db = await openDatabase(config);
  try {
    const { applied, total } = await migrate(db);
    console.log(`Migrations: ${applied.length} applied, ${total} in all.`);
    const created = await seedDemo(db);
    console.log(created ? `Demo data created (${Date.now() - started} ms).` : "Demo data already present.");
    if (scale) {
      const r = await seedScale(db, scale, { log: (l) => console.log(`  ${l}`) });
      console.log(
        `Added ${r.students} students, ${r.classes} classes, ${r.lessons} lessons, ${r.lessonStudents} lesson students, ${r.paymentAdvices} payment advices in ${(r.ms / 1000).toFixed(1)} s.`,
      );
    }
    console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("seed-cli.ts")) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}

export { money };
