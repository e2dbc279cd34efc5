/**
 * The term billing run (issue 39): for a branch's chosen terms, one payment advice per student over their
 * enrolled classes, priced by the PA builder's own code (composeFromFacts: today's prices, discounts, deposits,
 * registration fee and GST setting) and issued by the finance service, one transaction per PA.
 *
 * What a student is billed (docs/DECISIONS.md, issue 39):
 * - classes of the branch in a calendar of the year, not closed or deleted, the student's latest enrolment in
 *   them enrolled, transferred in, replacement, returned or suspended (a suspension is credited, not unbilled);
 * - per class the chosen terms from the enrolment's lesson start date; special and others classes (priced per
 *   student, all their lessons) once, when they have a lesson in the chosen terms' dates;
 * - a term with any lesson already on a live PA of the student is left out (and said): a rerun bills nothing
 *   twice, whoever issued the first PA;
 * - discounts: those the student's latest live PA applied to the same class and still eligible today, and the
 *   company's sibling discount for each sibling billed in the run but the first;
 * - a deposit of the deposit setting per class the student holds no deposit for (FINANCE.md §4's lifecycle: one
 *   issued or paid is held; one used or refunded is gone, so a student who re-enrols pays a new one); the registration fee when
 *   the student has no issued PA yet (the waiver period applies as in the builder); GST: the company's setting.
 */
import type { Db, Queryable } from "../db/index.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { isBillableLesson, isTermless, isTermSelectable } from "../../src/domain/finance/classCard.ts";
import { isDiscountEligible } from "../../src/domain/finance/discounts.ts";
import type { ClassInformationEntry } from "../../src/domain/finance/paymentAdvice.ts";
import {
  BILLING_RUN_MESSAGES as M,
  siblingDiscountTakers,
  type BillingIssueResult,
  type BillingPreviewClass,
  type BillingPreviewRow,
  type BillingRunOptions,
  type BillingRunSelection,
} from "../../src/domain/finance/billingRun.ts";
import { branchCompanyOf, composeFromFacts, withdrawnUntil, type PaFacts, type PaFieldsInput } from "./paymentAdviceCompose.ts";
import { loadClasses, loadDiscounts, loadSettings, type FinanceSettings, type LoadedClass } from "./pricing.ts";
import { primaryParent } from "./paper.ts";
import { createIssuedPaymentAdvice, type ActionCheck } from "./paymentAdvices.ts";
import { lockStudentMoney, lockStudentsMoney } from "./locks.ts";
import { recogniseRevenue } from "./ledger.ts";
import { FinanceError, financeTransaction, requireRight } from "./transaction.ts";

const BILLED_ENROLMENTS = ["enrolled", "transferred", "replacement", "returned", "suspended"];
const LIVE_PA = ["unpaid", "paid", "overpaid"];

interface Candidate {
  id: string;
  name: string;
  username: string | null;
  parents: Array<Record<string, unknown>> | null;
  siblingIds: string[];
}

interface Enrolment {
  studentId: string;
  classId: string;
  lessonStartDate: string | null;
}

/** One student's proposal: the PA's fields, or why none. */
interface Proposal {
  row: BillingPreviewRow;
  fields: PaFieldsInput | null;
}

/** Students of the selection (every one with a billed enrolment in a chosen class), by name. */
async function candidates(db: Queryable, sel: BillingRunSelection, onlyIds: readonly string[] | null): Promise<{ students: Candidate[]; enrolments: Enrolment[] }> {
  const { rows } = await db.query<Enrolment & Candidate & { siblings: Array<{ id?: string }> | null }>(
    `select e."studentId", e."classId", e."lessonStartDate", u.id, u.username, u.parents, u.siblings,
       coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", ''))) as name
     from (select distinct on (sc."userId", sc."classId") sc."userId" as "studentId", sc."classId", sc.status,
             coalesce(sc."lessonStartDate", c."startDate")::text as "lessonStartDate"
           from student_classes sc
           join classes c on c.id = sc."classId"
           join academic_calendars ac on ac.id = c."academicCalendarId"
           where c."companyId" = $1 and c."branchId" = $2 and ac.year = $3 and c.status <> 'deleted' and c."classStatus" <> 'closed'
             and (cardinality($4::uuid[]) = 0 or c.id = any($4::uuid[])) and (cardinality($5::uuid[]) = 0 or c."programId" = any($5::uuid[]))
             and ($6::uuid[] is null or sc."userId" = any($6::uuid[]))
           order by sc."userId", sc."classId", sc."lessonStartDate" desc nulls last, sc."createdAt" desc) e
     join users u on u.id = e."studentId" and u.type = 'student' and u.status = 'active'
     where e.status = any($7::text[])
     order by name, u.username, u.id, e."classId"`,
    [sel.companyId, sel.branchId, sel.year, sel.classIds, sel.programIds, onlyIds, BILLED_ENROLMENTS],
  );
  const students = new Map<string, Candidate>();
  for (const r of rows) {
    if (!students.has(r.studentId)) {
      students.set(r.studentId, { id: r.studentId, name: r.name, username: r.username, parents: r.parents, siblingIds: (r.siblings ?? []).map((s) => s.id ?? "").filter(Boolean) });
    }
  }
  return { students: [...students.values()], enrolments: rows.map((r) => ({ studentId: r.studentId, classId: r.classId, lessonStartDate: r.lessonStartDate })) };
}

