/**
 * What the finance service prices with, read from the database (never from the browser): classes with
 * their lessons, terms and unit price; discounts; the fee, deposit and GST settings.
 */
import type { Queryable } from "../db/index.ts";
import { numericToCents, type Cents } from "../../src/domain/money.ts";
import type { CardLesson, CardTerm } from "../../src/domain/finance/classCard.ts";
import type { DiscountRule } from "../../src/domain/finance/discounts.ts";
import type { PricedClass } from "../../src/domain/finance/paymentAdvice.ts";
import type { WaiverPeriod } from "../../src/domain/finance/registrationFee.ts";
import { isGstPercent, type GstPercent } from "../../src/domain/finance/summary.ts";

const cents = (v: unknown): Cents => numericToCents(v as string | number | null) ?? 0;

export interface ClassRow {
  id: string;
  name: string;
  classType: string;
  classStatus: string;
  status: string;
  companyId: string | null;
  branchId: string | null;
  programId: string | null;
  programTypeId: string | null;
  academicCalendarId: string | null;
  startDate: string | null;
  program: { companyId: string | null; curriculumIds: string[]; levelIds: string[]; subjectId: string | null; cate: { code: string | null } } | null;
}

export interface LoadedClass extends PricedClass {
  row: ClassRow;
}

/**
 * A student is "new" for special-class pricing until they have a paid (or overpaid) payment advice;
 * then "existing" (docs/DECISIONS.md).
 */
export async function studentType(db: Queryable, studentId: string, exceptPaId: string | null = null): Promise<"new" | "existing"> {
  const { rows } = await db.query(
    `select 1 from payment_advices where "studentId" = $1 and "paymentStatus" in ('paid', 'overpaid') and status <> 'deleted' and ($2::uuid is null or id <> $2::uuid) limit 1`,
    [studentId, exceptPaId],
  );
  return rows.length ? "existing" : "new";
}

/** Classes by id with lessons, calendar terms and unit price for this student type. Unknown ids are absent. */
export async function loadClasses(db: Queryable, classIds: readonly string[], type: "new" | "existing"): Promise<Map<string, LoadedClass>> {
  const ids = [...new Set(classIds)];
  const out = new Map<string, LoadedClass>();
  if (!ids.length) return out;
  const { rows: classes } = await db.query<ClassRow>(
    `select c.id, c.name, c."classType", c."classStatus", c.status, c."companyId", c."branchId", c."programId", c."programTypeId", c."academicCalendarId", c."startDate"::text as "startDate",
       case when p.id is null then null else json_build_object('companyId', p."companyId", 'curriculumIds', p."curriculumIds", 'levelIds', p."levelIds", 'subjectId', p."subjectId",
         'cate', json_build_object('code', p.category)) end as program
     from classes c left join programs p on p.id = c."programId" where c.id = any($1::uuid[])`,
    [ids],
  );
  if (!classes.length) return out;
  const { rows: lessons } = await db.query<CardLesson & { classId: string }>(
    `select id, "classId", date::text as date, "termId", "lessonStatus", status from lessons where "classId" = any($1::uuid[]) order by date, id`,
    [ids],
  );
  const calendars = [...new Set(classes.map((c) => c.academicCalendarId).filter((x): x is string => Boolean(x)))];
  const { rows: terms } = await db.query<CardTerm & { academicCalendarId: string }>(
    `select id, name, "startDate"::text as "startDate", "endDate"::text as "endDate", "academicCalendarId" from terms
     where "academicCalendarId" = any($1::uuid[]) and status <> 'deleted' order by "startDate", id`,
    [calendars],
  );
  const { rows: prices } = await db.query<{ academicCalendarId: string; programTypeId: string; companyId: string; pricePerLesson: string }>(
    `select "academicCalendarId", "programTypeId", "companyId", "pricePerLesson"::text as "pricePerLesson" from academic_program_type_pricings
     where "academicCalendarId" = any($1::uuid[]) and status <> 'deleted'`,
    [calendars],
  );
  const { rows: special } = await db.query<{ classId: string | null; programId: string | null; companyId: string | null; pricePerStudent: string }>(
    `select "classId", "programId", "companyId", "pricePerStudent"::text as "pricePerStudent" from special_class_pricings
     where status = 'active' and "studentType" = $2 and ("classId" = any($1::uuid[]) or ("classId" is null and "programId" in (select "programId" from classes where id = any($1::uuid[]))))`,
    [ids, type],
  );
  for (const c of classes) {
    let unitPrice: Cents = 0;
    if (c.classType === "special" || c.classType === "others") {
      const own = special.find((s) => s.classId === c.id) ?? special.find((s) => !s.classId && s.programId === c.programId && (!s.companyId || s.companyId === c.companyId));
      unitPrice = own ? cents(own.pricePerStudent) : 0;
    } else {
      const own = prices.find((p) => p.academicCalendarId === c.academicCalendarId && p.programTypeId === c.programTypeId && p.companyId === c.companyId);
      unitPrice = own ? cents(own.pricePerLesson) : 0;
    }
    out.set(c.id, {
      id: c.id,
      name: c.name,
      classType: c.classType,
      classStatus: c.classStatus,
      unitPrice,
      lessons: lessons.filter((l) => l.classId === c.id).map(({ id, date, termId, lessonStatus, status }) => ({ id, date, termId, lessonStatus, status })),
      terms: terms.filter((t) => t.academicCalendarId === c.academicCalendarId).map(({ id, name, startDate, endDate }) => ({ id, name, startDate, endDate })),
      row: c,
    });
  }
  return out;
}

