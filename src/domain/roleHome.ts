/**
 * Role home pages (spec part 1 §2 "Role home pages").
 *
 * | Role | Home |
 * | admin | /company |
 * | front_desk | /student-management |
 * | ops_manager | /branch |
 * | hr | /user |
 * | finance_staff, finance_manager, intern | /student-management |
 * | attendance_checker, fulltime_tutor, parttime_tutor, hod | /attendance/list |
 * | sales | /communication/broadcast |
 *
 * "When a user has several roles, the later rule in the order of this table wins, so hod, tutors and
 * attendance_checker take precedence." Read as (docs/DECISIONS.md, App shell): later rows win, and the
 * attendance row is the last rule — its precedence is stated outright, so it also beats sales, whose row
 * is printed after it. The effective order, lowest to highest precedence, is therefore the rule list below.
 */

export interface HomeRule {
  roles: readonly string[];
  home: string;
}

/** Lowest precedence first; the last rule matching any of the user's roles gives the home page. */
export const HOME_RULES: readonly HomeRule[] = [
  { roles: ["admin"], home: "/company" },
  { roles: ["front_desk"], home: "/student-management" },
  { roles: ["ops_manager"], home: "/branch" },
  { roles: ["hr"], home: "/user" },
  { roles: ["finance_staff", "finance_manager", "intern"], home: "/student-management" },
  { roles: ["sales"], home: "/communication/broadcast" },
  { roles: ["attendance_checker", "fulltime_tutor", "parttime_tutor", "hod"], home: "/attendance/list" },
];

/** The home page of a user holding `roles`, or undefined when no rule names any of them (student, parent, tutor…). */
export function roleHome(roles: readonly string[]): string | undefined {
  let home: string | undefined;
  for (const rule of HOME_RULES) {
    if (rule.roles.some((r) => roles.includes(r))) home = rule.home;
  }
  return home;
}
