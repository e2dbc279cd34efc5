/**
 * Dates and times (spec part 1 §9, part 2 §9): stored as timestamptz / date, shown in Asia/Singapore.
 */
import dayjs, { type Dayjs } from "dayjs";
import utc from "dayjs/plugin/utc.js";
import timezone from "dayjs/plugin/timezone.js";
import customParseFormat from "dayjs/plugin/customParseFormat.js";

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

export const DISPLAY_TIMEZONE = "Asia/Singapore";
/** A calendar day, as stored (`date`) and as the spec writes it. */
export const DATE_FORMAT = "YYYY-MM-DD";
export const TIME_FORMAT = "HH:mm:ss";
export const TIME_DATE_FORMAT = "HH:mm, DD/MM/YYYY";
export const DATE_TIME_FORMAT = "DD MMM YYYY HH:mm";
/** Finance screens show days as DD/MM/YYYY (spec part 2 §9). */
export const DISPLAY_DATE_FORMAT = "DD/MM/YYYY";

export type DateInput = string | number | Date | Dayjs;

/** The instant, seen from Singapore. Returns null for empty or invalid input. */
export function inSingapore(value: DateInput | null | undefined): Dayjs | null {
  if (value === null || value === undefined || value === "") return null;
  const d = dayjs.isDayjs(value) ? value : dayjs(value);
  if (!d.isValid()) return null;
  return d.tz(DISPLAY_TIMEZONE);
}

/** Formats an instant in Singapore time; "" for empty or invalid input. */
export function formatInSingapore(value: DateInput | null | undefined, format: string): string {
  return inSingapore(value)?.format(format) ?? "";
}

/** '21:05, 03/02/2026' */
export const formatTimeDate = (value: DateInput | null | undefined) => formatInSingapore(value, TIME_DATE_FORMAT);
/** '03 Feb 2026 21:05' */
export const formatDateTime = (value: DateInput | null | undefined) => formatInSingapore(value, DATE_TIME_FORMAT);
/** '21:05:09' */
export const formatTime = (value: DateInput | null | undefined) => formatInSingapore(value, TIME_FORMAT);

/**
 * A calendar day (`date` column, "YYYY-MM-DD") is not an instant: it is shown as it is, never shifted.
 * Accepts "YYYY-MM-DD" or an ISO timestamp (then the Singapore day of that instant).
 */
export function formatCalendarDay(value: DateInput | null | undefined, format = DATE_FORMAT): string {
  const day = parseCalendarDay(value);
  return day ? day.format(format) : "";
}

/** A calendar day as staff read it (spec: DD/MM/YYYY everywhere): '15/03/2012'; "" when empty. */
export const formatDay = (value: DateInput | null | undefined) => formatCalendarDay(value, DISPLAY_DATE_FORMAT);

/** "YYYY-MM-DD" (strict) or an instant → the calendar day as a local dayjs at midnight; null when invalid. */
export function parseCalendarDay(value: DateInput | null | undefined): Dayjs | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = dayjs(value, DATE_FORMAT, true);
    return d.isValid() ? d : null;
  }
  const sg = inSingapore(value);
  return sg ? dayjs(sg.format(DATE_FORMAT), DATE_FORMAT, true) : null;
}

/** Today's calendar day in Singapore, "YYYY-MM-DD". */
export function todayInSingapore(now: DateInput = new Date()): string {
  return inSingapore(now)!.format(DATE_FORMAT);
}

/** A Singapore wall-clock date and time ("2026-02-03", "21:05:09") → the instant as an ISO string (UTC). */
export function singaporeWallTimeToIso(day: string, time = "00:00:00"): string | null {
  const d = dayjs.tz(`${day} ${time}`, `${DATE_FORMAT} ${TIME_FORMAT}`, DISPLAY_TIMEZONE);
  return d.isValid() ? d.utc().toISOString() : null;
}

/** A calendar day as finance sends it: the UTC start of that day as an ISO string (spec part 2 §9). */
export function calendarDayToUtcStartIso(day: DateInput | null | undefined): string | null {
  const d = parseCalendarDay(day);
  return d ? dayjs.utc(d.format(DATE_FORMAT), DATE_FORMAT).toISOString() : null;
}

export { dayjs };
