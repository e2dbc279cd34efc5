/**
 * Turns what the builder sent (choices only) into the PA as stored: validated against the database,
 * priced by src/domain/finance, every figure recomputed here. Problems come back one message per field
 * (spec part 2 §5 texts where the spec has one).
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { isTermSelectable, isTermless } from "../../src/domain/finance/classCard.ts";
import { isDiscountEligible, type DiscountRule } from "../../src/domain/finance/discounts.ts";
import { computePaymentAdvice, type ClassInformationEntry, type PaymentAdviceTotals } from "../../src/domain/finance/paymentAdvice.ts";
import type { ClassInformationStored, PaymentAdviceRecord } from "../../src/domain/finance/paymentAdviceApi.ts";
import { classInformationToStored, summaryToWire } from "../../src/domain/finance/paymentAdviceApi.ts";
import { PA_MESSAGES } from "../../src/domain/finance/paymentAdviceStatus.ts";
import { SUMMARY_FIGURES, type GstPercent } from "../../src/domain/finance/summary.ts";
import { BOUND_MESSAGES, documentBoundError } from "../../src/domain/finance/bounds.ts";
import { loadClasses, loadDiscounts, loadSettings, studentType, type FinanceSettings, type LoadedClass } from "./pricing.ts";
import { fieldErrors, FinanceError } from "./transaction.ts";
import { sanitiseRichText } from "../security/rich-text.ts";
import { UUID } from "../../src/domain/validators.ts";

export interface PaFieldsInput {
  studentId: string;
  companyId: string;
  branchId: string | null;
  issueDate: string | null;
  dueDate: string | null;
  qrExpiryDate: string | null;
  hasExpiryDate: boolean;
  axsCode: string | null;
  isRegistrationFee: boolean;
  gst: GstPercent;
  remarks: string | null;
  notes: string | null;
  classInformations: ClassInformationEntry[];
}

/** Texts of spec part 2 §5 and the rules it states without a text. */
export const PA_FIELD_MESSAGES = {
  company: "Please select company!",
  issueDate: "Please select issue date!",
  dueDate: "Please select issue date!",
  branch: "Please select branch!",
  qrExpiryDate: "Please QR Expiry Date!",
  rowName: "Name is required.",
  rowAmount: "Amount is required.",
  lessonStartDate: "Please input lesson start date!",
  student: "Please select student!",
  dueBeforeIssue: "The due date cannot be before the issue date.",
  qrExpiryPast: "The QR expiry date must be after today.",
  programmeRepeated: "Class's programme is already existed!",
  classClosed: "This class is closed or deleted and cannot be billed.",
  classUnknown: "Please select class!",
  classOtherCompany: "This class belongs to another company.",
  termUnknown: "This term is not a term of the class.",
  termBeforeStart: "Terms before the term containing the lesson start date cannot be selected.",
  discountNeedsIssueDate: "Discounts can only be added once the issue date is set.",
  discountNotEligible: "This discount is not available on the issue date.",
  boosterUnknown: "This booster class does not exist.",
  depositUnknown: "This deposit is not a paid deposit of the student.",
  depositApplied: "This deposit is already deducted on another payment advice.",
  depositRefunded: "This deposit was refunded; it cannot be deducted.",
  branchOtherCompany: "This branch belongs to another company.",
  studentUnknown: "Please select student!",
  companyUnknown: "Please select company!",
} as const;

export interface ComposedPa {
  columns: {
    studentId: string;
    companyId: string;
    branchId: string | null;
    issueDate: string | null;
    dueDate: string | null;
    qrExpiryDate: string | null;
    hasExpiryDate: boolean;
    axsCode: string | null;
    isRegistrationFee: boolean;
    registrationFeeConfig: PaymentAdviceRecord["registrationFeeConfig"];
    depositSettings: PaymentAdviceRecord["depositSettings"];
    gst: GstPercent;
    remarks: string | null;
    notes: string | null;
    classInformations: ClassInformationStored[];
    paymentSummaryStatic: PaymentAdviceRecord["paymentSummaryStatic"];
    summary: PaymentAdviceRecord["summary"];
  };
  totals: PaymentAdviceTotals;
  /** Deposits applied (their ids), and deposit rows to issue, per class. */
  deductedDepositIds: string[];
  depositRows: Array<{ classId: string; name: string; amount: Cents }>;
}