/** The company's discounts (not deleted), as rules. */
export async function loadDiscounts(db: Queryable, companyId: string): Promise<Array<DiscountRule & { name: string }>> {
  const { rows } = await db.query<{ id: string; name: string; unit: "amount" | "percent"; amount: string; startDate: string | null; endDate: string | null; status: string }>(
    `select id, name, unit, amount::text as amount, "startDate"::text as "startDate", "endDate"::text as "endDate", status from discounts
     where ("companyId" = $1 or "companyId" is null) and status <> 'deleted' order by "order", name`,
    [companyId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, unit: r.unit, value: cents(r.amount), startDate: r.startDate, endDate: r.endDate, status: r.status }));
}

export interface FinanceSettings {
  registrationFee: Cents;
  waiverPeriod: WaiverPeriod | null;
  deposit: Cents;
  defaultGst: GstPercent;
  defaultNotes: string | null;
}

/** Fee, deposit and GST settings: the company's own row first, else the global one. */
export async function loadSettings(db: Queryable, companyId: string): Promise<FinanceSettings> {
  const { rows } = await db.query<{ key: string; value: Record<string, unknown> | null }>(
    `select distinct on (key) key, value from system_settings
     where key in ('registrationFee', 'waivePeriod', 'depositSettings', 'gst', 'paymentNotes') and status = 'active' and ("companyId" = $1 or "companyId" is null)
     order by key, ("companyId" is null), "updatedAt" desc`,
    [companyId],
  );
  const v = (key: string) => rows.find((r) => r.key === key)?.value ?? null;
  const waive = v("waivePeriod") as { startDate?: string; endDate?: string } | null;
  const gst = Number((v("gst") as { percentage?: unknown } | null)?.percentage ?? 0);
  const { rows: company } = await db.query<{ paNotes: string | null }>(`select "paNotes" from companies where id = $1`, [companyId]);
  return {
    registrationFee: cents((v("registrationFee") as { amount?: unknown } | null)?.amount ?? 0),
    waiverPeriod: waive?.startDate && waive.endDate ? { startDate: waive.startDate, endDate: waive.endDate } : null,
    deposit: cents((v("depositSettings") as { amount?: unknown } | null)?.amount ?? 0),
    defaultGst: isGstPercent(gst) ? gst : 0,
    defaultNotes: company[0]?.paNotes ?? ((v("paymentNotes") as { notes?: string } | null)?.notes ?? null),
  };
}
