/**
 * The registration fee of a PA (spec part 2 §2 and §4, FINANCE.md §3): charged when Apply is on and the
 * issue date is outside the waiver period; inside the waiver period (both ends included) the switch is
 * forced off, so the fee is 0 whatever was asked.
 */
import type { Cents } from "../money.ts";

export interface WaiverPeriod {
  startDate: string | null; // YYYY-MM-DD
  endDate: string | null;
}

/** Whether the issue date falls inside the waiver period (inclusive). An unset period or issue date waives nothing. */
export function isInWaiverPeriod(issueDate: string | null | undefined, period: WaiverPeriod | null | undefined): boolean {
  if (!issueDate || !period?.startDate || !period.endDate) return false;
  return period.startDate <= issueDate && issueDate <= period.endDate;
}

/** The Apply switch as the PA keeps it: forced off inside the waiver period. */
export function effectiveRegistrationFeeApplied(applyRequested: boolean, issueDate: string | null | undefined, period: WaiverPeriod | null | undefined): boolean {
  return applyRequested && !isInWaiverPeriod(issueDate, period);
}

/** The registration fee charged on the PA. */
export function registrationFeeCharged(input: { apply: boolean; amount: Cents; issueDate: string | null | undefined; waiverPeriod: WaiverPeriod | null | undefined }): Cents {
  return effectiveRegistrationFeeApplied(input.apply, input.issueDate, input.waiverPeriod) ? input.amount : 0;
}
