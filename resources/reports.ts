import { lazyPage } from "../src/framework/routes.tsx";
import { defineResource, text } from "../src/framework/declare.ts";
import { REPORTS } from "../src/domain/reports.ts";

/**
 * The report pages (issue 17): not entities but figures the server computes, so each "resource" is only a
 * route with its hand-written page (src/pages/reports); the table names the report's main source for Refine.
 */
type PageName = keyof typeof import("../src/pages/reports/reportPages.tsx");
const page = (exportName: PageName) =>
  lazyPage<object>(() => import("../src/pages/reports/reportPages.tsx").then((m) => ({ default: m[exportName] })));

const report = (name: string, table: string, def: { path: string; title: string }, list: ReturnType<typeof page>, menu = "report") =>
  defineResource({
    table,
    name,
    label: def.title,
    menu,
    routes: { list: def.path },
    deletable: false,
    exportable: false,
    fields: { id: text("Id") },
    pages: { list },
  });

export const dailyReceiptReport = report("report_daily_receipt", "receipts", REPORTS.dailyReceipt, page("DailyReceiptReport"));
export const dailyClosingReport = report("report_daily_closing", "invoice_payments", REPORTS.dailyClosing, page("DailyClosingReport"));
export const paListingReport = report("report_pa_listing", "payment_advices", REPORTS.paListing, page("PaListingReport"));
export const depositReport = report("report_deposit", "deposits", REPORTS.deposit, page("DepositReport"));
export const overpaidReport = report("report_overpaid", "invoices", REPORTS.overpaid, page("OverpaidReport"));
export const studentAttendanceReport = report("report_student_attendance", "lessons_students", REPORTS.studentAttendance, page("StudentAttendanceReport"));
export const enrolmentListReport = report("report_enrollment_list", "student_classes", REPORTS.enrolmentList, page("EnrolmentListReport"));
export const newEnrolmentListReport = report("report_enrollment_list_new", "student_classes", REPORTS.newEnrolmentList, page("NewEnrolmentListReport"));
export const revenueReport = report("report_revenue", "payment_advices", REPORTS.revenue, page("RevenueReport"));
export const rewardReport = report("report_reward", "referrals", REPORTS.reward, page("RewardReport"), "rewards");
