/**
 * The route-role matrix of the spec, written from the spec text (part 1 §2 and §6, part 2 §2 and §6),
 * independently of access/policy.csv. Each entry: the route pattern, a concrete path, the roles listed.
 * Admin sees every route; a route with no roles is admin-only.
 */
const ID = "3f2a9c1e-0b7d-4c1a-9e55-2d0c6f1b7a11";
const ID2 = "7b1e2d3c-4a5f-4e6d-8c9b-0a1b2c3d4e5f";

export interface RouteCase {
  route: string;
  path: string;
  roles: string[];
}

const company = ["finance_manager"];
const userListCreateRoles = ["hr"];
const userEdit = ["hr", "attendance_checker"];
const userView = ["attendance_checker", "finance_manager", "finance_staff", "front_desk", "fulltime_tutor", "hod", "hr", "intern", "ops_manager", "sales"];
const branchProgramme = ["ops_manager"];
const none: string[] = [];
const communication = ["front_desk", "intern", "ops_manager", "sales"];
const students = ["front_desk", "intern", "ops_manager", "hr", "finance_staff", "finance_manager"];
const attendanceList = ["fulltime_tutor", "parttime_tutor", "hod", "attendance_checker", "ops_manager", "front_desk"];
const attendanceMonitor = ["fulltime_tutor", "parttime_tutor", "hod", "ops_manager", "front_desk"];
const classes = ["front_desk", "intern", "ops_manager", "hr"];
const paInvoiceReceipt = ["front_desk", "intern", "ops_manager", "finance_manager", "finance_staff"];
const financeOnly = ["finance_manager", "finance_staff"];
/**
 * Our one departure from the spec's route matrix (docs/DECISIONS.md "Who works a refund"): FINANCE.md §5 gives
 * sales a step of the refund workflow, so sales opens the refund list, page and logs; every other role as listed.
 */
const refundWorkflow = [...financeOnly, "sales"];
/** The workflow's calls reach the roles of each step (FINANCE.md §5); the action rights decide the moves. */
const frontDeskStep = ["front_desk", "ops_manager"];
const creditNoteCalls = [...financeOnly, ...frontDeskStep];
const refundReaders = [...financeOnly, "front_desk", "intern", "ops_manager", "hr", "sales"];
const pricing = ["finance_manager", "finance_staff", "ops_manager"];
const dailyReceipt = ["front_desk", "intern", "ops_manager", "hr", "finance_staff", "finance_manager", "sales"];
const dailyClosingOverpaid = ["hr", "finance_staff", "finance_manager"];
const otherReports = ["ops_manager", "hr", "finance_staff", "finance_manager"];
const rewards = ["finance_manager", "finance_staff", "front_desk"];
const content = ["intern"];

function c(route: string, roles: string[]): RouteCase {
  let n = 0;
  const path = route.replace(/\{[^}]+\}/g, () => (n++ % 2 === 0 ? ID : ID2));
  return { route, path, roles };
}

