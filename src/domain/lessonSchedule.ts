/**
 * Lesson generation for a new class (issue 13): the lesson dates of each term of the class's academic
 * calendar, following the calendar's frequency, skipping holidays, at most the term's number of lessons.
 * Pure calendar-day arithmetic on YYYY-MM-DD strings (UTC date maths, no time zone can shift a day).
 */
export type LessonFrequency = "weekly" | "monthly" | "custom";

export interface ScheduleTerm {
  id: string;
  startDate: string;
  endDate: string;
  numberOfLessons: number;
}

export interface LessonScheduleInput {
  frequency: LessonFrequency;
  /** The class's first lesson day: gives the weekday (weekly) or the day of the month (monthly). */
  firstDate: string;
  terms: readonly ScheduleTerm[];
  /** Holiday days (YYYY-MM-DD); a lesson never falls on one. */
  holidays: readonly string[];
  /** custom frequency: the chosen lesson days (others are ignored). */
  customDates?: readonly string[];
}

export interface ScheduledLesson {
  date: string;
  termId: string;
  /** 1-based position of the lesson in the class. */
  numberWeek: number;
}

export interface LessonSchedule {
  lessons: ScheduledLesson[];
  /** Terms that end before all their lessons fit: how many lessons are missing. */
  shortfalls: { termId: string; missing: number }[];
}

const DAY_MS = 86_400_000;
const toTime = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
const fromTime = (t: number) => new Date(t).toISOString().slice(0, 10);

export function addCalendarDays(day: string, n: number): string {
  return fromTime(toTime(day) + n * DAY_MS);
}

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/**
 * The n-th monthly occurrence after the first day: the same day of the month, or the month's last day when
 * the month is shorter (31 Jan → 29 Feb → 31 Mar; the anchor day is kept, never the clamped one).
 */
export function addCalendarMonths(firstDate: string, n: number): string {
  const y = Number(firstDate.slice(0, 4));
  const m0 = Number(firstDate.slice(5, 7)) - 1 + n;
  const year = y + Math.floor(m0 / 12);
  const month0 = ((m0 % 12) + 12) % 12;
  const dayOfMonth = Math.min(Number(firstDate.slice(8, 10)), daysInMonth(year, month0));
  return fromTime(Date.UTC(year, month0, dayOfMonth));
}

/** Every candidate day of the frequency from firstDate up to the last day, in order. */
function candidates(input: LessonScheduleInput, lastDay: string): string[] {
  const out: string[] = [];
  if (input.frequency === "custom") {
    return [...new Set(input.customDates ?? [])].filter((d) => d >= input.firstDate && d <= lastDay).sort();
  }
  for (let n = 0; ; n++) {
    const d = input.frequency === "weekly" ? addCalendarDays(input.firstDate, 7 * n) : addCalendarMonths(input.firstDate, n);
    if (d > lastDay) return out;
    out.push(d);
  }
}

export function generateLessonSchedule(input: LessonScheduleInput): LessonSchedule {
  const terms = [...input.terms].sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : 0));
  const lessons: ScheduledLesson[] = [];
  const shortfalls: LessonSchedule["shortfalls"] = [];
  if (!terms.length) return { lessons, shortfalls };
  const lastDay = terms.reduce((max, t) => (t.endDate > max ? t.endDate : max), terms[0]!.endDate);
  const holidays = new Set(input.holidays);
  const days = candidates(input, lastDay).filter((d) => !holidays.has(d));
  const used = new Set<string>();
  for (const term of terms) {
    const wanted = Math.max(0, Math.floor(term.numberOfLessons));
    let count = 0;
    for (const d of days) {
      if (count >= wanted) break;
      if (d < term.startDate || d > term.endDate || used.has(d)) continue;
      used.add(d);
      count++;
      lessons.push({ date: d, termId: term.id, numberWeek: 0 });
    }
    if (count < wanted) shortfalls.push({ termId: term.id, missing: wanted - count });
  }
  lessons.sort((a, b) => (a.date < b.date ? -1 : 1));
  lessons.forEach((l, i) => (l.numberWeek = i + 1));
  return { lessons, shortfalls };
}

/** Two time ranges on the same day overlap when each starts before the other ends (touching ends do not clash). */
export function timesOverlap(a: { start: string; end: string }, b: { start: string; end: string }): boolean {
  return a.start < b.end && b.start < a.end;
}