interface BilledCard {
  studentId: string;
  paName: string;
  classId: string;
  lessonIds: string[] | null;
  discountIds: string[] | null;
  issueDate: string | null;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Term ids of the chosen names in the calendars of the given classes. */
function chosenTerms(cls: LoadedClass, names: readonly string[]) {
  return cls.terms.filter((t) => names.includes(t.name));
}

/** What the run reads once for all its students: who, their classes priced for both student types, settings, discounts. */
interface RunFacts {
  sel: BillingRunSelection;
  today: string;
  students: Candidate[];
  enrolmentsOf: Map<string, Enrolment[]>;
  takers: Set<string>;
  classesFor: Record<"new" | "existing", Map<string, LoadedClass>>;
  settings: FinanceSettings;
  discounts: PaFacts["discounts"];
  eligible: Set<string>;
  siblingDiscount: string | null;
  companyKnown: boolean;
  branchCompany: string | null | undefined;
}

/** What must be read per student under the student's lock when the PA is issued (a rerun, a second tab or a PA made by hand meanwhile). */
interface StudentFacts {
  billedOf: Map<string, BilledCard[]>;
  hasDeposit: Set<string>;
  everIssued: Set<string>;
  /** Students with a paid PA: "existing" for special-class prices (pricing.ts studentType). */
  existing: Set<string>;
  withdrawn: Map<string, Map<string, string>>;
}

async function loadRun(db: Queryable, sel: BillingRunSelection, onlyIds: readonly string[] | null): Promise<RunFacts | null> {
  const { students, enrolments } = await candidates(db, sel, onlyIds);
  if (!students.length) return null;
  // Siblings count when they are in the selection too, so a batch of the run decides as its preview did.
  const ids = new Set(students.map((s) => s.id));
  const siblingIds = [...new Set(students.flatMap((s) => s.siblingIds))].filter((id) => !ids.has(id));
  const siblings = onlyIds && siblingIds.length ? (await candidates(db, sel, siblingIds)).students : [];
  const classIds = [...new Set(enrolments.map((e) => e.classId))];
  const existing = await loadClasses(db, classIds, "existing");
  // only special and others classes are priced by student type: the others are read once
  const byType = [...existing.values()].some((c) => isTermless(c.classType));
  const discounts = await loadDiscounts(db, sel.companyId);
  const today = todayInSingapore();
  const eligible = new Set(discounts.filter((d) => isDiscountEligible(d, today)).map((d) => d.id));
  const { rows: siblingRows } = await db.query<{ id: string }>(
    `select id from discounts where "companyId" = $1 and type = 'sibling_discount' and status = 'active' order by "order", name`,
    [sel.companyId],
  );
  const { rows: companies } = await db.query(`select 1 from companies where id = $1 and status <> 'deleted'`, [sel.companyId]);
  return {
    sel,
    today,
    students,
    enrolmentsOf: groupBy(enrolments, (e) => e.studentId),
    takers: siblingDiscountTakers([...students, ...siblings]),
    classesFor: { existing, new: byType ? await loadClasses(db, classIds, "new") : existing },
    settings: await loadSettings(db, sel.companyId),
    discounts,
    eligible,
    siblingDiscount: siblingRows.map((r) => r.id).find((id) => eligible.has(id)) ?? null,
    companyKnown: companies.length > 0,
    branchCompany: await branchCompanyOf(db, sel.branchId),
  };
}

/**
 * The students' money facts in one statement (a PA issued by the run reads them again under the student's lock):
 * their live PAs, deposits held and whether they were ever billed. Withdrawals are enrolment facts, not money: the
 * caller reads them once (`withdrawnUntil`) for all its students.
 */
async function loadStudentFacts(db: Queryable, studentIds: readonly string[], withdrawn: StudentFacts["withdrawn"]): Promise<StudentFacts> {
  const { rows } = await db.query<{ billed: BilledCard[] | null; deposits: Array<{ studentId: string; classId: string }> | null; issued: Array<{ studentId: string; paid: boolean }> | null }>(
    `select
       (select json_agg(b order by b."issueDate" desc nulls last, b."paName" desc) from (
          select pa."studentId", pa.name as "paName", card->>'id' as "classId", card->'responses'->'lessonIds' as "lessonIds", card->'discountIds' as "discountIds", pa."issueDate"::text as "issueDate"
          from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") card
          where pa."studentId" = any($1::uuid[]) and pa.status <> 'deleted' and pa."paymentStatus" = any($2::text[])) b) as billed,
       (select json_agg(d) from (select distinct "studentId", "classId" from deposits where "studentId" = any($1::uuid[]) and status <> 'deleted' and "depositStatus" in ('issued', 'paid')) d) as deposits,
       (select json_agg(i) from (
          select "studentId", bool_or("paymentStatus" in ('paid', 'overpaid')) as paid from payment_advices
          where "studentId" = any($1::uuid[]) and status <> 'deleted' and "paymentStatus" <> 'draft' group by "studentId") i) as issued`,
    [studentIds, LIVE_PA],
  );
  const { billed, deposits, issued } = rows[0]!;
  return {
    billedOf: groupBy(billed ?? [], (b) => b.studentId),
    hasDeposit: new Set((deposits ?? []).map((r) => `${r.studentId}|${r.classId}`)),
    everIssued: new Set((issued ?? []).map((r) => r.studentId)),
    existing: new Set((issued ?? []).filter((r) => r.paid).map((r) => r.studentId)),
    withdrawn,
  };
}

/** One student's proposal, from what the run and the student's facts hold (no I/O). */
function proposeOne(run: RunFacts, facts: StudentFacts, s: Candidate): Proposal {
  const { sel, settings, eligible, siblingDiscount, takers, today } = run;
  const classes = run.classesFor.existing;
  const warnings: string[] = [];
  const cards: ClassInformationEntry[] = [];
  const shown: BillingPreviewClass[] = [];
  const mine = facts.billedOf.get(s.id) ?? [];
  const alreadyPas = new Set<string>();
  const alreadyWhat: string[] = [];
  for (const e of run.enrolmentsOf.get(s.id) ?? []) {
    const cls = classes.get(e.classId);
    if (!cls) continue;
    const onClass = mine.filter((b) => b.classId === cls.id);
    const billedLessons = new Set(onClass.flatMap((b) => b.lessonIds ?? []));
    const terms = chosenTerms(cls, sel.termNames).filter((t) => isTermSelectable(t, e.lessonStartDate));
    const lessonsOf = (termId: string | null, from: string | null, to: string | null) =>
      cls.lessons.filter((l) => isBillableLesson(l) && (!e.lessonStartDate || l.date >= e.lessonStartDate) && (termId === null || l.termId === termId) && (!from || l.date >= from) && (!to || l.date <= to));
    let termIds: string[] = [];
    let lessons = 0;
    if (isTermless(cls.classType)) {
      const from = terms.map((t) => t.startDate).sort()[0] ?? null;
      const to = terms.map((t) => t.endDate).sort().at(-1) ?? null;
      if (!terms.length || !lessonsOf(null, from, to).length) continue;
      if (onClass.length) {
        onClass.forEach((b) => alreadyPas.add(b.paName));
        alreadyWhat.push(cls.name);
        continue;
      }
      lessons = lessonsOf(null, null, null).length;
    } else {
      for (const t of terms) {
        const own = lessonsOf(t.id, null, null);
        if (!own.length) continue;
        const on = onClass.filter((b) => (b.lessonIds ?? []).some((id) => own.some((l) => l.id === id)));
        if (own.some((l) => billedLessons.has(l.id))) {
          on.forEach((b) => alreadyPas.add(b.paName));
          alreadyWhat.push(`${cls.name} ${t.name}`);
          continue;
        }
        termIds.push(t.id);
        lessons += own.length;
      }
      if (!termIds.length) continue;
      termIds = [...new Set(termIds)];
    }
    const carried = (onClass[0]?.discountIds ?? []).filter((id) => eligible.has(id));
    const discountIds = [...new Set([...carried, ...(siblingDiscount && takers.has(s.id) ? [siblingDiscount] : [])])];
    cards.push({
      id: cls.id,
      lessonStartDate: e.lessonStartDate,
      termIds: isTermless(cls.classType) ? [] : termIds,
      discountIds,
      quantityAdditionalLesson: 0,
      additionalDiscount: 0,
      booterClassIds: [],
      otherPayments: [],
      deductions: [],
      deposits: settings.deposit > 0 && !facts.hasDeposit.has(`${s.id}|${cls.id}`) ? [{ name: "Deposit", amount: settings.deposit }] : [],
      deductedDeposit: [],
      isDeductedDeposit: false,
    });
    shown.push({ classId: cls.id, className: cls.name, terms: isTermless(cls.classType) ? [] : cls.terms.filter((t) => termIds.includes(t.id)).map((t) => t.name), lessons });
  }
  if (alreadyWhat.length) warnings.push(M.alreadyBilled([...alreadyPas].sort(), alreadyWhat));
  const parentEmail = primaryParent(s.parents)?.email ?? null;
  if (!parentEmail) warnings.push(M.noParentEmail);
  const row: BillingPreviewRow = {
    studentId: s.id,
    studentName: s.name,
    username: s.username,
    parentEmail,
    classes: shown,
    total: null,
    warnings,
    skipReason: cards.length ? null : alreadyWhat.length ? M.nothingToBill : M.noClass,
  };
  if (!cards.length) return { row, fields: null };
  const fields: PaFieldsInput = {
    studentId: s.id,
    companyId: sel.companyId,
    branchId: sel.branchId,
    issueDate: today,
    dueDate: sel.dueDate,
    qrExpiryDate: null,
    hasExpiryDate: false,
    axsCode: null,
    isRegistrationFee: !facts.everIssued.has(s.id),
    gst: settings.defaultGst,
    remarks: null,
    notes: settings.defaultNotes,
    classInformations: cards,
  };
  return { row, fields };
}

/** What the PA builder's composer needs for one student of the run, from what the run and the student's facts hold. */
function paFacts(run: RunFacts, facts: StudentFacts, studentId: string): PaFacts {
  return {
    studentKnown: true,
    companyKnown: run.companyKnown,
    branchCompany: run.branchCompany,
    settings: run.settings,
    classes: run.classesFor[facts.existing.has(studentId) ? "existing" : "new"],
    discounts: run.discounts,
    deposits: [],
    withdrawnUntil: facts.withdrawn.get(studentId) ?? new Map(),
  };
}

const ISSUE_OPTIONS = { issued: true, paId: null, checkQrExpiry: true } as const;

/** Prices a proposal with the builder's code; a refusal (no price row, …) skips the student with its message. */
function priced(p: Proposal, facts: PaFacts): Proposal {
  if (!p.fields) return p;
  try {
    const composed = composeFromFacts(facts, p.fields, ISSUE_OPTIONS);
    return { ...p, row: { ...p.row, total: composed.columns.summary.total } };
  } catch (e) {
    if (e instanceof FinanceError) return { row: { ...p.row, skipReason: e.message }, fields: null };
    throw e;
  }
}

function checkSelection(sel: BillingRunSelection): void {
  if (sel.dueDate < todayInSingapore()) throw new FinanceError(400, M.duePast, { dueDate: M.duePast });
}

/** POST …/billing-runs/preview: every student's proposed PA, or why none. Reads only: a few set-based queries for the whole run. */
export async function previewBillingRun(db: Queryable, sel: BillingRunSelection): Promise<BillingPreviewRow[]> {
  checkSelection(sel);
  const run = await loadRun(db, sel, null);
  if (!run) return [];
  const ids = run.students.map((s) => s.id);
  const facts = await loadStudentFacts(db, ids, await withdrawnUntil(db, ids, [...run.classesFor.existing.keys()]));
  return run.students.map((s) => priced(proposeOne(run, facts, s), paFacts(run, facts, s.id)).row);
}

/**
 * POST …/billing-runs/issue: the given students' PAs, in the order given (their numbers follow it), each
 * created and issued in its own finance transaction under the student's lock. The batch's classes, prices,
 * settings and discounts are read once; what a student's PA depends on that may have changed (their live PAs,
 * deposits, paid PAs, withdrawals) is read again under the student's lock: a student billed meanwhile (a rerun,
 * a second tab, a PA made by hand) is skipped, never billed twice.
 */
export async function issueBillingRun(db: Db, sel: BillingRunSelection, studentIds: readonly string[], by: string | null, can: ActionCheck): Promise<BillingIssueResult[]> {
  checkSelection(sel);
  await requireRight(can, "issue");
  const wanted = [...new Set(studentIds)];
  const run = await loadRun(db, sel, wanted);
  const results: BillingIssueResult[] = [];
  try {
    await issueEach(db, run, wanted, by, results);
  } finally {
    // The PAs' revenue (lessons already delivered) in one set-based pass, not one per PA: a PA's ledger entry is
    // written with it, its recognition follows within the request (and a crash meanwhile is caught by the daily run).
    // Every student issued a PA has revenue to post (its billed figures), so they are locked and recognised at once,
    // without recogniseWindow's first read of who differs.
    const issued = results.flatMap((r) => (r.status === "issued" ? [r.studentId] : []));
    if (issued.length) {
      await financeTransaction(db, async (tx) => {
        await lockStudentsMoney(tx, issued);
        await recogniseRevenue(tx, issued, null);
      });
    }
  }
  return results;
}

async function issueEach(db: Db, run: RunFacts | null, wanted: readonly string[], by: string | null, results: BillingIssueResult[]): Promise<void> {
  const byId = new Map((run?.students ?? []).map((s) => [s.id, s]));
  const withdrawn = run ? await withdrawnUntil(db, wanted, [...run.classesFor.existing.keys()]) : new Map<string, Map<string, string>>();
  for (const studentId of wanted) {
    const student = byId.get(studentId);
    if (!run || !student) {
      results.push({ studentId, status: "skipped", reason: M.noClass });
      continue;
    }
    try {
      results.push(
        await financeTransaction(db, async (tx): Promise<BillingIssueResult> => {
          await lockStudentMoney(tx, studentId);
          const facts = await loadStudentFacts(tx, [studentId], withdrawn);
          const p = proposeOne(run, facts, student);
          if (!p.fields) return { studentId, status: "skipped", reason: p.row.skipReason ?? M.noClass };
          const who = { id: student.id, fullName: student.name, username: student.username };
          const pa = await createIssuedPaymentAdvice(tx, p.fields, by, paFacts(run, facts, studentId), who);
          return { studentId, status: "issued", paymentAdviceId: pa.id, name: pa.name ?? "", total: pa.summary.total, parentEmail: p.row.parentEmail };
        }),
      );
    } catch (e) {
      // a refusal (no price row, …) rolled the student's transaction back: nothing of it was written
      if (!(e instanceof FinanceError)) throw e;
      results.push({ studentId, status: "skipped", reason: e.message });
    }
  }
}

/** GET …/billing-runs/options: the company's branches, academic years with their term names, classes and programmes. */
export async function billingRunOptions(db: Queryable, companyId: string): Promise<BillingRunOptions> {
  const { rows: branches } = await db.query<{ id: string; name: string }>(`select id, name from branches where "companyId" = $1 and status <> 'deleted' order by name`, [companyId]);
  const { rows: years } = await db.query<{ year: number; termNames: string[] }>(
    `select ac.year, array_agg(distinct t.name order by t.name) as "termNames" from academic_calendars ac join terms t on t."academicCalendarId" = ac.id and t.status <> 'deleted'
     where ac."companyId" = $1 and ac.status <> 'deleted' group by ac.year order by ac.year desc`,
    [companyId],
  );
  const { rows: classes } = await db.query<BillingRunOptions["classes"][number]>(
    `select c.id, c.name, c."branchId", c."programId", ac.year from classes c join academic_calendars ac on ac.id = c."academicCalendarId"
     where c."companyId" = $1 and c.status <> 'deleted' and c."classStatus" <> 'closed' order by c.name`,
    [companyId],
  );
  const { rows: programmes } = await db.query<{ id: string; name: string }>(`select id, name from programs where "companyId" = $1 and status <> 'deleted' order by name`, [companyId]);
  return { branches, years, classes, programmes };
}
