/**
 * The REST calls of the payment advice (spec part 2 §7) — request bodies and replies — and the
 * conversions between the wire (money as dollars: numeric strings or numbers, as GraphQL gives them)
 * and the domain (integer cents). Every reply is `{ success: true, data }`; a refusal is
 * `{ success: false, message, errors? }` with one message per field (400), 403, 404 or 409 (stale).
 *
 *   POST   /api/v2/finances/payment-advices/init            InitPaymentAdviceBody  → PaymentAdviceRecord (a new draft)
 *   PUT    /api/v2/finances/payment-advices/{id}            UpdatePaymentAdviceBody → PaymentAdviceRecord
 *   DELETE /api/v2/finances/payment-advices/{id}?updatedAt=  (draft only; soft delete) → { id }
 *   GET    /api/v2/finances/payment-advices/{id}/paper      → PaymentAdvicePaper
 *   GET    /api/v2/finances/payment-advices/{id}/paper?format=pdf → application/pdf
 *   POST   /api/v2/finances/payment-advices/void-unpaid     VoidPaymentAdviceBody → PaymentAdviceRecord
 *   PATCH  /api/v2/finances/payment-advices/void-paid-pa    VoidPaymentAdviceBody → VoidPaidReply
 *   POST   /api/v2/finances/email/unpaid-pa-to-parents      EmailUnpaidBody → EmailUnpaidReply
 *   GET    /api/v2/classes/class-free?studentId&classId&lessonStartDate → ClassFreeReply
 */
import { centsToNumeric, numericToCents, type Cents } from "../money.ts";
import type { ClassCardTotals } from "./classCard.ts";
import type { ClassInformationEntry, PricedClass } from "./paymentAdvice.ts";
import type { PaStatus, StoredPaStatus } from "./paymentAdviceStatus.ts";
import type { GstPercent, NamedAmount, PaymentSummary } from "./summary.ts";
import { SUMMARY_FIGURES } from "./summary.ts";

/** Dollars as sent and received: "1234.50" or 1234.5. */
export type MoneyWire = string | number;
/** Dollars as the server replies: always a numeric string with two decimals. */
export type MoneyText = string;

export interface NamedAmountWire {
  name: string;
  amount: MoneyWire;
}

/** One class card as the browser sends it (spec part 2 §3 "Class information entry"): only choices. */
export interface ClassInformationInput {
  /** The class id. */
  id: string;
  /** YYYY-MM-DD; required for regular and double lesson classes. */
  lessonStartDate: string | null;
  termIds: string[];
  discountIds: string[];
  /** Whole number ≥ 0. */
  quantityAdditionalLesson: number;
  additionalDiscount: MoneyWire;
  /** Booster classes (the spec's spelling). */
  booterClassIds: string[];
  otherPayments: NamedAmountWire[];
  deductions: NamedAmountWire[];
  deposits: NamedAmountWire[];
  /** Paid deposits of the student applied on this PA; the server takes each amount from the deposit. */
  deductedDeposit: Array<NamedAmountWire & { depositId: string }>;
  isDeductedDeposit: boolean;
}

/** The PA fields the builder edits (everything else is computed or assigned by the server). */
export interface PaymentAdviceFields {
  studentId: string;
  companyId: string;
  branchId: string | null;
  /** YYYY-MM-DD (a UTC start-of-day ISO string is accepted too). */
  issueDate: string | null;
  dueDate: string | null;
  qrExpiryDate: string | null;
  hasExpiryDate: boolean;
  axsCode: string | null;
  /** The registration fee Apply switch (forced off by the server inside the waiver period). */
  isRegistrationFee: boolean;
  gst: GstPercent;
  remarks: string | null;
  /** Rich text (sanitised by the server). */
  notes: string | null;
  classInformations: ClassInformationInput[];
}

/** POST …/init: creates a draft. Only studentId and companyId are required; the rest defaults. */
export type InitPaymentAdviceBody = Pick<PaymentAdviceFields, "studentId" | "companyId"> & Partial<Omit<PaymentAdviceFields, "studentId" | "companyId">>;

/**
 * PUT …/{id}: `action` "save" keeps the status (saves a draft, or edits an unpaid PA without payments),
 * "issue" saves and issues a draft (draft → unpaid, number assigned). `updatedAt` is the value read.
 */
export type PaymentAdviceSaveAction = "save" | "issue";
export interface UpdatePaymentAdviceBody extends PaymentAdviceFields {
  action: PaymentAdviceSaveAction;
  updatedAt: string;
}

/** POST …/void-unpaid and PATCH …/void-paid-pa. */
export interface VoidPaymentAdviceBody {
  id: string;
  reason: string;
  updatedAt: string;
}

/** POST /finances/email/unpaid-pa-to-parents. */
export interface EmailUnpaidBody {
  paymentAdviceIds: string[];
}
export interface EmailUnpaidReply {
  /** PAs queued, with the address used. */
  queued: Array<{ id: string; recipient: string }>;
  /** PAs not sent, with why (not unpaid, no parent e-mail…). */
  skipped: Array<{ id: string; reason: string }>;
}