/**
 * The last lesson date of each class each student was withdrawn from (their latest enrolment in it is
 * `withdrawn`): a card of such a class bills no lesson after it (FINANCE.md §4, withdrawal per class card).
 */
export async function withdrawnUntil(tx: Queryable, studentIds: readonly string[], classIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  // only well-formed ids can match, and comparing uuids (not their text) lets the (userId, status) index answer
  const students = studentIds.filter((id) => UUID.test(id));
  const classes = [...new Set(classIds)].filter((id) => UUID.test(id));
  if (!classes.length || !students.length) return out;
  const { rows } = await tx.query<{ userId: string; classId: string; status: string; endDate: string | null }>(
    `select distinct on ("userId", "classId") "userId", "classId", status, "endDate"::text as "endDate" from student_classes
     where "userId" = any($1::uuid[]) and "classId" = any($2::uuid[]) and status <> 'deleted' order by "userId", "classId", "lessonStartDate" desc nulls last, "createdAt" desc`,
    [students, classes],
  );
  for (const r of rows) {
    if (r.status !== "withdrawn" || !r.endDate) continue;
    if (!out.has(r.userId)) out.set(r.userId, new Map());
    out.get(r.userId)!.set(r.classId, r.endDate);
  }
  return out;
}

/** What composing a PA reads from the database; a billing run reads it once for many students (server/finance/billingRun.ts). */
export interface PaFacts {
  studentKnown: boolean;
  companyKnown: boolean;
  /** The branch's company (null: a branch without one); undefined: no such branch (or none asked). */
  branchCompany: string | null | undefined;
  settings: FinanceSettings;
  /** The PA's classes and boosters, priced for the student's type (new or existing). */
  classes: Map<string, LoadedClass>;
  discounts: Array<DiscountRule & { name: string }>;
  /** The deposits the PA says it deducts: status, amount and whether another live PA applies them. */
  deposits: Array<{ id: string; amount: string; depositStatus: string; elsewhere: boolean }>;
  /** The last lesson date of each withdrawn class (withdrawnUntil). */
  withdrawnUntil: Map<string, string>;
}

export const classIdsOf = (input: PaFieldsInput): string[] => [...input.classInformations.map((e) => e.id), ...input.classInformations.flatMap((e) => e.booterClassIds)];
/** The deposit ids a PA's classes say they deduct, as given (composing refuses the malformed ones). */
export const depositIdsOf = (input: PaFieldsInput): string[] => input.classInformations.flatMap((e) => (e.isDeductedDeposit ? e.deductedDeposit.map((d) => d.depositId ?? "") : []));

