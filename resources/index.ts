/** Every declared resource; the app shell mounts their pages and Refine entries from this list. */
import type { Resource } from "../src/framework/declare.ts";
import { companies } from "./companies.ts";
import { branches, classrooms } from "./branches.ts";
import { holidays } from "./holidays.ts";
import { enquiries } from "./enquiries.ts";
import { users, roles, auditLog } from "./users.ts";
import { curriculums, levels, subjects, categories, programTypes, academicCalendars, terms, programs } from "./programmes.ts";
import { contentCategories, resourceCategories, posts, resourcePosts, surveys } from "./content.ts";
import { referrals } from "./rewards.ts";
import { discounts, academicProgramTypePricings, specialClassPricings, systemSettings } from "./finance-setup.ts";
import { broadcasts, news, threeTimesAbsents, unsubscribers } from "./communication.ts";
import { students, studentAccounts } from "./students.ts";
// issue 14: payment advices
import { paymentAdvices } from "./finance-payment-advice.ts";
// issue 15: money received
import { deposits, invoices, receipts } from "./finance-money-received.ts";
// issue 16: suspensions, withdrawals, credit notes and refunds
import { suspensions, withdrawals, creditNotes, refunds } from "./credit-notes-refunds.ts";
// issue 17: reports
import { dailyReceiptReport, dailyClosingReport, paListingReport, depositReport, overpaidReport, studentAttendanceReport, enrolmentListReport, newEnrolmentListReport, revenueReport, rewardReport } from "./reports.ts";
// issue 35: bank statement reconciliation
import { bankReconciliation } from "./bank-reconciliation.ts";
// issue 39: overdue reminders, the ledger out to accounting, statements
import { paymentReminders, ledgerExport } from "./finance-statements.ts";
// issue 39: the term billing run
import { billingRun } from "./billing-run.ts";
import { classes, classFromProgramme, lessons, attendanceMonitor, gantryRecords } from "./classes.ts";

export const resources: readonly Resource[] = [companies, branches, classrooms, holidays, enquiries,
  // issue 7: the remaining catalogue screens
  users, roles, auditLog, curriculums, levels, subjects, categories, programTypes, academicCalendars, terms, programs,
  contentCategories, resourceCategories, posts, resourcePosts, surveys, referrals,
  discounts, academicProgramTypePricings, specialClassPricings, systemSettings,
  broadcasts, news, threeTimesAbsents, unsubscribers,
  // issue 12: students (after users, which stays the users table's own resource)
  students, studentAccounts,
  // issue 14: payment advices
  paymentAdvices,
  // issue 15: money received
  invoices, receipts, deposits,
  // issue 35: bank statement reconciliation
  bankReconciliation,
  // issue 39: overdue reminders, the ledger out to accounting, statements
  paymentReminders, ledgerExport,
  // issue 39: the term billing run
  billingRun,
  // issue 13: classes and attendance
  classes, classFromProgramme, lessons, attendanceMonitor, gantryRecords,
  // issue 16: suspensions, withdrawals, credit notes and refunds
  suspensions, withdrawals, creditNotes, refunds,
  // issue 17: reports
  dailyReceiptReport, dailyClosingReport, paListingReport, depositReport, overpaidReport, studentAttendanceReport, enrolmentListReport, newEnrolmentListReport, revenueReport, rewardReport];
