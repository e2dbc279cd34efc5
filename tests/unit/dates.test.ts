import { describe, expect, it } from "vitest";
import {
  DATE_FORMAT,
  DATE_TIME_FORMAT,
  DISPLAY_TIMEZONE,
  TIME_DATE_FORMAT,
  TIME_FORMAT,
  calendarDayToUtcStartIso,
  formatCalendarDay,
  formatDateTime,
  formatInSingapore,
  formatTime,
  formatTimeDate,
  inSingapore,
  parseCalendarDay,
  singaporeWallTimeToIso,
  todayInSingapore,
} from "../../src/domain/dates.ts";

describe("the spec's formats and timezone", () => {
  it("are the constants of spec part 1 §9", () => {
    expect(DISPLAY_TIMEZONE).toBe("Asia/Singapore");
    expect(DATE_FORMAT).toBe("YYYY-MM-DD");
    expect(TIME_FORMAT).toBe("HH:mm:ss");
    expect(TIME_DATE_FORMAT).toBe("HH:mm, DD/MM/YYYY");
    expect(DATE_TIME_FORMAT).toBe("DD MMM YYYY HH:mm");
  });
});

describe("instants are shown in Asia/Singapore (UTC+8)", () => {
  const instant = "2026-02-03T13:05:09.000Z"; // 21:05:09 in Singapore
  it("HH:mm, DD/MM/YYYY", () => expect(formatTimeDate(instant)).toBe("21:05, 03/02/2026"));
  it("DD MMM YYYY HH:mm", () => expect(formatDateTime(instant)).toBe("03 Feb 2026 21:05"));
  it("HH:mm:ss", () => expect(formatTime(instant)).toBe("21:05:09"));
  it("crosses midnight into the Singapore day", () => {
    expect(formatInSingapore("2026-12-31T16:30:00Z", DATE_FORMAT)).toBe("2027-01-01");
    expect(formatInSingapore("2026-12-31T15:59:59Z", DATE_FORMAT)).toBe("2026-12-31");
  });
  it("accepts Date, epoch millis and timestamps with offsets", () => {
    expect(formatTimeDate(new Date(instant))).toBe("21:05, 03/02/2026");
    expect(formatTimeDate(Date.parse(instant))).toBe("21:05, 03/02/2026");
    expect(formatTimeDate("2026-02-03T21:05:09+08:00")).toBe("21:05, 03/02/2026");
  });
  it("empty and invalid values show as empty", () => {
    expect(formatDateTime(null)).toBe("");
    expect(formatDateTime(undefined)).toBe("");
    expect(formatDateTime("")).toBe("");
    expect(formatDateTime("not a date")).toBe("");
    expect(inSingapore("nope")).toBeNull();
  });
});

describe("calendar days are never shifted", () => {
  it("YYYY-MM-DD shows as is", () => {
    expect(formatCalendarDay("2026-03-01")).toBe("2026-03-01");
    expect(formatCalendarDay("2026-03-01", "DD/MM/YYYY")).toBe("01/03/2026");
  });
  it("an instant gives its Singapore day", () => expect(formatCalendarDay("2026-02-28T17:00:00Z")).toBe("2026-03-01"));
  it("invalid days are refused", () => {
    expect(parseCalendarDay("2026-02-30")).toBeNull();
    expect(parseCalendarDay("")).toBeNull();
    expect(formatCalendarDay(null)).toBe("");
  });
  it("today in Singapore", () => {
    expect(todayInSingapore(new Date("2026-05-05T16:00:00Z"))).toBe("2026-05-06");
    expect(todayInSingapore(new Date("2026-05-05T15:59:00Z"))).toBe("2026-05-05");
  });
});

describe("converting to what the server stores", () => {
  it("Singapore wall time → UTC ISO", () => {
    expect(singaporeWallTimeToIso("2026-02-03", "08:00:00")).toBe("2026-02-03T00:00:00.000Z");
    expect(singaporeWallTimeToIso("2026-02-03")).toBe("2026-02-02T16:00:00.000Z");
  });
  it("finance sends days as UTC start-of-day ISO strings", () => {
    expect(calendarDayToUtcStartIso("2026-02-03")).toBe("2026-02-03T00:00:00.000Z");
    expect(calendarDayToUtcStartIso(null)).toBeNull();
  });
});