/** Reads what composing this PA needs. */
export async function loadPaFacts(tx: Queryable, input: PaFieldsInput, paId: string | null): Promise<PaFacts> {
  const { rows: people } = await tx.query<{ id: string }>(`select id from users where id = $1 and type = 'student' and status <> 'deleted'`, [input.studentId]);
  const { rows: companies } = await tx.query<{ id: string }>(`select id from companies where id = $1 and status <> 'deleted'`, [input.companyId]);
  const branchCompany = input.branchId ? await branchCompanyOf(tx, input.branchId) : undefined;
  const depositIds = depositIdsOf(input);
  const deposits = depositIds.length
    ? (
        await tx.query<PaFacts["deposits"][number]>(
          `select d.id, d.amount::text as amount, d."depositStatus",
             exists (select 1 from payment_advices pa, jsonb_array_elements(pa."classInformations") card, jsonb_array_elements(card->'deductedDeposit') dd
                     where pa.id is distinct from $3::uuid and pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid')
                       and (card->>'isDeductedDeposit')::boolean and dd->>'depositId' = d.id::text) as elsewhere
           from deposits d where d.id::text = any($1::text[]) and d."studentId" = $2 and d.status <> 'deleted'`,
          [depositIds, input.studentId, paId],
        )
      ).rows
    : [];
  return {
    studentKnown: people.length > 0,
    companyKnown: companies.length > 0,
    branchCompany,
    settings: await loadSettings(tx, input.companyId),
    classes: await loadClasses(tx, classIdsOf(input), await studentType(tx, input.studentId, paId)),
    discounts: await loadDiscounts(tx, input.companyId),
    deposits,
    withdrawnUntil: (await withdrawnUntil(tx, [input.studentId], input.classInformations.map((e) => e.id))).get(input.studentId) ?? new Map(),
  };
}

/** A branch's company: null when it has none, undefined when there is no such branch. */
export async function branchCompanyOf(tx: Queryable, branchId: string): Promise<string | null | undefined> {
  const { rows } = await tx.query<{ companyId: string | null }>(`select "companyId" from branches where id = $1 and status <> 'deleted'`, [branchId]);
  return rows.length ? rows[0]!.companyId : undefined;
}

export interface ComposeOptions {
  issued: boolean;
  paId: string | null;
  allowedDepositIds?: readonly string[];
  checkQrExpiry: boolean;
  repricing?: boolean;
}

/**
 * Validates and prices. `issued`: the PA is (or is becoming) issued, so every required field of
 * spec part 2 §5 applies; a draft needs only its student and company. `allowedDepositIds`: deposits
 * this PA already applies (used by it), accepted again when an unpaid PA is edited. `repricing`: the
 * server prices an issued PA again after a withdrawal, with the user's choices unchanged — a class
 * closed or a discount expired since does not refuse it.
 */
export async function composePa(tx: Queryable, input: PaFieldsInput, options: ComposeOptions): Promise<ComposedPa> {
  return composeFromFacts(await loadPaFacts(tx, input, options.paId), input, options);
}