export interface TermInformationStored {
  id: string;
  name: string;
  lessons: number;
  lessonIds: string[];
  pricing: MoneyText;
  total: MoneyText;
}

/** One class card as stored in `classInformations` and replied: the choices plus what the server computed. */
export interface ClassInformationStored extends Omit<ClassInformationInput, "additionalDiscount" | "otherPayments" | "deductions" | "deposits" | "deductedDeposit"> {
  className: string;
  /** The last lesson billed when the student was withdrawn from the class (absent otherwise). */
  lessonEndDate?: string | null;
  classType: string;
  classStatus: string;
  additionalDiscount: MoneyText;
  otherPayments: Array<{ name: string; amount: MoneyText }>;
  deductions: Array<{ name: string; amount: MoneyText }>;
  deposits: Array<{ name: string; amount: MoneyText }>;
  deductedDeposit: Array<{ name: string; amount: MoneyText; depositId: string | null }>;
  termInformations: TermInformationStored[];
  period: { startDate: string; endDate: string } | null;
  /** The class's programme (spec part 2 §3): company, curriculums, levels, subject, category code. */
  program: { companyId: string | null; curriculumIds: string[]; levelIds: string[]; subjectId: string | null; cate: { code: string | null } } | null;
  responses: {
    lessons: number;
    lessonIds: string[];
    unitPrice: MoneyText;
    classBase: MoneyText;
    additionalLesson: { quantity: number; pricing: MoneyText; total: MoneyText };
    boosterClassesPrice: MoneyText;
    discounts: Array<{ id: string; name: string | null; unit: string; amount: MoneyText }>;
    totalDiscount: MoneyText;
    total: MoneyText;
  };
}

/** `paymentSummaryStatic`: the eleven figures as numeric strings, and the GST configuration. */
export type PaymentSummaryWire = { [K in (typeof SUMMARY_FIGURES)[number]]: MoneyText } & { gstConfig: { percentage: GstPercent } };

export interface PaymentAdviceRecord {
  id: string;
  /** The PA number; null while a draft. */
  name: string | null;
  paymentStatus: StoredPaStatus;
  /** paymentStatus, or "overdue" for an unpaid PA past 23:59:59 of its due day. */
  displayStatus: PaStatus;
  studentId: string;
  companyId: string;
  branchId: string | null;
  issueDate: string | null;
  dueDate: string | null;
  qrExpiryDate: string | null;
  hasExpiryDate: boolean;
  qrReferenceNo: string | null;
  axsCode: string | null;
  isRegistrationFee: boolean;
  registrationFeeConfig: { amount: MoneyText; waiverPeriod: { startDate: string | null; endDate: string | null } | null };
  depositSettings: { amount: MoneyText };
  gst: GstPercent;
  remarks: string | null;
  notes: string | null;
  classInformations: ClassInformationStored[];
  paymentSummaryStatic: PaymentSummaryWire;
  summary: { registrationFee: MoneyText; total: MoneyText };
  /** Σ non-voided payments received (cents are never sent: numeric string). */
  amountReceived: MoneyText;
  status: "active" | "deleted";
  createdAt: string;
  /** Send it back with the next PUT / void. */
  updatedAt: string;
}

export interface VoidPaidReply {
  paymentAdvice: PaymentAdviceRecord;
  /** The overpaid credit note for the money received; null when all of it was already credited. */
  creditNote: { id: string; name: string; total: MoneyText } | null;
}

/** GET …/{id}/paper: what the printable paper shows. */
export interface PaymentAdvicePaper {
  paymentAdvice: PaymentAdviceRecord;
  company: { id: string; name: string; shortName: string | null; address: string | null; uen: string | null; hasGstNo: boolean; gstRefNo: string | null; telNo: string | null; logoUrl: string | null; colorCode: string | null };
  branch: { id: string; name: string; address: string | null } | null;
  student: { id: string; fullName: string; username: string | null; schoolName: string | null; levelName: string | null };
  parent: { name: string | null; email: string | null; phone: string | null } | null;
  /** The QR code of qrReferenceNo (or the number) as a data URL (PNG). */
  qrCodeDataUrl: string | null;
  /** The text the QR code holds. */
  qrText: string | null;
  pdfUrl: string;
}

/** GET /classes/class-free: a class priced for a student from a lesson start date (spec part 1 §7). */
export interface ClassFreeTerm {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  /** Billable lessons of the term on/after the lesson start date. */
  lessons: number;
  lessonIds: string[];
  pricing: MoneyText;
  total: MoneyText;
  /** False for terms before the term containing the lesson start date. */
  selectable: boolean;
}
export interface ClassFreeReply {
  classId: string;
  className: string;
  classType: string;
  classStatus: string;
  lessonStartDate: string | null;
  period: { startDate: string; endDate: string } | null;
  pricing: MoneyText;
  terms: ClassFreeTerm[];
  termInformations: ClassFreeTerm[];
  /** Σ of the selectable terms (special/others: all lessons from the start date) × pricing. */
  total: MoneyText;
  additionalLesson: { quantity: number; pricing: MoneyText; total: MoneyText };
}

