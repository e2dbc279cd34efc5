/**
 * Overdue reminders (issue 39 §3): the schedule set in payment settings ("3,10": days after the due date), which
 * step a PA is due for on a day, and the late-fee sentence of the company's PA notes that a reminder repeats.
 */
export const REMINDER_SETTING_KEY = "reminderSchedule";

export const REMINDER_MESSAGES = {
  badSchedule: "The reminder schedule is days after the due date separated by commas, e.g. 3,10 (each 1 to 365).",
  notFound: "Payment advice not found.",
} as const;

/** GET /finances/reminders/upcoming: a reminder tomorrow's run sends (money as a numeric string). */
export interface UpcomingReminder {
  paymentAdviceId: string;
  name: string;
  studentName: string;
  companyName: string;
  dueDate: string;
  /** Days after the due date: the schedule step the reminder is for. */
  step: number;
  balance: string;
  /** The parent's e-mail; null: none, nothing is sent. */
  recipient: string | null;
  held: boolean;
}

/** "3, 10" → [3, 10] (sorted, unique); null when it is not a list of whole days from 1 to 365; [] when blank. */
export function parseReminderSchedule(text: string | null | undefined): number[] | null {
  const parts = (text ?? "").split(",").map((p) => p.trim()).filter(Boolean);
  if (!parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) >= 1 && Number(p) <= 365)) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/** Whole days from one calendar day (YYYY-MM-DD) to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * What a PA due on `dueDate` gets on `day`: of the steps that have fallen due after the latest one already handled,
 * the latest is sent and the earlier ones are passed (a parent gets one reminder a day, the latest; a step added
 * to the schedule below one already handled is never sent late). Nothing when no new step has fallen due.
 */
export function reminderStep(dueDate: string, day: string, schedule: readonly number[], handled: ReadonlySet<number>): { send: number; passed: number[] } | null {
  const late = daysBetween(dueDate, day);
  const after = Math.max(0, ...handled);
  const due = schedule.filter((s) => s <= late && s > after);
  if (!due.length) return null;
  const send = due[due.length - 1]!;
  return { send, passed: due.slice(0, -1) };
}

/** The company's late-fee note: the sentences of its PA notes (plain text) that speak of a late fee; null when none do. */
export function lateFeeNote(notes: string | null | undefined): string | null {
  const sentences = (notes ?? "").split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
  const late = sentences.filter((s) => /\blate\b/i.test(s));
  return late.length ? late.join(" ") : null;
}
