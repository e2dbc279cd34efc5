/** The report pages built so far, one component each (lazy-loaded by resources/reports.ts). */
import { REPORTS } from "../../domain/reports.ts";
import { ReportPage } from "./ReportPage.tsx";

export const DailyReceiptReport = () => <ReportPage def={REPORTS.dailyReceipt} />;
export const DailyClosingReport = () => <ReportPage def={REPORTS.dailyClosing} />;
export const PaListingReport = () => <ReportPage def={REPORTS.paListing} />;
export const DepositReport = () => <ReportPage def={REPORTS.deposit} />;
export const OverpaidReport = () => <ReportPage def={REPORTS.overpaid} />;
