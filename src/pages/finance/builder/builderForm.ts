/**
 * The builder's form values and their two translations: to the REST body (money as numeric strings,
 * days as YYYY-MM-DD) and to the domain's entries for the live preview (cents).
 */
import type { Dayjs } from "dayjs";
import { dayjs, DATE_FORMAT } from "../../../domain/dates.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../../domain/money.ts";
import type { ClassInformationEntry } from "../../../domain/finance/paymentAdvice.ts";
import type { ClassInformationInput, PaymentAdviceFields } from "../../../domain/finance/paymentAdviceApi.ts";
import { isGstPercent, type GstPercent } from "../../../domain/finance/summary.ts";
import type { PaRecord } from "./builderData.ts";

export interface AmountRow {
  name?: string;
  amount?: Cents | null;
}

export interface CardValues {
  id: string;
  lessonStartDate: Dayjs | null;
  termIds: string[];
  discountIds: string[];
  quantityAdditionalLesson: number | null;
  additionalDiscount: Cents | null;
  booterClassIds: string[];
  otherPayments: AmountRow[];
  deductions: AmountRow[];
  deposits: AmountRow[];
  isDeductedDeposit: boolean;
  /** Ids of the student's paid deposits deducted on this card. */
  deductedDepositIds: string[];
}

export interface BuilderValues {
  studentId: string | null;
  companyId: string | null;
  branchId: string | null;
  axsCode: string | null;
  issueDate: Dayjs | null;
  dueDate: Dayjs | null;
  qrExpiryDate: Dayjs | null;
  isRegistrationFee: boolean;
  gst: GstPercent;
  remarks: string | null;
  notes: string | null;
  classInformations: CardValues[];
}

const day = (d: Dayjs | null | undefined) => (d ? d.format(DATE_FORMAT) : null);
const parseDay = (s: string | null | undefined) => (s ? dayjs(s.slice(0, 10), DATE_FORMAT) : null);
const cents = (v: unknown) => numericToCents(v as string | number | null) ?? 0;

export function newCard(classId: string): CardValues {
  return {
    id: classId,
    lessonStartDate: null,
    termIds: [],
    discountIds: [],
    quantityAdditionalLesson: 0,
    additionalDiscount: null,
    booterClassIds: [],
    otherPayments: [],
    deductions: [],
    deposits: [],
    isDeductedDeposit: false,
    deductedDepositIds: [],
  };
}

export function valuesFromRecord(pa: PaRecord): BuilderValues {
  return {
    studentId: pa.studentId,
    companyId: pa.companyId,
    branchId: pa.branchId,
    axsCode: pa.axsCode,
    issueDate: parseDay(pa.issueDate),
    dueDate: parseDay(pa.dueDate),
    qrExpiryDate: parseDay(pa.qrExpiryDate),
    isRegistrationFee: pa.isRegistrationFee,
    gst: isGstPercent(Number(pa.gst)) ? (Number(pa.gst) as GstPercent) : 0,
    remarks: pa.remarks,
    notes: pa.notes,
    classInformations: (pa.classInformations ?? []).map((c) => ({
      id: c.id,
      lessonStartDate: parseDay(c.lessonStartDate),
      termIds: [...(c.termIds ?? [])],
      discountIds: [...(c.discountIds ?? [])],
      quantityAdditionalLesson: c.quantityAdditionalLesson ?? 0,
      additionalDiscount: cents(c.additionalDiscount ?? 0) || null,
      booterClassIds: [...(c.booterClassIds ?? [])],
      otherPayments: (c.otherPayments ?? []).map((r) => ({ name: r.name, amount: cents(r.amount) })),
      deductions: (c.deductions ?? []).map((r) => ({ name: r.name, amount: cents(r.amount) })),
      deposits: (c.deposits ?? []).map((r) => ({ name: r.name, amount: cents(r.amount) })),
      isDeductedDeposit: Boolean(c.isDeductedDeposit),
      deductedDepositIds: (c.deductedDeposit ?? []).map((d) => d.depositId).filter((x): x is string => Boolean(x)),
    })),
  };
}

const rowsToWire = (rows: AmountRow[] | undefined) => (rows ?? []).map((r) => ({ name: (r.name ?? "").trim(), amount: centsToNumeric(r.amount ?? 0) }));

export interface DepositRef {
  id: string;
  name: string;
  amount: string;
}

function cardToWire(c: CardValues, deposits: readonly DepositRef[]): ClassInformationInput {
  return {
    id: c.id,
    lessonStartDate: day(c.lessonStartDate),
    termIds: c.termIds ?? [],
    discountIds: c.discountIds ?? [],
    quantityAdditionalLesson: c.quantityAdditionalLesson ?? 0,
    additionalDiscount: centsToNumeric(c.additionalDiscount ?? 0),
    booterClassIds: c.booterClassIds ?? [],
    otherPayments: rowsToWire(c.otherPayments),
    deductions: rowsToWire(c.deductions),
    deposits: rowsToWire(c.deposits),
    isDeductedDeposit: Boolean(c.isDeductedDeposit),
    deductedDeposit: c.isDeductedDeposit
      ? (c.deductedDepositIds ?? []).flatMap((id) => {
          const d = deposits.find((x) => x.id === id);
          return d ? [{ depositId: d.id, name: d.name, amount: d.amount }] : [];
        })
      : [],
  };
}

/** The body of init / PUT (without action and updatedAt). */
export function valuesToFields(v: BuilderValues, deposits: readonly DepositRef[]): PaymentAdviceFields {
  return {
    studentId: v.studentId ?? "",
    companyId: v.companyId ?? "",
    branchId: v.branchId ?? null,
    issueDate: day(v.issueDate),
    dueDate: day(v.dueDate),
    qrExpiryDate: day(v.qrExpiryDate),
    hasExpiryDate: Boolean(v.qrExpiryDate),
    axsCode: v.axsCode?.trim() ? v.axsCode.trim() : null,
    isRegistrationFee: Boolean(v.isRegistrationFee),
    gst: v.gst ?? 0,
    remarks: v.remarks ?? null,
    notes: v.notes ?? null,
    classInformations: (v.classInformations ?? []).map((c) => cardToWire(c, deposits)),
  };
}

/** A card's choices as the domain prices them (incomplete rows and inputs count as nothing yet). */
export function cardToEntry(c: CardValues, deposits: readonly DepositRef[]): ClassInformationEntry {
  const rows = (rs: AmountRow[] | undefined) => (rs ?? []).filter((r) => r.amount !== null && r.amount !== undefined).map((r) => ({ name: r.name ?? "", amount: r.amount as Cents }));
  const q = c.quantityAdditionalLesson ?? 0;
  return {
    id: c.id,
    lessonStartDate: day(c.lessonStartDate),
    termIds: c.termIds ?? [],
    discountIds: c.discountIds ?? [],
    quantityAdditionalLesson: Number.isInteger(q) && q >= 0 ? q : 0,
    additionalDiscount: Math.max(0, c.additionalDiscount ?? 0),
    booterClassIds: c.booterClassIds ?? [],
    otherPayments: rows(c.otherPayments),
    deductions: rows(c.deductions),
    deposits: rows(c.deposits),
    deductedDeposit: c.isDeductedDeposit
      ? (c.deductedDepositIds ?? []).flatMap((id) => {
          const d = deposits.find((x) => x.id === id);
          return d ? [{ name: d.name, amount: cents(d.amount), depositId: d.id }] : [];
        })
      : [],
    isDeductedDeposit: Boolean(c.isDeductedDeposit),
  };
}
