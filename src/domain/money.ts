/**
 * Money (spec part 1 §5, part 2 §9): amounts are integer cents in TypeScript, numeric(12,2) in SQL and
 * numeric strings over GraphQL. Shown with the prefix S$ (a minus sign in front when negative),
 * thousands grouping and two decimals; the currency input does not take a third decimal as it is typed
 * (the user sees it dropped), and a text with one is refused, never cut (FINANCE.md §1 "Bounds").
 * No float arithmetic: every conversion works on the decimal digits as text.
 */
export const CURRENCY_PREFIX = "S$";

export type Cents = number;

function assertCents(cents: Cents): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an integer amount of cents: ${cents}`);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** 123456 → "S$1,234.56"; -5 → "-S$0.05". */
export function formatMoney(cents: Cents): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = String(Math.abs(cents)).padStart(3, "0");
  const whole = abs.slice(0, -2);
  const fraction = abs.slice(-2);
  return `${negative ? "-" : ""}${CURRENCY_PREFIX}${groupThousands(whole)}.${fraction}`;
}

/** 123456 → "1234.56": the numeric string sent over GraphQL. */
export function centsToNumeric(cents: Cents): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = String(Math.abs(cents)).padStart(3, "0");
  return `${negative ? "-" : ""}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/**
 * A numeric value as GraphQL returns it ("1234.5", "-0.05", 12) → integer cents, for reading stored
 * figures (numeric(12,2) never holds a third decimal; digits beyond the second are cut). Amounts a user
 * sends are parsed by `parseAmount` (src/domain/finance/bounds.ts), which refuses them instead.
 * Returns null when not a number.
 */
export function numericToCents(value: string | number | null | undefined): Cents | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === "number" ? numberToPlainString(value) : value.trim();
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return null;
  const whole = match[2] === "" ? "0" : match[2];
  const fraction = ((match[3] ?? "") + "00").slice(0, 2);
  const cents = Number(whole) * 100 + Number(fraction);
  if (!Number.isSafeInteger(cents)) return null;
  return match[1] === "-" && cents !== 0 ? -cents : cents;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) return "NaN";
  // toFixed(20) would expose binary noise; toPrecision keeps the shortest round-trip digits.
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * What the user typed in the currency input → its parts, cutting what the input does not accept:
 * anything but digits, one decimal point and a leading minus; digits after the second decimal
 * (`extraDecimals` says some were there).
 */
export interface MoneyInputParts {
  negative: boolean;
  whole: string;
  /** undefined when no decimal point was typed; otherwise 0–2 digits. */
  fraction: string | undefined;
  extraDecimals: boolean;
}

export function parseMoneyInputParts(text: string): MoneyInputParts {
  const trimmed = text.trim();
  const negative = /^[^\d.]*-/.test(trimmed);
  const body = trimmed.replace(/[^\d.]/g, "");
  const dot = body.indexOf(".");
  const wholeRaw = dot === -1 ? body : body.slice(0, dot);
  const decimals = dot === -1 ? "" : body.slice(dot + 1).replace(/\./g, "");
  const fraction = dot === -1 ? undefined : decimals.slice(0, 2);
  const whole = wholeRaw.replace(/^0+(?=\d)/, "");
  return { negative, whole, fraction, extraDecimals: decimals.length > 2 };
}

/**
 * The currency input's text → integer cents; null when empty or with more than two decimals (refused,
 * never cut). "S$1,234.56" → 123456; "-S$0.5" → -50; "1234.567" → null.
 */
export function parseMoneyInput(text: string | null | undefined): Cents | null {
  if (text === null || text === undefined) return null;
  const { negative, whole, fraction, extraDecimals } = parseMoneyInputParts(text);
  if (extraDecimals || (whole === "" && (fraction === undefined || fraction === ""))) return null;
  const cents = Number(whole === "" ? "0" : whole) * 100 + Number((fraction ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return null;
  return negative && cents !== 0 ? -cents : cents;
}

/**
 * How the currency input shows what is being typed: "1234.5" → "S$1,234.5", "-12" → "-S$12",
 * "1.239" → "S$1.23" (extra digits cut), "-" → "-S$". Complete values use {@link formatMoney}.
 */
export function formatMoneyInputText(text: string): string {
  if (text.trim() === "") return "";
  const { negative, whole, fraction } = parseMoneyInputParts(text);
  const grouped = groupThousands(whole === "" && fraction !== undefined ? "0" : whole);
  return `${negative ? "-" : ""}${CURRENCY_PREFIX}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}

/** Sum of amounts in cents (integers only). */
export function sumCents(amounts: readonly Cents[]): Cents {
  return amounts.reduce((total, c) => {
    assertCents(c);
    return total + c;
  }, 0);
}
