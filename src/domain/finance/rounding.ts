/**
 * Percentages on money (FINANCE.md §3): rounding happens only where a percentage is applied, half up to
 * the cent. Percentages arrive as numeric values with at most two decimals ("12.5", 9), so they are
 * held as hundredths of a percent and the product is computed on integers (BigInt: no float, no overflow).
 */
import { numericToCents, type Cents } from "../money.ts";

/** A percentage as hundredths of a percent: "12.5" → 1250, 9 → 900. Null when not a number. */
export function percentToHundredths(percent: string | number): number | null {
  return numericToCents(percent);
}

/**
 * round-half-up(cents × percent / 100), with the percent in hundredths of a percent.
 * Half up means away from zero on an exact half (−0.5 cent → −1 cent), so a sign never changes a figure.
 */
export function percentOfCents(cents: Cents, percentHundredths: number): Cents {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(percentHundredths)) {
    throw new RangeError(`Not integer cents or percent: ${cents}, ${percentHundredths}`);
  }
  const product = BigInt(cents) * BigInt(percentHundredths);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + 5000n) / 10000n;
  return Number(negative ? -rounded : rounded);
}
