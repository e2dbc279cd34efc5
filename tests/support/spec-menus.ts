/**
 * The spec's route-role matrix (part 1 §6, part 2 §6) for the menu pages, written out independently of
 * access/policy.csv, and the menus it implies per demo account. Tests compare the app against this.
 */
const COMMUNICATION = ["front_desk", "intern", "ops_manager", "sales"];
const STUDENTS = ["front_desk", "intern", "ops_manager", "hr", "finance_staff", "finance_manager"];
const ATTENDANCE_LIST = ["fulltime_tutor", "parttime_tutor", "hod", "attendance_checker", "ops_manager", "front_desk"];
const ATTENDANCE_MONITOR = ATTENDANCE_LIST.filter((r) => r !== "attendance_checker");
const CLASSES = ["front_desk", "intern", "ops_manager", "hr"];
const PA = ["front_desk", "intern", "ops_manager", "finance_manager", "finance_staff"];
const FINANCE_ONLY = ["finance_manager", "finance_staff"];
const REPORT_WIDE = ["front_desk", "intern", "ops_manager", "hr", "finance_staff", "finance_manager", "sales"];
const REPORT_CLOSING = ["hr", "finance_staff", "finance_manager"];
const REPORT_OTHER = ["ops_manager", "hr", "finance_staff", "finance_manager"];

export const SPEC_MENU_PAGE_ROLES: Record<string, string[]> = {
  "/company": ["finance_manager"],
  "/user": ["hr"],
  "/roles": ["hr"],
  "/branch": ["ops_manager"],
  "/student-management": STUDENTS,
  "/suspension": STUDENTS,
  "/withdrawal": STUDENTS,
  "/programme/curriculum-level": ["ops_manager"],
  "/programme/categories-type": ["ops_manager"],
  "/programme/academic-term": ["ops_manager"],
  "/programme/management": ["ops_manager"],
  "/programme/holiday": [],
  "/class/management": CLASSES,
  "/finance/payment-advice": PA,
  "/finance/invoice": PA,
  "/finance/receipt": PA,
  // our addition: finance's list of deposits (issue 15; docs/DECISIONS.md "Deposits list")
  "/finance/deposit": FINANCE_ONLY,
  "/finance/credit-note": FINANCE_ONLY,
  // our one departure: sales works a step of the refund workflow (FINANCE.md §5; docs/DECISIONS.md "Who works a refund")
  "/finance/refund": [...FINANCE_ONLY, "sales"],
  "/finance/payment-setting": FINANCE_ONLY,
  "/finance/payment-discount": FINANCE_ONLY,
  "/finance/pricing": [...FINANCE_ONLY, "ops_manager"],
  // our addition: bank statements matched to payment advices (issue 35; docs/DECISIONS.md "Bank reconciliation")
  "/finance/bank-reconciliation": FINANCE_ONLY,
  // our additions (issue 39): overdue reminders; the ledger out to accounting
  "/finance/reminders": FINANCE_ONLY,
  "/finance/ledger-export": ["finance_manager"],
  // our addition (issue 39): the term billing run (front desk prepares it; finance issues)
  "/finance/billing-run": [...FINANCE_ONLY, "front_desk"],
  "/reward/report": ["finance_manager", "finance_staff", "front_desk"],
  "/reward/referral": ["finance_manager", "finance_staff", "front_desk"],
  "/communication/broadcast": COMMUNICATION,
  "/communication/news": COMMUNICATION,
  "/communication/three-times-absent": COMMUNICATION,
  "/communication/unsubscribers": COMMUNICATION,
  "/report/daily-receipt-report": REPORT_WIDE,
  "/report/daily-closing-report": REPORT_CLOSING,
  "/report/overpaid-report": REPORT_CLOSING,
  "/report/pa-listing": REPORT_OTHER,
  "/report/student-attendance-report": REPORT_OTHER,
  "/report/enrollment-list": REPORT_OTHER,
  "/report/enrollment-list-new": REPORT_OTHER,
  "/report/revenue-recognition": REPORT_OTHER,
  "/report/deposit": REPORT_OTHER,
  "/attendance/list": ATTENDANCE_LIST,
  "/attendance/monitor": ATTENDANCE_MONITOR,
  "/attendance/gantry-record": ATTENDANCE_MONITOR,
  "/content-management/category": ["intern"],
  "/content-management/resource/category": ["intern"],
  "/content-management/post": ["intern"],
  "/content-management/resource/detail": ["intern"],
  "/content-management/survey": ["intern"],
  "/enquiry": [],
};

export function specCanOpen(role: string, path: string): boolean {
  return role === "admin" || (SPEC_MENU_PAGE_ROLES[path] ?? []).includes(role);
}

const FULL = [
  "Companies",
  "Users",
  "Branches",
  "Students",
  "Programmes",
  "Classes",
  "Finance",
  "Rewards",
  "Communication",
  "Report",
  "Attendance",
  "Content Management",
  "Enquiry",
];
const FRONT_DESK = ["Students", "Classes", "Finance", "Rewards", "Communication", "Report", "Attendance"];
const ATTENDANCE_ONLY = ["Attendance"];

/** The top-level menu each demo account must see, in order. */
export const EXPECTED_MENUS: Record<string, string[]> = {
  admin: FULL,
  front_desk: FRONT_DESK,
  ops_manager: ["Branches", "Students", "Programmes", "Classes", "Finance", "Communication", "Report", "Attendance"],
  hr: ["Users", "Students", "Classes", "Report"],
  finance_staff: ["Students", "Finance", "Rewards", "Report"],
  finance_manager: ["Companies", "Students", "Finance", "Rewards", "Report"],
  attendance_checker: ATTENDANCE_ONLY,
  // Finance (its Refund entry only): sales works a step of the refund workflow (docs/DECISIONS.md "Who works a refund")
  sales: ["Finance", "Communication", "Report"],
  intern: ["Students", "Classes", "Finance", "Communication", "Report", "Content Management"],
  fulltime_tutor: ATTENDANCE_ONLY,
  parttime_tutor: ATTENDANCE_ONLY,
  hod: ATTENDANCE_ONLY,
};

/** Demo accounts: username → roles (multi_role holds front_desk then hod). */
export const DEMO_ACCOUNT_ROLES: Record<string, string[]> = {
  ...Object.fromEntries(Object.keys(EXPECTED_MENUS).map((r) => [r, [r]])),
  multi_role: ["front_desk", "hod"],
};

export const EXPECTED_HOMES: Record<string, string> = {
  admin: "/company",
  front_desk: "/student-management",
  ops_manager: "/branch",
  hr: "/user",
  finance_staff: "/student-management",
  finance_manager: "/student-management",
  intern: "/student-management",
  attendance_checker: "/attendance/list",
  fulltime_tutor: "/attendance/list",
  parttime_tutor: "/attendance/list",
  hod: "/attendance/list",
  sales: "/communication/broadcast",
  multi_role: "/attendance/list",
};

export const DEMO_PASSWORD = "Demo@12345";