export interface ApiSuccess<T> {
  success: true;
  data: T;
}
export interface ApiFailure {
  success: false;
  message: string;
  errors?: Record<string, string>;
}

// ── conversions ────────────────────────────────────────────────────────────────────────────

/** Dollars on the wire → cents (throws on a non-number: validate first). */
export function wireToCents(value: MoneyWire): Cents {
  const cents = numericToCents(value);
  if (cents === null) throw new RangeError(`Not an amount: ${value}`);
  return cents;
}

const rowsToCents = (rows: readonly NamedAmountWire[]): NamedAmount[] => rows.map((r) => ({ name: r.name, amount: wireToCents(r.amount) }));

/** A class information entry from the wire (or from a stored PA) → the domain entry in cents. */
export function classInformationFromWire(w: ClassInformationInput | ClassInformationStored): ClassInformationEntry {
  return {
    id: w.id,
    lessonStartDate: w.lessonStartDate ?? null,
    termIds: [...(w.termIds ?? [])],
    discountIds: [...(w.discountIds ?? [])],
    quantityAdditionalLesson: w.quantityAdditionalLesson ?? 0,
    additionalDiscount: wireToCents(w.additionalDiscount ?? 0),
    booterClassIds: [...(w.booterClassIds ?? [])],
    otherPayments: rowsToCents(w.otherPayments ?? []),
    deductions: rowsToCents(w.deductions ?? []),
    deposits: rowsToCents(w.deposits ?? []),
    deductedDeposit: (w.deductedDeposit ?? []).map((r) => ({ name: r.name, amount: wireToCents(r.amount), depositId: r.depositId ?? null })),
    isDeductedDeposit: Boolean(w.isDeductedDeposit),
  };
}

export function summaryToWire(s: PaymentSummary): PaymentSummaryWire {
  const figures = Object.fromEntries(SUMMARY_FIGURES.map((k) => [k, centsToNumeric(s[k])])) as { [K in (typeof SUMMARY_FIGURES)[number]]: MoneyText };
  return { ...figures, gstConfig: { percentage: s.gstPercent } };
}

export function summaryFromWire(w: PaymentSummaryWire): PaymentSummary {
  const figures = Object.fromEntries(SUMMARY_FIGURES.map((k) => [k, wireToCents(w[k])])) as Omit<PaymentSummary, "gstPercent">;
  return { ...figures, gstPercent: w.gstConfig.percentage };
}

/** A priced class card as stored in `classInformations` (and replied): the choices plus the computed figures. */
export function classInformationToStored(entry: ClassInformationEntry, cls: Pick<PricedClass, "name" | "classType" | "classStatus">, t: ClassCardTotals, program: ClassInformationStored["program"]): ClassInformationStored {
  const money = centsToNumeric;
  return {
    id: entry.id,
    className: cls.name,
    classType: cls.classType,
    classStatus: cls.classStatus,
    lessonStartDate: entry.lessonStartDate,
    ...(entry.lessonEndDate ? { lessonEndDate: entry.lessonEndDate } : {}),
    termIds: entry.termIds,
    discountIds: t.discounts.map((d) => d.id),
    quantityAdditionalLesson: entry.quantityAdditionalLesson,
    additionalDiscount: money(entry.additionalDiscount),
    booterClassIds: entry.booterClassIds,
    otherPayments: entry.otherPayments.map((r) => ({ name: r.name, amount: money(r.amount) })),
    deductions: entry.deductions.map((r) => ({ name: r.name, amount: money(r.amount) })),
    deposits: entry.deposits.map((r) => ({ name: r.name, amount: money(r.amount) })),
    deductedDeposit: entry.deductedDeposit.map((r) => ({ name: r.name, amount: money(r.amount), depositId: r.depositId ?? null })),
    isDeductedDeposit: entry.isDeductedDeposit,
    termInformations: t.termLines.map((l) => ({ id: l.id, name: l.name, lessons: l.lessons, lessonIds: l.lessonIds, pricing: money(l.pricing), total: money(l.total) })),
    period: t.period,
    program,
    responses: {
      lessons: t.lessons,
      lessonIds: t.lessonIds,
      unitPrice: money(t.unitPrice),
      classBase: money(t.classBase),
      additionalLesson: { quantity: entry.quantityAdditionalLesson, pricing: money(t.unitPrice), total: money(t.additional) },
      boosterClassesPrice: money(t.boosters),
      discounts: t.discounts.map((d) => ({ id: d.id, name: d.name ?? null, unit: d.unit, amount: money(d.amount) })),
      totalDiscount: money(t.totalDiscount),
      total: money(t.classTotal),
    },
  };
}
