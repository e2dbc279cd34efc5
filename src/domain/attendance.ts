/**
 * Enrolment and attendance rules of classes (issue 13; spec part 1 §3, part 2 §3 and §9), shared by the
 * class and attendance pages and the server that writes them.
 */

/** Lesson-student types not counted on the attendance list (spec part 2 §8: "excluding withdrawal, has_been_replaced, has_been_transferred"). */
export const ATTENDANCE_EXCLUDED_TYPES = ["withdrawal", "has_been_replaced", "has_been_transferred"] as const;

/** Enrolment statuses that hold a seat in the class (counted against its class size). */
export const SEAT_STATUSES = ["enrolled", "transferred", "suspended", "pending"] as const;

/** Enrolment status labels (spec part 1 §3: withdrawal is displayed as Withdrawn). */
export const ENROLMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  enrolled: "Enrolled",
  transferred: "Transferred",
  replacement: "Replacement",
  suspended: "Suspended",
  withdrawn: "Withdrawn",
  withdrawal: "Withdrawn",
  pending: "Pending",
  returned: "Returned",
  completed: "Completed",
  has_been_transferred: "Has Been Transferred",
  has_been_replaced: "Has Been Replaced",
  voided: "Voided",
};

export const ATTENDANCE_LABELS: Readonly<Record<string, string>> = {
  not_attended: "Not Attended",
  attended: "Attended",
  withdrawn: "Withdrawn",
  suspended: "Suspended",
};

/** How a student entered a class (student_classes.action). */
export const ENROLMENT_ACTION_LABELS: Readonly<Record<string, string>> = { enroll_last_partial: "Enrolled (partial)", transfer: "Transfer", replace: "Replacement" };

/** A gantry record's direction. */
export const GANTRY_DIRECTION_LABELS: Readonly<Record<string, string>> = { in: "In", out: "Out" };

/** Categories in the spec's sort order (part 1 §9). */
export const CATEGORY_LABELS: Readonly<Record<string, string>> = { regular: "Regular", double_lesson: "Double Lesson", special: "Special", others: "Others" };
export const CLASS_STATUS_LABELS: Readonly<Record<string, string>> = { new: "New", open: "Open", closed: "Closed" };
export const CLASS_TIERS = ["BL1", "BL2", "BL3", "BL4"] as const;
export const CLASS_TYPE_CODES = ["WLWD", "WLWE", "DBWD", "DBWE"] as const;
/** Spec part 1 §9: a new class. */
export const NEW_CLASS_DEFAULTS = { totalLoop: 1, classSize: 20, lessonType: "regular", classStatus: "new" } as const;

/** Three times absent: how many absences in a row make a notice. */
/**
 * The lessons offered to replace a lesson: those of the same calendar month (issue 37: a December lesson was
 * offered January's, a month the student's payment advice may not cover). Days are YYYY-MM-DD.
 */
export const replacesWithin = (lessonDay: string, candidateDay: string): boolean => lessonDay.slice(0, 7) === candidateDay.slice(0, 7);

export const ABSENCES_FOR_NOTICE = 3;

export interface AttendanceMark {
  date: string;
  /** absent: not attended on a lesson that has taken place; present: attended; other: suspended, withdrawn, not yet held. */
  state: "absent" | "present" | "other";
}

/**
 * The run of consecutive absences (in date order, ignoring "other" lessons) that ends with the absence on
 * `date`, when it holds at least three; else null. Later lessons do not count: the notice is about the
 * absence just recorded. One notice per run: the caller compares with the runs already noticed.
 */
export function absenceStreak(marks: readonly AttendanceMark[], date: string): string[] | null {
  const ordered = [...marks].filter((m) => m.state !== "other").sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const at = ordered.findIndex((m) => m.date === date);
  if (at < 0 || ordered[at]!.state !== "absent") return null;
  let from = at;
  while (from > 0 && ordered[from - 1]!.state === "absent") from--;
  const run = ordered.slice(from, at + 1).map((m) => m.date);
  return run.length >= ABSENCES_FOR_NOTICE ? run : null;
}
