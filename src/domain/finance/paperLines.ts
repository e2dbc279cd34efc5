/**
 * The class lines of a payment advice's paper (spec part 2 §2), one source for the PDF (server/finance/paper.ts)
 * and the paper on screen: per class card its terms (or its period), additional lessons, boosters, each
 * discount, the additional discount, other payments (the material fee among them), deductions, deposits
 * collected and deducted, and the class total. Amounts are signed cents: what is taken off is negative.
 */
import { formatCalendarDay, DISPLAY_DATE_FORMAT } from "../dates.ts";
import { numericToCents, type Cents } from "../money.ts";
import type { ClassInformationStored } from "./paymentAdviceApi.ts";

export interface PaperLine {
  /** The class's name on its first line only. */
  className: string;
  label: string;
  lessons: number | null;
  unitPrice: Cents | null;
  amount: Cents;
  /** The class total closing each card. */
  total: boolean;
}

const cents = (v: string | number | null | undefined): Cents => numericToCents(v ?? "0") ?? 0;
const day = (v: string) => formatCalendarDay(v, DISPLAY_DATE_FORMAT);

export function paperClassLines(cards: readonly ClassInformationStored[]): PaperLine[] {
  const out: PaperLine[] = [];
  for (const ci of cards) {
    const lines: Array<Omit<PaperLine, "className" | "total">> = [];
    const terms = ci.termInformations.length
      ? ci.termInformations.map((t) => ({ label: t.name, lessons: t.lessons, unitPrice: cents(t.pricing), amount: cents(t.total) }))
      : [{ label: ci.period ? `${day(ci.period.startDate)} - ${day(ci.period.endDate)}` : "--", lessons: ci.responses.lessons, unitPrice: cents(ci.responses.unitPrice), amount: cents(ci.responses.classBase) }];
    lines.push(...terms);
    const item = (label: string, amount: Cents) => lines.push({ label, lessons: null, unitPrice: null, amount });
    if (ci.quantityAdditionalLesson > 0) lines.push({ label: "Additional lessons", lessons: ci.quantityAdditionalLesson, unitPrice: cents(ci.responses.additionalLesson.pricing), amount: cents(ci.responses.additionalLesson.total) });
    if (cents(ci.responses.boosterClassesPrice) > 0) item("Booster lessons", cents(ci.responses.boosterClassesPrice));
    for (const d of ci.responses.discounts) item(`Discount: ${d.name ?? ""}`, -cents(d.amount));
    if (cents(ci.additionalDiscount) > 0) item("Additional discount", -cents(ci.additionalDiscount));
    for (const r of ci.otherPayments) item(r.name, cents(r.amount));
    for (const r of ci.deductions) item(`Deduction: ${r.name}`, -cents(r.amount));
    for (const r of ci.deposits) item(`Deposit: ${r.name}`, cents(r.amount));
    for (const r of ci.deductedDeposit) item(`Deducted deposit: ${r.name}`, -cents(r.amount));
    lines.forEach((l, i) => out.push({ ...l, className: i === 0 ? ci.className : "", total: false }));
    out.push({ className: "", label: "Class total", lessons: null, unitPrice: null, amount: cents(ci.responses.total), total: true });
  }
  return out;
}
