/**
 * Every signed-in route of both spec parts (part 1 §2, part 2 §2), as data: the path (react-router
 * pattern), the menu group it sits under and its page title. The access policy guards each one:
 * the browser asks casbin `enforce(role, <concrete path>, "view")` for the user's roles (admin: all).
 * The public routes (/login, /forgot-password, /change-password/:email, deep links) live in src/main.tsx.
 */
import { matchPath } from "react-router";
import type { MenuGroupKey } from "../domain/menu.ts";

export interface AppRoute {
  /** react-router pattern, e.g. /company/:companyId/update. */
  path: string;
  group: MenuGroupKey;
  title: string;
}

const r = (group: MenuGroupKey, path: string, title: string): AppRoute => ({ path, group, title });

export const APP_ROUTES: readonly AppRoute[] = [
  // Company
  r("companies", "/company", "Companies"),
  r("companies", "/company/create", "Create Company"),
  r("companies", "/company/:companyId/update", "Update Company"),
  // Users
  r("users", "/user", "Users"),
  r("users", "/user/:id/view", "User Detail"),
  r("users", "/user/create", "Create User"),
  r("users", "/user/:userId/update", "Update User"),
  r("users", "/roles", "User Roles"),
  r("users", "/audit-log", "Audit Log"),
  // Branch and classrooms
  r("branches", "/branch", "Branches"),
  r("branches", "/branch/create", "Create Branch"),
  r("branches", "/branch/:branchId/edit", "Edit Branch"),
  r("branches", "/branch/:branchId/detail", "Branch Detail"),
  r("branches", "/branch/:branchId/detail/class-room/add-new", "Add Classroom"),
  r("branches", "/branch/:branchId/detail/class-room/:id/edit", "Edit Classroom"),
  // Programme
  r("programmes", "/programme/curriculum-level", "Curriculum & Level"),
  r("programmes", "/programme/curriculum-level/create", "Create Curriculum"),
  r("programmes", "/programme/categories-type", "Categories & Type"),
  r("programmes", "/programme/academic-term", "Academic Term"),
  r("programmes", "/programme/academic-term/create", "Create Academic Term"),
  r("programmes", "/programme/academic-term/:id/edit", "Edit Academic Term"),
  r("programmes", "/programme/management", "Programme Management"),
  r("programmes", "/programme/management/create", "Create Programme"),
  r("programmes", "/programme/management/:id/view", "Programme Detail"),
  r("programmes", "/programme/holiday", "Holiday"),
  r("programmes", "/programme/holiday/create", "Create Holiday"),
  r("programmes", "/programme/holiday/:id/update", "Update Holiday"),
  // Communication
  r("communication", "/communication/broadcast", "Broadcast"),
  r("communication", "/communication/broadcast/broadcast-detail/:id", "Broadcast Detail"),
  r("communication", "/communication/broadcast/create", "Create Broadcast"),
  r("communication", "/communication/broadcast/update/:id", "Update Broadcast"),
  r("communication", "/communication/news", "News"),
  r("communication", "/communication/news/news-detail/:id", "News Detail"),
  r("communication", "/communication/news/create", "Create News"),
  r("communication", "/communication/news/update/:id", "Update News"),
  r("communication", "/communication/three-times-absent", "Three Times Absent"),
  r("communication", "/communication/unsubscribers", "Unsubscribers"),
  // Students
  r("students", "/student-management", "Student Management"),
  r("students", "/student-management/create-account", "Create Account"),
  r("students", "/student-management/update-account-information/:id", "Update Account Information"),
  r("students", "/student-management/student/:id/view", "Student Detail"),
  r("students", "/student-management/edit-account/:id", "Edit Account"),
  r("students", "/suspension", "Suspension"),
  r("students", "/suspension/:id", "Suspension"),
  r("students", "/suspension/:id/:studentInfoId", "Suspension"),
  r("students", "/suspension/detail/:id/view", "Suspension Detail"),
  r("students", "/withdrawal", "Withdrawal"),
  r("students", "/withdrawal/:withdrawalId", "Withdrawal"),
  r("students", "/withdrawal/:withdrawalId/:studentInfoId", "Withdrawal"),
  r("students", "/withdrawal/view-withdrawal/:withdrawalId/detail", "Withdrawal Detail"),
  // Attendance
  r("attendance", "/attendance/list", "Attendance List"),
  r("attendance", "/attendance/monitor", "Attendance Monitor"),
  r("attendance", "/attendance/detail/:id", "Attendance Detail"),
  r("attendance", "/attendance/gantry-record", "Gantry Record"),
  // Class
  r("classes", "/class/management", "Class Management"),
  r("classes", "/class/management/:programId/create", "Create Class"),
  r("classes", "/class/management/create", "Create Class"),
  r("classes", "/class/management/:classId/view", "Class Detail"),
  r("classes", "/class/management/:classId/view/lesson-create", "Create Lesson"),
  // Finance (part 2)
  r("finance", "/finance", "Payment Advice"),
  r("finance", "/finance/payment-advice", "Payment Advice"),
  r("finance", "/finance/payment-advice/create", "Create Payment Advice"),
  r("finance", "/finance/payment-advice/edit/:id", "Edit Payment Advice"),
  r("finance", "/finance/payment-advice/paper/:id", "Payment Advice Paper"),
  r("finance", "/finance/payment-advice/logs/:id", "Payment Advice Log History"),
  r("finance", "/finance/invoice", "Invoice"),
  r("finance", "/finance/invoice/:id/:invoiceId", "Invoice Detail"),
  r("finance", "/finance/receipt", "Receipt"),
  r("finance", "/finance/receipt/:id/:receiptId", "Receipt Detail"),
  // our addition (issue 15): finance's list of deposits
  r("finance", "/finance/deposit", "Deposit"),
  r("finance", "/finance/credit-note", "Credit Note"),
  r("finance", "/finance/credit-note/update/:creditNoteId", "Update Credit Note"),
  r("finance", "/finance/credit-note/update/sus/:id", "Update Suspension Credit Note"),
  r("finance", "/finance/credit-note/detail/:id", "Credit Note Detail"),
  r("finance", "/finance/credit-note/logs/:id", "Credit Note Log History"),
  r("finance", "/finance/refund", "Refund"),
  r("finance", "/finance/refund/:id", "Refund Detail"),
  r("finance", "/finance/refund/refunded/:id", "Refunded"),
  r("finance", "/finance/refund/logs/:id", "Refund Log History"),
  r("finance", "/finance/payment-setting", "Payment Setting"),
  r("finance", "/finance/payment-discount", "Payment Discount"),
  r("finance", "/finance/payment-discount/create/:order", "Create Payment Discount"),
  r("finance", "/finance/pricing", "Pricing"),
  // our addition (issue 35): bank statements matched to payment advices
  r("finance", "/finance/bank-reconciliation", "Bank Reconciliation"),
  // our addition (issue 39): statements, overdue reminders, the ledger out to accounting
  r("finance", "/finance/statement/:studentId", "Statement"),
  r("finance", "/finance/reminders", "Payment Reminders"),
  r("finance", "/finance/ledger-export", "Accounting Export"),
  // our addition (issue 39): a term billed for a branch in one run
  r("finance", "/finance/billing-run", "Billing Run"),
  // Reports
  r("report", "/report/daily-receipt-report", "Daily Receipt Report"),
  r("report", "/report/daily-closing-report", "Daily Closing Report"),
  r("report", "/report/overpaid-report", "Overpaid Report"),
  r("report", "/report/pa-listing", "PA Listing"),
  r("report", "/report/student-attendance-report", "Student Attendance Report"),
  r("report", "/report/enrollment-list", "Enrollment List"),
  r("report", "/report/enrollment-list-new", "Enrollment List (New)"),
  r("report", "/report/revenue-recognition", "Revenue Recognition"),
  r("report", "/report/deposit", "Deposit Report"),
  // Rewards
  r("rewards", "/reward/report", "Reward Report"),
  r("rewards", "/reward/referral", "Referral"),
  r("rewards", "/reward/referral/create", "Create Referral"),
  r("rewards", "/reward/referral/:id/update", "Update Referral"),
  // Content management
  r("content-management", "/content-management/category", "Category"),
  r("content-management", "/content-management/category/create", "Create Category"),
  r("content-management", "/content-management/category/:categoryId/update", "Update Category"),
  r("content-management", "/content-management/resource/category", "Resource Category"),
  r("content-management", "/content-management/resource/category/create", "Create Resource Category"),
  r("content-management", "/content-management/resource/category/:rsCategoryId/update", "Update Resource Category"),
  r("content-management", "/content-management/post", "Post"),
  r("content-management", "/content-management/post/create", "Create Post"),
  r("content-management", "/content-management/post/:postId/update", "Update Post"),
  r("content-management", "/content-management/resource/detail", "Resource Detail"),
  r("content-management", "/content-management/resource/detail/create", "Create Resource"),
  r("content-management", "/content-management/resource/detail/:rsId/update", "Update Resource"),
  r("content-management", "/content-management/survey", "Survey"),
  r("content-management", "/content-management/survey/create", "Create Survey"),
  r("content-management", "/content-management/survey/:surveyId/update", "Update Survey"),
  // Enquiry
  r("enquiry", "/enquiry", "Enquiry"),
  r("enquiry", "/enquiry/create", "Create Enquiry"),
  r("enquiry", "/enquiry/:id/update", "Update Enquiry"),
];

