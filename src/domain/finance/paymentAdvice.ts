/**
 * A whole payment advice priced from its class information entries (FINANCE.md §3): the one function the
 * builder's live preview and the server's finance service both call. Inputs come from the database
 * (prices, lessons, discounts, settings); the entries carry only the user's choices.
 */
import type { Cents } from "../money.ts";
import { computeClassCard, type CardLesson, type CardTerm, type ClassCardTotals, type ClassType } from "./classCard.ts";
import type { DiscountRule } from "./discounts.ts";
import { effectiveRegistrationFeeApplied, registrationFeeCharged, type WaiverPeriod } from "./registrationFee.ts";
import { computePaymentSummary, type GstPercent, type NamedAmount, type PaymentSummary } from "./summary.ts";

/** One class information entry, with money in cents: the user's choices for a class card. */
export interface ClassInformationEntry {
  /** The class id. */
  id: string;
  lessonStartDate: string | null;
  /** Set by the server when the student was withdrawn from the class: no lesson after it is billed. */
  lessonEndDate?: string | null;
  termIds: string[];
  discountIds: string[];
  quantityAdditionalLesson: number;
  additionalDiscount: Cents;
  booterClassIds: string[];
  otherPayments: NamedAmount[];
  deductions: NamedAmount[];
  deposits: NamedAmount[];
  /** Paid deposits applied on this PA (depositId names the deposit; its amount comes from the database). */
  deductedDeposit: Array<NamedAmount & { depositId?: string | null }>;
  isDeductedDeposit: boolean;
}

/** What the database says about a class, for pricing. */
export interface PricedClass {
  id: string;
  name: string;
  classType: ClassType | string;
  classStatus: string;
  /** pricePerLesson of the class's calendar, programme type and company; special/others: pricePerStudent. */
  unitPrice: Cents;
  lessons: CardLesson[];
  terms: CardTerm[];
}

export interface PaymentAdviceComputeInput {
  issueDate: string | null;
  isRegistrationFee: boolean;
  registrationFee: { amount: Cents; waiverPeriod: WaiverPeriod | null };
  gstPercent: GstPercent;
  entries: readonly ClassInformationEntry[];
  classes: ReadonlyMap<string, PricedClass>;
  discounts: readonly DiscountRule[];
  /** Price of each booster class by id. */
  boosterPrices: ReadonlyMap<string, Cents>;
}

export interface PaymentAdviceTotals {
  cards: Array<{ entry: ClassInformationEntry; cls: PricedClass; totals: ClassCardTotals }>;
  registrationFeeApplied: boolean;
  summary: PaymentSummary;
}

export class UnknownClassError extends Error {
  constructor(readonly classId: string) {
    super(`Class ${classId} not found.`);
  }
}

export function computePaymentAdvice(input: PaymentAdviceComputeInput): PaymentAdviceTotals {
  const cards = input.entries.map((entry) => {
    const cls = input.classes.get(entry.id);
    if (!cls) throw new UnknownClassError(entry.id);
    const totals = computeClassCard({
      classType: cls.classType,
      lessonStartDate: entry.lessonStartDate,
      lessonEndDate: entry.lessonEndDate ?? null,
      termIds: entry.termIds,
      lessons: cls.lessons,
      terms: cls.terms,
      unitPrice: cls.unitPrice,
      quantityAdditionalLesson: entry.quantityAdditionalLesson,
      boosterPrices: [...new Set(entry.booterClassIds)].map((id) => input.boosterPrices.get(id) ?? 0),
      discountIds: entry.discountIds,
      discounts: input.discounts,
      additionalDiscount: entry.additionalDiscount,
      issueDate: input.issueDate,
    });
    return { entry, cls, totals };
  });
  const registrationFeeApplied = effectiveRegistrationFeeApplied(input.isRegistrationFee, input.issueDate, input.registrationFee.waiverPeriod);
  const summary = computePaymentSummary({
    classTotals: cards.map((c) => c.totals.classTotal),
    registrationFee: registrationFeeCharged({ apply: input.isRegistrationFee, amount: input.registrationFee.amount, issueDate: input.issueDate, waiverPeriod: input.registrationFee.waiverPeriod }),
    otherPayments: input.entries.flatMap((e) => e.otherPayments),
    deductions: input.entries.flatMap((e) => e.deductions),
    deposits: input.entries.flatMap((e) => e.deposits),
    deductedDeposits: input.entries.flatMap((e) => (e.isDeductedDeposit ? e.deductedDeposit : [])),
    gstPercent: input.gstPercent,
  });
  return { cards, registrationFeeApplied, summary };
}
