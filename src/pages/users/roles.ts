/** Labels of the staff roles a user may hold and of the user statuses (spec part 1 §3, §6). */
import { ROLE_LABELS } from "../../domain/roleLabels.ts";
import { labelsOf } from "../../domain/enumLabels.ts";

export const STAFF_ROLES = [
  "admin",
  "front_desk",
  "ops_manager",
  "hr",
  "finance_staff",
  "finance_manager",
  "attendance_checker",
  "sales",
  "intern",
  "fulltime_tutor",
  "parttime_tutor",
  "hod",
] as const;

export const STAFF_ROLE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(STAFF_ROLES.map((r) => [r, ROLE_LABELS[r] ?? r]));

/** Spec part 1 §3 user statuses a form or filter offers (deleted is soft deletion, not offered); their words are the label table's. */
export const USER_STATUS_OPTIONS: readonly { value: string; label: string }[] = Object.entries(labelsOf("users", "status")).map(([value, label]) => ({ value, label }));

/** Roles that teach: their levels and subjects are asked for. */
export const TEACHING_ROLES: readonly string[] = ["fulltime_tutor", "parttime_tutor", "hod"];
