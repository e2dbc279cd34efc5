/**
 * Credit note figures (FINANCE.md §4, spec part 2 §9): the base is numberOfLesson × unitPriceOfClass for a
 * suspension, or the overpaid amount; GST at the originating PA's rate is added, half up to the cent.
 */
import type { Cents } from "../money.ts";
import { percentOfCents } from "./rounding.ts";
import type { GstPercent } from "./summary.ts";

export type CreditNoteBase = { numberOfLesson: number; unitPriceOfClass: Cents } | { overpaidAmount: Cents };

export function creditNoteTotals(base: CreditNoteBase, gstPercent: GstPercent): { subTotal: Cents; gst: Cents; total: Cents } {
  const subTotal = "overpaidAmount" in base ? base.overpaidAmount : base.numberOfLesson * base.unitPriceOfClass;
  const gst = percentOfCents(subTotal, gstPercent * 100);
  return { subTotal, gst, total: subTotal + gst };
}

export const CREDIT_NOTE_MESSAGES = {
  notOverpaid: "This receipt's invoice is not overpaid.",
  alreadyCredited: "An overpaid credit note was already made from this invoice.",
  onlyOverpaid: "Suspension credit notes are made from a suspension.",
} as const;