/** composePa over facts already read: no I/O, so a billing run prices thousands of PAs from one read. */
export function composeFromFacts(facts: PaFacts, input: PaFieldsInput, options: ComposeOptions): ComposedPa {
  const errors: Record<string, string> = {};
  if (!facts.studentKnown) errors.studentId = PA_FIELD_MESSAGES.studentUnknown;
  if (!facts.companyKnown) errors.companyId = PA_FIELD_MESSAGES.companyUnknown;
  if (Object.keys(errors).length) throw fieldErrors(errors);
  if (input.branchId) {
    if (facts.branchCompany === undefined) errors.branchId = PA_FIELD_MESSAGES.branch;
    else if (facts.branchCompany && facts.branchCompany !== input.companyId) errors.branchId = PA_FIELD_MESSAGES.branchOtherCompany;
  }

  if (options.issued) {
    if (!input.issueDate) errors.issueDate = PA_FIELD_MESSAGES.issueDate;
    if (!input.dueDate) errors.dueDate = PA_FIELD_MESSAGES.dueDate;
    if (!input.branchId) errors.branchId ??= PA_FIELD_MESSAGES.branch;
    if (input.hasExpiryDate && !input.qrExpiryDate) errors.qrExpiryDate = PA_FIELD_MESSAGES.qrExpiryDate;
    if (!input.classInformations.length) errors.classInformations = PA_MESSAGES.noClass;
  }
  if (input.issueDate && input.dueDate && input.dueDate < input.issueDate) errors.dueDate = PA_FIELD_MESSAGES.dueBeforeIssue;
  if (options.checkQrExpiry && input.qrExpiryDate && input.qrExpiryDate <= todayInSingapore()) errors.qrExpiryDate = PA_FIELD_MESSAGES.qrExpiryPast;

  const { settings, classes, discounts } = facts;
  const boosterIds = input.classInformations.flatMap((e) => e.booterClassIds);
  const discountById = new Map(discounts.map((d) => [d.id, d]));

  const programmes = new Map<string, number>();
  input.classInformations.forEach((e, i) => {
    const at = (field: string) => `classInformations.${i}.${field}`;
    const cls = classes.get(e.id);
    if (!cls || cls.row.status === "deleted") {
      errors[at("id")] = cls ? PA_FIELD_MESSAGES.classClosed : PA_FIELD_MESSAGES.classUnknown;
      return;
    }
    if (cls.row.classStatus === "closed" && !options.repricing) errors[at("id")] = PA_FIELD_MESSAGES.classClosed;
    if (cls.row.companyId && cls.row.companyId !== input.companyId) errors[at("id")] = PA_FIELD_MESSAGES.classOtherCompany;
    // A class without a price row (or priced at zero) would be billed S$0.00 without anyone noticing (FINANCE.md §1).
    if (cls.unitPrice <= 0) errors[at("id")] ??= BOUND_MESSAGES.classPrice(cls.name);
    const special = cls.classType === "special";
    if (cls.row.programId && !special) {
      if (programmes.has(cls.row.programId)) errors[at("id")] = PA_FIELD_MESSAGES.programmeRepeated;
      programmes.set(cls.row.programId, i);
    }
    if (!isTermless(cls.classType)) {
      if (!e.lessonStartDate) errors[at("lessonStartDate")] = PA_FIELD_MESSAGES.lessonStartDate;
      for (const termId of e.termIds) {
        const term = cls.terms.find((t) => t.id === termId);
        if (!term) errors[at("termIds")] = PA_FIELD_MESSAGES.termUnknown;
        else if (!isTermSelectable(term, e.lessonStartDate)) errors[at("termIds")] = PA_FIELD_MESSAGES.termBeforeStart;
      }
    }
    for (const id of e.discountIds) {
      const d = discountById.get(id);
      if (!input.issueDate) errors[at("discountIds")] = PA_FIELD_MESSAGES.discountNeedsIssueDate;
      else if (!d || (!isDiscountEligible(d, input.issueDate) && !options.repricing)) errors[at("discountIds")] = PA_FIELD_MESSAGES.discountNotEligible;
    }
    for (const b of e.booterClassIds) {
      const booster = classes.get(b);
      if (!booster || booster.row.status === "deleted") errors[at("booterClassIds")] = PA_FIELD_MESSAGES.boosterUnknown;
    }
  });

  // Deducted deposits: paid deposits of this student not applied on another live PA (or those this PA
  // already applies); amounts from the deposits. The caller holds the deposits' locks when it marks them used.
  const depositIds = depositIdsOf(input);
  const depositAmounts = new Map<string, Cents>();
  const appliedElsewhere = new Set<string>();
  const refunded = new Set<string>();
  if (depositIds.length) {
    for (const r of facts.deposits) {
      const mine = (options.allowedDepositIds ?? []).includes(r.id);
      if (r.depositStatus === "refunded") refunded.add(r.id);
      else if (!mine && (r.depositStatus === "used" || r.elsewhere)) appliedElsewhere.add(r.id);
      else if (r.depositStatus === "paid" || mine) depositAmounts.set(r.id, numericToCents(r.amount) ?? 0);
    }
    const seen = new Set<string>();
    input.classInformations.forEach((e, i) => {
      if (!e.isDeductedDeposit) return;
      e.deductedDeposit.forEach((d, j) => {
        const id = d.depositId ?? "";
        const at = `classInformations.${i}.deductedDeposit.${j}.depositId`;
        if (refunded.has(id)) errors[at] = PA_FIELD_MESSAGES.depositRefunded;
        else if (appliedElsewhere.has(id)) errors[at] = PA_FIELD_MESSAGES.depositApplied;
        else if (!depositAmounts.has(id) || seen.has(id)) errors[at] = PA_FIELD_MESSAGES.depositUnknown;
        seen.add(id);
      });
    });
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);

  const endDates = facts.withdrawnUntil;
  const entries: ClassInformationEntry[] = input.classInformations.map((e) => ({
    ...e,
    lessonEndDate: endDates.get(e.id) ?? null,
    termIds: isTermless(classes.get(e.id)!.classType) ? [] : [...new Set(e.termIds)],
    discountIds: [...new Set(e.discountIds)],
    booterClassIds: [...new Set(e.booterClassIds)],
    deductedDeposit: e.isDeductedDeposit ? e.deductedDeposit.map((d) => ({ ...d, amount: depositAmounts.get(d.depositId ?? "") ?? 0 })) : [],
  }));
  const boosterPrices = new Map(boosterIds.map((id) => [id, classes.get(id)?.unitPrice ?? 0]));
  let totals: PaymentAdviceTotals;
  try {
    totals = computePaymentAdvice({
      issueDate: input.issueDate,
      isRegistrationFee: input.isRegistrationFee,
      registrationFee: { amount: settings.registrationFee, waiverPeriod: settings.waiverPeriod },
      gstPercent: input.gst,
      entries,
      classes,
      discounts,
      boosterPrices,
    });
  } catch (e) {
    if (e instanceof RangeError) throw new FinanceError(400, e.message, { classInformations: e.message });
    throw e;
  }
  // An issued class card bills at least one lesson (a card without terms would bill the class S$0.00); a draft may still be incomplete.
  if (options.issued) {
    totals.cards.forEach(({ entry, cls, totals: card }, i) => {
      if (card.lessons + entry.quantityAdditionalLesson === 0) errors[`classInformations.${i}.termIds`] = BOUND_MESSAGES.classLessons(cls.name);
    });
    if (Object.keys(errors).length) throw fieldErrors(errors);
  }
  if (totals.summary.totalPayable < 0) throw fieldErrors({ paymentSummaryStatic: PA_MESSAGES.negativeTotal });
  // Every figure of the summary (the gross ones too, before deductions) within a document's maximum.
  if (SUMMARY_FIGURES.some((figure) => documentBoundError(totals.summary[figure]))) throw fieldErrors({ paymentSummaryStatic: BOUND_MESSAGES.document });

  const money = centsToNumeric;
  const classInformations: ClassInformationStored[] = totals.cards.map(({ entry, cls, totals: t }) => classInformationToStored(entry, cls, t, classes.get(entry.id)?.row.program ?? null));

  return {
    columns: {
      studentId: input.studentId,
      companyId: input.companyId,
      branchId: input.branchId,
      issueDate: input.issueDate,
      dueDate: input.dueDate,
      qrExpiryDate: input.qrExpiryDate,
      hasExpiryDate: input.hasExpiryDate,
      axsCode: input.axsCode,
      isRegistrationFee: totals.registrationFeeApplied,
      registrationFeeConfig: { amount: money(settings.registrationFee), waiverPeriod: settings.waiverPeriod },
      depositSettings: { amount: money(settings.deposit) },
      gst: input.gst,
      remarks: input.remarks,
      // Rich text: the one allow-list every writer applies (issue 32 §5), the same the paper page renders with.
      notes: input.notes === null ? null : sanitiseRichText(input.notes),
      classInformations,
      paymentSummaryStatic: summaryToWire(totals.summary),
      summary: { registrationFee: money(totals.summary.registrationFee), total: money(totals.summary.totalPayable) },
    },
    totals,
    deductedDepositIds: [...depositAmounts.keys()].filter((id) => depositIds.includes(id)),
    depositRows: entries.flatMap((e) => e.deposits.map((d) => ({ classId: e.id, name: d.name, amount: d.amount }))),
  };
}