export const ROUTE_MATRIX: RouteCase[] = [
  // part 1
  c("/company", company), c("/company/create", company), c("/company/{companyId}/update", company),
  c("/user", userListCreateRoles), c("/user/create", userListCreateRoles), c("/roles", userListCreateRoles),
  c("/user/{userId}/update", userEdit),
  c("/user/{id}/view", userView),
  c("/branch", branchProgramme), c("/branch/create", branchProgramme), c("/branch/{branchId}/edit", branchProgramme),
  c("/branch/{branchId}/detail", branchProgramme), c("/branch/{branchId}/detail/class-room/add-new", branchProgramme),
  c("/branch/{branchId}/detail/class-room/{id}/edit", branchProgramme),
  c("/programme/curriculum-level", branchProgramme), c("/programme/curriculum-level/create", branchProgramme),
  c("/programme/categories-type", branchProgramme),
  c("/programme/academic-term", branchProgramme), c("/programme/academic-term/create", branchProgramme), c("/programme/academic-term/{id}/edit", branchProgramme),
  c("/programme/management", branchProgramme), c("/programme/management/create", branchProgramme), c("/programme/management/{id}/view", branchProgramme),
  c("/programme/holiday", none), c("/programme/holiday/create", none), c("/programme/holiday/{id}/update", none),
  c("/communication/broadcast", communication), c("/communication/broadcast/broadcast-detail/{id}", communication),
  c("/communication/broadcast/create", communication), c("/communication/broadcast/update/{id}", communication),
  c("/communication/news", communication), c("/communication/news/news-detail/{id}", communication),
  c("/communication/news/create", communication), c("/communication/news/update/{id}", communication),
  c("/communication/three-times-absent", communication), c("/communication/unsubscribers", communication),
  c("/student-management", students), c("/student-management/create-account", students),
  c("/student-management/update-account-information/{id}", students), c("/student-management/student/{id}/view", students),
  c("/student-management/edit-account/{id}", students),
  c("/suspension", students), c("/suspension/{id}", students), c("/suspension/{id}/{studentInfoId}", students), c("/suspension/detail/{id}/view", students),
  c("/withdrawal", students), c("/withdrawal/{withdrawalId}", students), c("/withdrawal/{withdrawalId}/{studentInfoId}", students),
  c("/withdrawal/view-withdrawal/{withdrawalId}/detail", students),
  c("/attendance/list", attendanceList), c("/attendance/monitor", attendanceMonitor), c("/attendance/detail/{id}", attendanceList),
  c("/attendance/gantry-record", attendanceMonitor),
  c("/class/management", classes), c("/class/management/{programId}/create", classes), c("/class/management/create", classes),
  c("/class/management/{classId}/view", classes), c("/class/management/{classId}/view/lesson-create", classes),
  // part 2
  c("/finance", paInvoiceReceipt), c("/finance/payment-advice", paInvoiceReceipt),
  c("/finance/payment-advice/create", paInvoiceReceipt), c("/finance/payment-advice/edit/{id}", paInvoiceReceipt),
  c("/finance/payment-advice/paper/{id}", paInvoiceReceipt), c("/finance/payment-advice/logs/{id}", financeOnly),
  c("/finance/invoice", paInvoiceReceipt), c("/finance/invoice/{id}/{invoiceId}", paInvoiceReceipt),
  c("/finance/receipt", paInvoiceReceipt), c("/finance/receipt/{id}/{receiptId}", paInvoiceReceipt),
  c("/finance/deposit", financeOnly),
  c("/finance/credit-note", financeOnly), c("/finance/credit-note/update/{creditNoteId}", financeOnly),
  c("/finance/credit-note/update/sus/{id}", financeOnly), c("/finance/credit-note/detail/{id}", financeOnly),
  c("/finance/credit-note/logs/{id}", financeOnly),
  c("/finance/refund", refundWorkflow), c("/finance/refund/{id}", refundWorkflow), c("/finance/refund/refunded/{id}", financeOnly),
  c("/finance/refund/logs/{id}", refundWorkflow),
  c("/finance/payment-setting", financeOnly), c("/finance/payment-discount", financeOnly), c("/finance/payment-discount/create/{order}", financeOnly),
  c("/finance/pricing", pricing),
  c("/finance/bank-reconciliation", financeOnly),
  // issue 39 (ours): statements, overdue reminders, the ledger out to accounting
  c("/finance/statement/{studentId}", ["front_desk", "ops_manager", "finance_manager", "finance_staff"]), c("/finance/reminders", financeOnly), c("/finance/ledger-export", ["finance_manager"]),
  c("/finance/billing-run", [...financeOnly, "front_desk"]),
  c("/report/daily-receipt-report", dailyReceipt),
  c("/report/daily-closing-report", dailyClosingOverpaid), c("/report/overpaid-report", dailyClosingOverpaid),
  c("/report/pa-listing", otherReports), c("/report/student-attendance-report", otherReports),
  c("/report/enrollment-list", otherReports), c("/report/enrollment-list-new", otherReports),
  c("/report/revenue-recognition", otherReports), c("/report/deposit", otherReports),
  c("/reward/report", rewards), c("/reward/referral", rewards), c("/reward/referral/create", rewards), c("/reward/referral/{id}/update", rewards),
  ...["/content-management/category", "/content-management/resource/category", "/content-management/post", "/content-management/resource/detail", "/content-management/survey"]
    .flatMap((base) => [c(base, content), c(`${base}/create`, content), c(`${base}/{someId}/update`, content)]),
  c("/enquiry", none), c("/enquiry/create", none), c("/enquiry/{id}/update", none),
];

