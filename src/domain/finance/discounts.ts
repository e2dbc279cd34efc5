/**
 * Discounts on a class card (spec part 2 §5, FINANCE.md §3): options are active discounts whose start and
 * end dates surround the issue date; each is counted at most once per class; a `percent` discount is
 * rounded half up on (classBase + additional), an `amount` discount is its amount.
 */
import type { Cents } from "../money.ts";
import { percentOfCents } from "./rounding.ts";

export type DiscountUnit = "amount" | "percent";

export interface DiscountRule {
  id: string;
  name?: string;
  unit: DiscountUnit;
  /** `amount`: cents; `percent`: hundredths of a percent (both are numericToCents of the stored value). */
  value: number;
  /** YYYY-MM-DD; null = open-ended. */
  startDate: string | null;
  endDate: string | null;
  status: string;
}

/** Whether a discount may be offered and applied on a PA issued on `issueDate` (YYYY-MM-DD). */
export function isDiscountEligible(d: DiscountRule, issueDate: string | null | undefined): boolean {
  if (!issueDate || d.status !== "active") return false;
  if (d.startDate && issueDate < d.startDate) return false;
  if (d.endDate && issueDate > d.endDate) return false;
  return true;
}

/** The discounts a class card may offer on that issue date, in the given order. */
export function eligibleDiscounts<T extends DiscountRule>(all: readonly T[], issueDate: string | null | undefined): T[] {
  return all.filter((d) => isDiscountEligible(d, issueDate));
}

export interface AppliedDiscount {
  id: string;
  name?: string;
  unit: DiscountUnit;
  amount: Cents;
}

/**
 * The discounts applied to one class: the chosen ids, each once, that exist and are eligible on the
 * issue date; the rest are dropped (never priced). `base` is classBase + additional.
 */
export function applyDiscounts(chosenIds: readonly string[], rules: readonly DiscountRule[], issueDate: string | null | undefined, base: Cents): AppliedDiscount[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const applied: AppliedDiscount[] = [];
  for (const id of new Set(chosenIds)) {
    const rule = byId.get(id);
    if (!rule || !isDiscountEligible(rule, issueDate)) continue;
    const amount = rule.unit === "percent" ? percentOfCents(base, rule.value) : rule.value;
    applied.push({ id: rule.id, name: rule.name, unit: rule.unit, amount });
  }
  return applied;
}
