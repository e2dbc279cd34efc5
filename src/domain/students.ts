/**
 * Student rules shared by the browser and the server (spec part 1 §3, §5): the profile's defaults,
 * the enrolment status labels, which enrolments still count as active, and the family step's rules.
 */

import { ENROLMENT_STATUS_LABELS } from "./attendance.ts";

// The labels live with their modules; re-exported for the student screens.
export { ENROLMENT_STATUS_LABELS, ATTENDANCE_LABELS } from "./attendance.ts";

export const enrolmentStatusLabel = (status: string | null | undefined): string =>
  (status && ENROLMENT_STATUS_LABELS[status]) || "Unknown";

/** Enrolments that still bind the student to a class (a student with one cannot be deleted). */
export const ACTIVE_ENROLMENT_STATUSES = ["enrolled", "transferred", "replacement", "suspended", "pending", "returned"] as const;

/** Payment advices still waiting for money (overdue is an unpaid PA past its due date). */
export const UNPAID_PA_STATUSES = ["unpaid", "overdue"] as const;

/** The wizard's steps in order; `currentStep` on the profile is the number of steps saved (1–3). */
export const STUDENT_WIZARD_STEPS = ["Account", "Family Information", "Student Information"] as const;
export const LAST_STUDENT_STEP = STUDENT_WIZARD_STEPS.length;

/** The step (0-based) a profile saved up to `currentStep` continues at: the first one not saved yet. */
export function resumeStepIndex(currentStep: number | null | undefined): number {
  const saved = Math.max(0, Math.min(currentStep ?? 0, LAST_STUDENT_STEP));
  return Math.min(saved, LAST_STUDENT_STEP - 1);
}

export const PARENT_RELATIONSHIPS: Readonly<Record<string, string>> = {
  father: "Father",
  mother: "Mother",
  guardian: "Guardian",
  grandparent: "Grandparent",
  other: "Other",
};

export const GENDER_LABELS: Readonly<Record<string, string>> = { male: "Male", female: "Female" };

export const STUDENT_MESSAGES = {
  onePrimaryContact: "Choose exactly one primary contact.",
  atLeastOneParent: "Add at least one parent.",
  levelNotInCurriculum: "This level does not belong to the chosen curriculum.",
  unknownDiscountCode: "Unknown discount code.",
  siblingNotFound: "Sibling not found.",
  siblingIsSelf: "A student cannot be their own sibling.",
  notFound: "Student not found.",
  hasUnpaidPa: "This student has unpaid payment advices: settle or void them before deleting the student.",
  hasActiveEnrolment: "This student is still enrolled in a class: withdraw them before deleting the student.",
  stepOrder: "Save the earlier steps first.",
  avatarType: "Only gif, jpeg and png images are accepted.",
  avatarMissing: "The image was not uploaded.",
} as const;

export interface ParentContact {
  primaryContact?: boolean | null;
}

/** Exactly one parent is the primary contact; null when the list obeys it. */
export function primaryContactProblem(parents: readonly ParentContact[]): string | null {
  if (parents.length === 0) return STUDENT_MESSAGES.atLeastOneParent;
  return parents.filter((p) => p.primaryContact).length === 1 ? null : STUDENT_MESSAGES.onePrimaryContact;
}

/**
 * Whom a family's e-mail goes to: the primary contact when they have an e-mail address, else the first other
 * parent who has one (issue 37: a family whose primary contact had none was skipped though the other parent had
 * one); null when no parent has an address.
 */
export function parentToEmail<P extends ParentContact & { email?: unknown }>(parents: readonly P[] | null | undefined): (P & { email: string }) | null {
  const withEmail = (parents ?? []).filter((p): p is P & { email: string } => typeof p.email === "string" && p.email.trim() !== "");
  return withEmail.find((p) => p.primaryContact) ?? withEmail[0] ?? null;
}

/** '__' where a value is missing (spec part 2 §2, the student picker's options and cards). */
export const orBlank = (value: string | null | undefined): string => (value == null || value === "" ? "__" : value);

/**
 * A student's payment status in the list: UnPaid while a payment advice waits for money, Paid when
 * every issued one is settled, none before the first (labels as the PA statuses' of spec part 2 §3).
 */
export const STUDENT_PAYMENT_STATUS_LABELS: Readonly<Record<string, string>> = { unpaid: "UnPaid", paid: "Paid" };
export const SETTLED_PA_STATUSES = ["paid", "overpaid"] as const;