/**
 * The REST calls of both spec parts (§7) with the roles whose screens make them (our reading, see
 * docs/DECISIONS.md "Access policy"); "anonymous" = callable without a token.
 */
export interface ApiCase {
  method: string;
  path: string;
  roles: string[] | "anonymous" | "staff";
}
const S = "staff" as const;
export const API_MATRIX: ApiCase[] = [
  { method: "GET", path: "/users/me", roles: S },
  // issue 10 §8: the lock state of an account is not told to anonymous callers
  { method: "PATCH", path: `/users/some.user/check-block`, roles: S },
  { method: "GET", path: "/users/username/suggest", roles: ["hr", ...students] },
  { method: "POST", path: "/users", roles: ["hr"] },
  { method: "PUT", path: `/users/${ID}`, roles: ["hr", "attendance_checker"] },
  { method: "DELETE", path: `/users/${ID}`, roles: ["hr"] },
  { method: "PATCH", path: `/users/${ID}/forget-password`, roles: ["hr"] },
  { method: "PATCH", path: "/users/confirm-forget-password", roles: "anonymous" },
  { method: "PATCH", path: `/users/${ID}/unblock`, roles: ["hr"] },
  { method: "PATCH", path: `/users/${ID}/change-password`, roles: S },
  { method: "GET", path: "/users/gantry-records", roles: attendanceMonitor },
  { method: "GET", path: "/media/put-presigned-url", roles: S },
  { method: "POST", path: "/student-profiles/init", roles: students },
  { method: "POST", path: "/student-profiles/step-family-information", roles: students },
  { method: "POST", path: "/student-profiles/step-student-information", roles: students },
  { method: "PUT", path: "/student-profiles", roles: students },
  { method: "PATCH", path: `/student-profiles/${ID}/avatar`, roles: students },
  { method: "DELETE", path: `/student-profiles/${ID}`, roles: students },
  { method: "POST", path: "/broadcast", roles: communication },
  { method: "POST", path: "/news", roles: communication },
  { method: "POST", path: "/companies", roles: company },
  { method: "PUT", path: `/companies/${ID}`, roles: company },
  { method: "GET", path: "/classes/class-free", roles: paInvoiceReceipt },
  // issue 13: class management calls and attendance marks (our paths, see DECISIONS)
  { method: "POST", path: "/classes", roles: classes },
  { method: "POST", path: `/classes/${ID}/lessons`, roles: classes },
  { method: "PATCH", path: `/classes/lessons/${ID}/cancel`, roles: classes },
  { method: "POST", path: `/classes/${ID}/enrolments`, roles: classes },
  { method: "POST", path: "/classes/transfers", roles: classes },
  { method: "PATCH", path: `/classes/transfers/${ID}`, roles: classes },
  { method: "POST", path: "/classes/replacements", roles: classes },
  { method: "PUT", path: `/classes/attendance/${ID}`, roles: attendanceList },
  { method: "GET", path: "/auth/access-token", roles: "anonymous" },
  { method: "POST", path: "/auth/access-token", roles: "anonymous" },
  { method: "POST", path: "/finances/payment-advices/init", roles: paInvoiceReceipt },
  { method: "PUT", path: `/finances/payment-advices/${ID}`, roles: paInvoiceReceipt },
  { method: "GET", path: `/finances/payment-advices/${ID}/paper`, roles: paInvoiceReceipt },
  { method: "POST", path: "/finances/payment-advices/void-unpaid", roles: paInvoiceReceipt },
  { method: "PATCH", path: "/finances/payment-advices/void-paid-pa", roles: paInvoiceReceipt },
  { method: "POST", path: "/finances/email/unpaid-pa-to-parents", roles: paInvoiceReceipt },
  { method: "POST", path: "/finances/invoices", roles: paInvoiceReceipt },
  // issue 16: front desk suspends and withdraws (FINANCE.md §5), sales works its refund step; GET /credit-notes/{id} is ours
  { method: "POST", path: "/credit-notes", roles: creditNoteCalls },
  { method: "GET", path: `/credit-notes/${ID}`, roles: [...creditNoteCalls, "intern", "hr"] },
  { method: "PUT", path: `/credit-notes/${ID}`, roles: creditNoteCalls },
  { method: "PATCH", path: `/credit-notes/change-status-credit-note/${ID}`, roles: creditNoteCalls },
  { method: "POST", path: "/credit-notes/duplicate-credit-note", roles: financeOnly },
  // the readers' GET /credit-notes/{id} and GET /refund/{id} patterns also match these two reads (keyMatch2): data those roles read anyway
  { method: "GET", path: "/credit-notes/get-class-information-for-credit-note", roles: [...creditNoteCalls, "intern", "hr"] },
  { method: "GET", path: `/refund/${ID}`, roles: refundReaders },
  { method: "POST", path: "/refund", roles: creditNoteCalls },
  { method: "PATCH", path: `/refund/${ID}`, roles: [...creditNoteCalls, "sales"] },
  { method: "PATCH", path: `/refund/${ID}/change-refund-status`, roles: [...creditNoteCalls, "sales"] },
  { method: "GET", path: "/refund/get-receipt-of-class", roles: refundReaders },
  { method: "POST", path: "/classes/get-class-infor-for-refund", roles: creditNoteCalls },
  { method: "GET", path: "/classes/classes-not-refund", roles: creditNoteCalls },
  { method: "GET", path: "/reports/daily-closing", roles: dailyClosingOverpaid },
  { method: "GET", path: "/reports/daily-receipt", roles: dailyReceipt },
  { method: "GET", path: "/reports/revenue", roles: otherReports },
  // issue 17: ours, for the roles of their report pages
  { method: "GET", path: "/reports/pa-listing", roles: otherReports },
  { method: "GET", path: "/reports/deposit", roles: otherReports },
  { method: "GET", path: "/reports/overpaid", roles: dailyClosingOverpaid },
  { method: "GET", path: "/reports/student-attendance", roles: otherReports },
  { method: "GET", path: "/reports/enrollment-list", roles: otherReports },
  { method: "GET", path: "/reports/enrollment-list-new", roles: otherReports },
  { method: "GET", path: "/reports/reward", roles: rewards },
  { method: "POST", path: "/reports/enrollment-list-by-user-ids", roles: otherReports },
  // issue 39 (ours)
  { method: "GET", path: `/finances/statements/${ID}`, roles: ["front_desk", "ops_manager", "finance_manager", "finance_staff"] },
  { method: "GET", path: "/finances/reminders/upcoming", roles: financeOnly },
  { method: "PUT", path: `/finances/reminders/${ID}/hold`, roles: financeOnly },
  { method: "GET", path: "/finances/ledger-export", roles: ["finance_manager"] },
  { method: "GET", path: "/access/policy", roles: S },
  { method: "PUT", path: "/access/policy", roles: [] },
];
