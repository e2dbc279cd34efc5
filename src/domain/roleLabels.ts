/** Display labels of the roles (spec part 1 §6); the profile badge shows the label of the user's last role. */
export const ROLE_LABELS: Record<string, string> = {
  admin: "Admin",
  front_desk: "Front Desk",
  ops_manager: "Operations Manager",
  hr: "HR",
  finance_staff: "Finance Staff",
  finance_manager: "Finance Manager",
  attendance_checker: "Attendance Checker",
  sales: "Sales",
  intern: "Intern",
  fulltime_tutor: "Full-time Tutor",
  parttime_tutor: "Part-time Tutor",
  hod: "Head of Department",
  student: "Student",
  parent: "Parent",
  tutor: "Tutor",
};

export function roleLabel(role: string | undefined): string {
  if (!role) return "";
  return ROLE_LABELS[role] ?? role.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** The badge under the user's name: the label of the last role. */
export function lastRoleLabel(roles: readonly string[]): string {
  return roleLabel(roles[roles.length - 1]);
}