/** The public routes (no sign-in): exact patterns. */
export const PUBLIC_ROUTES = ["/login", "/forgot-password", "/change-password/:email", "/posts/:id", "/resource/detail/:id"] as const;

/** Spec `{param}` or react-router `:param` patterns reduced to a comparable shape: /a/:/b. */
export function routeShape(path: string): string {
  const p = path
    .replace(/\{[^}]+\}/g, ":")
    .replace(/:[A-Za-z0-9_]+/g, ":")
    .replace(/\/+$/, "");
  return p === "" ? "/" : p;
}

/**
 * The declared route a pathname opens. Static segments beat parameters, so /class/management/create is
 * "Create Class" and not a class id, and /finance/refund/refunded/1 is not /finance/refund/:id/... .
 */
export function matchAppRoute(pathname: string): { route: AppRoute; params: Record<string, string | undefined> } | undefined {
  let best: { route: AppRoute; params: Record<string, string | undefined>; score: number } | undefined;
  for (const route of APP_ROUTES) {
    const m = matchPath({ path: route.path, end: true }, pathname);
    if (!m) continue;
    const score = route.path.split("/").filter((s) => s && !s.startsWith(":")).length;
    if (!best || score > best.score) best = { route, params: m.params, score };
  }
  return best && { route: best.route, params: best.params };
}
