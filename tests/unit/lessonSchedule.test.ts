import { describe, expect, it } from "vitest";
import { absenceStreak, replacesWithin } from "../../src/domain/attendance.ts";
import { addCalendarMonths, generateLessonSchedule, timesOverlap } from "../../src/domain/lessonSchedule.ts";

const term = (id: string, startDate: string, endDate: string, numberOfLessons: number) => ({ id, startDate, endDate, numberOfLessons });
const dates = (s: ReturnType<typeof generateLessonSchedule>) => s.lessons.map((l) => l.date);

describe("lesson generation from the calendar's frequency", () => {
  it("weekly: the first day's weekday, the term's number of lessons, numbered across terms", () => {
    const s = generateLessonSchedule({
      frequency: "weekly",
      firstDate: "2026-01-05", // Monday
      terms: [term("t1", "2026-01-05", "2026-03-31", 3), term("t2", "2026-04-01", "2026-06-30", 2)],
      holidays: [],
    });
    expect(dates(s)).toEqual(["2026-01-05", "2026-01-12", "2026-01-19", "2026-04-06", "2026-04-13"]);
    expect(s.lessons.map((l) => l.termId)).toEqual(["t1", "t1", "t1", "t2", "t2"]);
    expect(s.lessons.map((l) => l.numberWeek)).toEqual([1, 2, 3, 4, 5]);
    expect(s.shortfalls).toEqual([]);
  });

  it("weekly: a holiday is skipped and the term's lessons continue the week after", () => {
    const s = generateLessonSchedule({
      frequency: "weekly",
      firstDate: "2026-01-05",
      terms: [term("t1", "2026-01-01", "2026-03-31", 3)],
      holidays: ["2026-01-12", "2026-02-17"],
    });
    expect(dates(s)).toEqual(["2026-01-05", "2026-01-19", "2026-01-26"]);
  });

  it("a term too short for its lessons (holidays at its end) gives what fits and names the shortfall", () => {
    const s = generateLessonSchedule({
      frequency: "weekly",
      firstDate: "2026-03-02",
      terms: [term("t1", "2026-03-01", "2026-03-20", 4)],
      holidays: ["2026-03-16"],
    });
    expect(dates(s)).toEqual(["2026-03-02", "2026-03-09"]);
    expect(s.shortfalls).toEqual([{ termId: "t1", missing: 2 }]);
  });

  it("weekly across a month end and a year end keeps the weekday", () => {
    const s = generateLessonSchedule({
      frequency: "weekly",
      firstDate: "2026-12-24",
      terms: [term("t1", "2026-12-01", "2027-01-31", 3)],
      holidays: ["2026-12-31"],
    });
    expect(dates(s)).toEqual(["2026-12-24", "2027-01-07", "2027-01-14"]);
  });

  it("monthly from the 31st falls on each month's last day and returns to the 31st", () => {
    expect(addCalendarMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addCalendarMonths("2028-01-31", 1)).toBe("2028-02-29"); // leap year
    expect(addCalendarMonths("2026-01-31", 2)).toBe("2026-03-31");
    expect(addCalendarMonths("2026-11-30", 3)).toBe("2027-02-28");
    const s = generateLessonSchedule({
      frequency: "monthly",
      firstDate: "2026-01-31",
      terms: [term("t1", "2026-01-01", "2026-12-31", 4)],
      holidays: [],
    });
    expect(dates(s)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
  });

  it("monthly: a holiday on the day drops that month's lesson", () => {
    const s = generateLessonSchedule({
      frequency: "monthly",
      firstDate: "2026-01-15",
      terms: [term("t1", "2026-01-01", "2026-06-30", 3)],
      holidays: ["2026-02-15"],
    });
    expect(dates(s)).toEqual(["2026-01-15", "2026-03-15", "2026-04-15"]);
  });

  it("custom: the chosen days inside the terms, without holidays, sorted and once each", () => {
    const s = generateLessonSchedule({
      frequency: "custom",
      firstDate: "2026-02-01",
      terms: [term("t1", "2026-02-01", "2026-02-28", 2), term("t2", "2026-03-01", "2026-03-31", 5)],
      holidays: ["2026-03-10"],
      customDates: ["2026-03-10", "2026-02-20", "2026-02-03", "2026-02-03", "2026-02-25", "2026-03-04", "2026-04-02", "2026-01-20"],
    });
    expect(dates(s)).toEqual(["2026-02-03", "2026-02-20", "2026-03-04"]);
    expect(s.shortfalls).toEqual([{ termId: "t2", missing: 4 }]);
  });

  it("lessons start on the first day, not at the term's start", () => {
    const s = generateLessonSchedule({ frequency: "weekly", firstDate: "2026-01-21", terms: [term("t1", "2026-01-01", "2026-01-31", 4)], holidays: [] });
    expect(dates(s)).toEqual(["2026-01-21", "2026-01-28"]);
  });
});

describe("session clashes", () => {
  it("overlapping times clash, back-to-back sessions do not", () => {
    expect(timesOverlap({ start: "09:00", end: "11:00" }, { start: "10:30", end: "12:00" })).toBe(true);
    expect(timesOverlap({ start: "09:00", end: "11:00" }, { start: "11:00", end: "12:00" })).toBe(false);
  });
});

describe("three times absent: one notice per streak of absences", () => {
  const m = (date: string, state: "absent" | "present" | "other") => ({ date, state });
  it("the third absence in a row makes a streak; two do not", () => {
    const marks = [m("2026-01-05", "absent"), m("2026-01-12", "absent"), m("2026-01-19", "present"), m("2026-01-26", "absent")];
    expect(absenceStreak(marks, "2026-01-12")).toBeNull();
    // later absences do not make an earlier one the third
    expect(absenceStreak([m("2026-01-05", "absent"), m("2026-01-12", "absent"), m("2026-01-19", "absent")], "2026-01-12")).toBeNull();
    expect(absenceStreak([...marks, m("2026-02-02", "absent"), m("2026-02-09", "absent")], "2026-02-09")).toEqual(["2026-01-26", "2026-02-02", "2026-02-09"]);
  });
  it("suspended or not yet held lessons neither count nor break the streak; an attendance breaks it", () => {
    const marks = [m("2026-01-05", "absent"), m("2026-01-12", "other"), m("2026-01-19", "absent"), m("2026-01-26", "absent")];
    expect(absenceStreak(marks, "2026-01-26")).toEqual(["2026-01-05", "2026-01-19", "2026-01-26"]);
    expect(absenceStreak(marks, "2026-01-12")).toBeNull();
    expect(absenceStreak([...marks.slice(0, 1), m("2026-01-12", "present"), ...marks.slice(2)], "2026-01-26")).toBeNull();
  });
});

describe("replacement lessons (issue 37)", () => {
  it("a December lesson is replaced by a lesson of December, not of January", () => {
    expect(replacesWithin("2026-12-19", "2026-12-02")).toBe(true);
    expect(replacesWithin("2026-12-19", "2026-12-31")).toBe(true);
    expect(replacesWithin("2026-12-19", "2027-01-02")).toBe(false);
    expect(replacesWithin("2026-12-19", "2025-12-19")).toBe(false);
  });
});
