/**
 * One formatter per kind of value shown to staff (issue 19; spec part 1 §5, part 2 §9), used by the
 * framework's field kinds so that no screen formats on its own: money as S$ with grouping and two
 * decimals, finance dates as DD/MM/YYYY, date-times as 'HH:mm, DD/MM/YYYY', all in Asia/Singapore.
 */
import { DISPLAY_DATE_FORMAT, formatCalendarDay, formatTimeDate, type DateInput } from "./dates.ts";
import { formatMoney, numericToCents } from "./money.ts";

export { formatMoney, formatTimeDate };

/** A calendar day (or the Singapore day of an instant) as finance screens show it: '01/03/2026'. */
export function formatFinanceDate(value: DateInput | null | undefined): string {
  return formatCalendarDay(value, DISPLAY_DATE_FORMAT);
}

/**
 * A value recorded as text (a log's before/after) as staff read it: a calendar day "YYYY-MM-DD" as DD/MM/YYYY, an
 * ISO instant as 'HH:mm, DD/MM/YYYY' in Singapore; any other text as it is.
 */
export function formatRecordedText(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatFinanceDate(value);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatTimeDate(value);
  return value;
}

/** A numeric amount from GraphQL ("1234.5") as money: 'S$1,234.50'; "" when empty or not a number. */
export function formatMoneyValue(value: string | number | null | undefined): string {
  const cents = numericToCents(value);
  return cents === null ? "" : formatMoney(cents);
}

/** The two units of a discount (spec part 2 §3): an amount of money or a percentage. */
export type DiscountUnit = "amount" | "percent";

/** A discount by its unit: 20 with "amount" → 'S$20.00'; 10 with "percent" → '10%'; 12.5 → '12.5%'. */
export function formatDiscount(amount: string | number | null | undefined, unit: DiscountUnit | string | null | undefined): string {
  if (amount === null || amount === undefined || amount === "") return "";
  if (unit === "percent") {
    const cents = numericToCents(amount);
    if (cents === null) return "";
    const whole = Math.trunc(cents / 100);
    const fraction = String(Math.abs(cents % 100)).padStart(2, "0").replace(/0+$/, "");
    return `${cents < 0 && whole === 0 ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}%`;
  }
  return formatMoneyValue(amount);
}
