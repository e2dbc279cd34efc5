/**
 * One class card of a payment advice (FINANCE.md §3, spec part 2 §4):
 *   lessons      = lessons of the chosen terms dated on/after the lesson start date, not cancelled or deleted
 *                  (special and others classes: the class's lessons from the start date, whatever the term);
 *   classBase    = lessons × unitPrice;  additional = quantityAdditionalLesson × unitPrice;
 *   boosters     = Σ booster classes' prices;
 *   totalDiscount = Σ eligible discounts (each once) + additionalDiscount, capped at classBase + additional + boosters;
 *   classTotal   = classBase + additional + boosters − totalDiscount.
 */
import type { Cents } from "../money.ts";
import { applyDiscounts, type AppliedDiscount, type DiscountRule } from "./discounts.ts";

export type ClassType = "regular" | "double_lesson" | "special" | "others";

/** Special and others classes are priced on all their lessons from the start date, without a term choice. */
export function isTermless(classType: ClassType | string | null | undefined): boolean {
  return classType === "special" || classType === "others";
}

export interface CardLesson {
  id: string;
  date: string; // YYYY-MM-DD
  termId: string | null;
  /** lessons.lessonStatus: active, cancel, deleted. */
  lessonStatus: string;
  /** lessons.status (soft delete); absent = active. */
  status?: string;
}

export interface CardTerm {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
}

/** A lesson that is billed: not cancelled, not deleted. */
export function isBillableLesson(l: CardLesson): boolean {
  return l.lessonStatus === "active" && (l.status ?? "active") !== "deleted";
}

/**
 * Terms before the term containing the lesson start date cannot be chosen (spec part 2 §4): a term is
 * selectable when it ends on or after the start date. Without a start date every term is selectable.
 */
export function isTermSelectable(term: Pick<CardTerm, "endDate">, lessonStartDate: string | null | undefined): boolean {
  return !lessonStartDate || term.endDate >= lessonStartDate;
}

/**
 * The billed lessons of a card, in date order. `lessonEndDate`: the last lesson of a student withdrawn
 * from the class (FINANCE.md §4): lessons after it are not billed.
 */
export function billedLessons(input: { classType: ClassType | string; lessonStartDate: string | null; lessonEndDate?: string | null; termIds: readonly string[]; lessons: readonly CardLesson[] }): CardLesson[] {
  const terms = new Set(input.termIds);
  const termless = isTermless(input.classType);
  return input.lessons
    .filter((l) => isBillableLesson(l))
    .filter((l) => !input.lessonStartDate || l.date >= input.lessonStartDate)
    .filter((l) => !input.lessonEndDate || l.date <= input.lessonEndDate)
    .filter((l) => termless || (l.termId !== null && terms.has(l.termId)))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
}

export interface ClassCardInput {
  classType: ClassType | string;
  lessonStartDate: string | null;
  /** The last lesson of a withdrawn student: later lessons are not billed. */
  lessonEndDate?: string | null;
  /** Chosen terms (ignored for special and others classes). */
  termIds: readonly string[];
  /** Every lesson of the class (the function filters). */
  lessons: readonly CardLesson[];
  /** Terms of the class's calendar, for the per-term table (optional). */
  terms?: readonly CardTerm[];
  unitPrice: Cents;
  quantityAdditionalLesson: number;
  boosterPrices: readonly Cents[];
  discountIds: readonly string[];
  discounts: readonly DiscountRule[];
  additionalDiscount: Cents;
  /** YYYY-MM-DD: discounts are those eligible on this day. */
  issueDate: string | null;
}

export interface TermLine {
  id: string;
  name: string;
  lessons: number;
  lessonIds: string[];
  pricing: Cents;
  total: Cents;
}

export interface ClassCardTotals {
  lessons: number;
  lessonIds: string[];
  termLines: TermLine[];
  unitPrice: Cents;
  classBase: Cents;
  additional: Cents;
  boosters: Cents;
  discounts: AppliedDiscount[];
  additionalDiscount: Cents;
  totalDiscount: Cents;
  classTotal: Cents;
  /** First and last billed lesson (null when none). */
  period: { startDate: string; endDate: string } | null;
}

export function computeClassCard(input: ClassCardInput): ClassCardTotals {
  if (!Number.isInteger(input.quantityAdditionalLesson) || input.quantityAdditionalLesson < 0) {
    throw new RangeError("Additional lessons must be a whole number of at least 0.");
  }
  if (input.additionalDiscount < 0) throw new RangeError("The additional discount cannot be negative.");
  const lessons = billedLessons(input);
  const classBase = lessons.length * input.unitPrice;
  const additional = input.quantityAdditionalLesson * input.unitPrice;
  const boosters = input.boosterPrices.reduce((s, p) => s + p, 0);
  const discounts = applyDiscounts(input.discountIds, input.discounts, input.issueDate, classBase + additional);
  const gross = classBase + additional + boosters;
  const totalDiscount = Math.min(discounts.reduce((s, d) => s + d.amount, 0) + input.additionalDiscount, gross);
  const termLines: TermLine[] = isTermless(input.classType)
    ? []
    : input.termIds.map((termId) => {
        const own = lessons.filter((l) => l.termId === termId);
        const term = input.terms?.find((t) => t.id === termId);
        return { id: termId, name: term?.name ?? "", lessons: own.length, lessonIds: own.map((l) => l.id), pricing: input.unitPrice, total: own.length * input.unitPrice };
      });
  return {
    lessons: lessons.length,
    lessonIds: lessons.map((l) => l.id),
    termLines,
    unitPrice: input.unitPrice,
    classBase,
    additional,
    boosters,
    discounts,
    additionalDiscount: input.additionalDiscount,
    totalDiscount,
    classTotal: gross - totalDiscount,
    period: lessons.length ? { startDate: lessons[0]!.date, endDate: lessons[lessons.length - 1]!.date } : null,
  };
}
