/**
 * The PA summary, `paymentSummaryStatic` (FINANCE.md §3):
 *   classFee        = Σ classTotal
 *   registrationFee = the setting's amount if Apply is on and the issue date is outside the waiver period, else 0
 *   materialFee     = Σ other-payment rows named as material
 *   otherPayment    = Σ other-payment rows − materialFee
 *   deduction       = Σ deduction rows (shown negative)
 *   totalBeforeGst  = classFee + registrationFee + materialFee + otherPayment − deduction
 *   gst             = round-half-up(totalBeforeGst × gstPercent / 100), gstPercent ∈ {0, 7, 8, 9}
 *   totalAfterGst   = totalBeforeGst + gst
 *   deposit         = Σ deposit rows (outside GST)
 *   deductedDeposit = Σ paid deposits applied (shown negative; outside GST)
 *   totalPayable    = totalAfterGst + deposit − deductedDeposit (a negative total is refused)
 */
import type { Cents } from "../money.ts";
import { percentOfCents } from "./rounding.ts";

export const GST_CHOICES = [0, 7, 8, 9] as const;
export type GstPercent = (typeof GST_CHOICES)[number];
export const GST_LABELS: Record<GstPercent, string> = { 0: "No GST", 7: "7%", 8: "8%", 9: "9%" };

export function isGstPercent(n: unknown): n is GstPercent {
  return typeof n === "number" && (GST_CHOICES as readonly number[]).includes(n);
}

export interface NamedAmount {
  name: string;
  amount: Cents;
}

/** An other-payment row counts as the material fee when its name mentions material ("Material fee", "Materials"). */
export function isMaterialRow(row: Pick<NamedAmount, "name">): boolean {
  return /\bmaterials?\b/i.test(row.name);
}

export interface PaymentSummaryInput {
  classTotals: readonly Cents[];
  registrationFee: Cents;
  otherPayments: readonly NamedAmount[];
  deductions: readonly NamedAmount[];
  deposits: readonly NamedAmount[];
  deductedDeposits: readonly NamedAmount[];
  gstPercent: GstPercent;
}

export interface PaymentSummary {
  classFee: Cents;
  registrationFee: Cents;
  materialFee: Cents;
  otherPayment: Cents;
  deduction: Cents;
  totalBeforeGst: Cents;
  gst: Cents;
  totalAfterGst: Cents;
  deposit: Cents;
  deductedDeposit: Cents;
  totalPayable: Cents;
  gstPercent: GstPercent;
}

/** The eleven figures, in the order the summary block shows them. */
export const SUMMARY_FIGURES = [
  "classFee", "registrationFee", "materialFee", "otherPayment", "deduction", "totalBeforeGst", "gst", "totalAfterGst", "deposit", "deductedDeposit", "totalPayable",
] as const satisfies readonly (keyof PaymentSummary)[];

/** Labels of the eleven figures: the builder's summary, the on-screen paper, its PDF and the PA log read these. */
export const SUMMARY_LABELS: Record<(typeof SUMMARY_FIGURES)[number], string> = {
  classFee: "Class Fee",
  registrationFee: "Registration Fee",
  materialFee: "Material Fee",
  otherPayment: "Other Payment",
  deduction: "Deduction",
  totalBeforeGst: "Total Before GST",
  gst: "GST",
  totalAfterGst: "Total After GST",
  deposit: "Deposit",
  deductedDeposit: "Deducted Deposit",
  totalPayable: "Total Payable",
};

/** Figures shown negative (they are stored positive and subtracted). */
export const NEGATIVE_FIGURES = new Set<keyof PaymentSummary>(["deduction", "deductedDeposit"]);

export const NEGATIVE_TOTAL_MESSAGE = "The total payable cannot be negative.";
export const NEGATIVE_ROW_MESSAGE = "Amount cannot be negative.";

const sum = (rows: readonly NamedAmount[]) => rows.reduce((s, r) => s + r.amount, 0);

export function computePaymentSummary(input: PaymentSummaryInput): PaymentSummary {
  if (!(GST_CHOICES as readonly number[]).includes(input.gstPercent)) throw new RangeError(`GST must be one of ${GST_CHOICES.join(", ")}.`);
  for (const row of [...input.otherPayments, ...input.deductions, ...input.deposits, ...input.deductedDeposits]) {
    if (row.amount < 0) throw new RangeError(NEGATIVE_ROW_MESSAGE);
  }
  const classFee = input.classTotals.reduce((s, c) => s + c, 0);
  const materialFee = sum(input.otherPayments.filter(isMaterialRow));
  const otherPayment = sum(input.otherPayments) - materialFee;
  const deduction = sum(input.deductions);
  const totalBeforeGst = classFee + input.registrationFee + materialFee + otherPayment - deduction;
  const gst = percentOfCents(totalBeforeGst, input.gstPercent * 100);
  const totalAfterGst = totalBeforeGst + gst;
  const deposit = sum(input.deposits);
  const deductedDeposit = sum(input.deductedDeposits);
  return {
    classFee,
    registrationFee: input.registrationFee,
    materialFee,
    otherPayment,
    deduction,
    totalBeforeGst,
    gst,
    totalAfterGst,
    deposit,
    deductedDeposit,
    totalPayable: totalAfterGst + deposit - deductedDeposit,
    gstPercent: input.gstPercent,
  };
}

/** The summary may be saved (and issued) only when the total payable is not negative. */
export function isPayableValid(summary: Pick<PaymentSummary, "totalPayable">): boolean {
  return summary.totalPayable >= 0;
}
