/** Labels of the staff roles a user may hold and of the user statuses (spec part 1 §3, §6). */
import { ROLE_LABELS } from "../../domain/roleLabels.ts";

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

/** Spec part 1 §3 user status (deleted is soft deletion, not offered). */
export const USER_STATUS_LABELS: Readonly<Record<string, string>> = {
  active: "Active",
  locked: "Locked",
  pending: "Pending",
  disabled: "Disabled",
  inactive: "Inactive",
  draft: "Draft",
};

/** Roles that teach: their levels and subjects are asked for. */
export const TEACHING_ROLES: readonly string[] = ["fulltime_tutor", "parttime_tutor", "hod"];
