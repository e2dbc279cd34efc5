/**
 * Money out never exceeds money in (FINANCE.md §1, §4, §7): the billed unit price of a class and which of
 * its billed lessons were paid for, the rules the caps of credit notes and refunds are computed from.
 */
import type { Cents } from "../money.ts";
import { centsToNumeric } from "../money.ts";

/**
 * The per-lesson price the student was billed: the class total after discounts ÷ lessons billed (the
 * term's lessons plus additional ones), rounded down to the cent so that crediting every billed lesson
 * never gives back more than the class total (docs/DECISIONS.md).
 */
export function billedUnitPrice(classTotal: Cents, lessonsBilled: number): Cents {
  if (lessonsBilled <= 0 || classTotal <= 0) return 0;
  return Math.floor(classTotal / lessonsBilled);
}

/**
 * How many of a class card's dated lessons the PA's payments paid for: a payment pays every class card of
 * the PA in proportion (received ÷ totalPayable, overpayment aside — it is customer credit), whole lessons
 * only. A PA asking nothing (deductions cover it) has paid every lesson.
 */
export function lessonsPaidFor(lessons: number, received: Cents, totalPayable: Cents): number {
  if (totalPayable <= 0) return lessons;
  const share = Math.max(0, Math.min(received, totalPayable));
  return Math.floor((lessons * share) / totalPayable);
}

/**
 * The lessons that may still be given back: a payment pays the class's lessons in date order (the
 * earliest first, so money is used by lessons as they are delivered); of `wanted`, those among the first
 * `paid` billed lessons and not credited already.
 */
export function refundableLessons(billedInDateOrder: readonly string[], paid: number, wanted: readonly string[], credited: readonly string[]): string[] {
  const paidIds = new Set(billedInDateOrder.slice(0, Math.max(0, paid)));
  const done = new Set(credited);
  const wantedSet = new Set(wanted);
  return billedInDateOrder.filter((id) => wantedSet.has(id) && paidIds.has(id) && !done.has(id));
}

const dollars = (c: Cents) => `S$${Number(centsToNumeric(c)).toLocaleString("en-SG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const CAP_MESSAGES = {
  creditNoteLessons: (lessons: number, limit: Cents) =>
    `This credit note can credit at most ${lessons} lesson${lessons === 1 ? "" : "s"} (${dollars(limit)}): what was paid for the suspended lessons and not yet credited.`,
  overpaid: (limit: Cents) => `This credit note cannot be more than ${dollars(limit)}: the amount overpaid that is not yet credited.`,
  refund: (limit: Cents, parts: { lessons: Cents; creditNotes: Cents; deposits: Cents }) =>
    `This refund cannot be more than ${dollars(limit)}: what was paid for the lessons not delivered (${dollars(parts.lessons)}) plus the credit notes (${dollars(parts.creditNotes)}) and deposits (${dollars(parts.deposits)}) it includes.`,
  spent: (names: readonly string[]) =>
    `${names.length ? names.join(", ") : "A credit note or deposit of this refund"} ${names.length > 1 ? "were" : "was"} already used by another refund or as a payment. Reload the refund and take ${names.length > 1 ? "them" : "it"} out.`,
} as const;
