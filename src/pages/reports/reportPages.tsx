/** The report pages, one component each (lazy-loaded by resources/reports.ts). */
import { REPORTS } from "../../domain/reports.ts";
import { ReportPage } from "./ReportPage.tsx";

export const DailyReceiptReport = () => <ReportPage def={REPORTS.dailyReceipt} />;
export const DailyClosingReport = () => <ReportPage def={REPORTS.dailyClosing} />;
export const PaListingReport = () => <ReportPage def={REPORTS.paListing} />;
export const DepositReport = () => <ReportPage def={REPORTS.deposit} />;
export const OverpaidReport = () => <ReportPage def={REPORTS.overpaid} />;
export const StudentAttendanceReport = () => <ReportPage def={REPORTS.studentAttendance} />;
export const EnrolmentListReport = () => <ReportPage def={REPORTS.enrolmentList} />;
export const NewEnrolmentListReport = () => <ReportPage def={REPORTS.newEnrolmentList} />;
export const RevenueReport = () => <ReportPage def={REPORTS.revenue} />;
export const RewardReport = () => <ReportPage def={REPORTS.reward} />;
