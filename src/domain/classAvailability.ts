/**
 * The class availability label (spec part 1 §3, part 2 §9), derived from the class status, its start
 * date and how full it is. Used by the class list, the class view and the payment-advice class picker.
 */
export type ClassAvailability = "Closed" | "Waiting" | "Expired" | "Available" | "Filling Fast" | "Full Class" | "Unknown";

/** Filling thresholds, in percent of the class size. */
export const FILLING_FAST_PERCENT = 80;
export const FULL_PERCENT = 100;

export interface ClassAvailabilityInput {
  classStatus: string | null | undefined;
  /** The class's start date, YYYY-MM-DD (Asia/Singapore calendar day). */
  startDate: string | null | undefined;
  /** Today, YYYY-MM-DD (Asia/Singapore calendar day). */
  today: string;
  enrolled: number;
  classSize: number;
}

export function classAvailability(c: ClassAvailabilityInput): ClassAvailability {
  switch (c.classStatus) {
    case "closed":
      return "Closed";
    case "new":
      // Waiting before the start date, Expired from the start date on (a class with no start date waits).
      return c.startDate && c.today >= c.startDate ? "Expired" : "Waiting";
    case "open": {
      // Compared in whole numbers (enrolled × 100 against size × threshold): no float rounding at 80 %.
      if (c.classSize <= 0 || c.enrolled * 100 >= c.classSize * FULL_PERCENT) return "Full Class";
      if (c.enrolled * 100 >= c.classSize * FILLING_FAST_PERCENT) return "Filling Fast";
      return "Available";
    }
    default:
      return "Unknown";
  }
}
