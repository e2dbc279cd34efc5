/**
 * Reports (issue 17): what every report answers — its columns, rows, totals and an optional chart — so one
 * page renders, charts and exports any of them. Figures are computed by the server in SQL; money travels as
 * numeric strings ("12.50"), never floats.
 */
import { formatFinanceDate, formatMoneyValue } from "./formats.ts";

export type ReportColumnKind = "text" | "money" | "date" | "number" | "percent";

export interface ReportColumn {
  key: string;
  title: string;
  kind: ReportColumnKind;
}

export type ReportValue = string | number | null;
export type ReportRow = Record<string, ReportValue>;

export interface ReportResult {
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The totals row (same keys as the columns it sums), or null. */
  totals: ReportRow | null;
  /** Figures shown above the table, label → value (e.g. the deposit balance). */
  summary?: Array<{ label: string; value: ReportValue; kind: ReportColumnKind }>;
  /** A bar chart of one money column by one category column. */
  chart?: { title: string; category: string; value: string; data: Array<{ category: string; value: number }> };
  /** A report paged on the server (issue 38): `rows` are this page's; the totals, chart and summary are the whole report's. */
  page?: ReportPage;
}

export interface ReportPage {
  current: number;
  pageSize: number;
  /** Rows in the whole report. */
  total: number;
}

/** Rows a page may ask for at most (a screen shows 50; an Excel export reads in pages of this size). */
export const MAX_REPORT_PAGE_SIZE = 5000;

/** The filters a report page offers. */
export type ReportFilter = "date" | "range" | "company" | "branch";

export interface ReportDefinition {
  /** The route of the page (spec part 2 §1). */
  path: string;
  title: string;
  /** The REST call under /api/v2 answering it. */
  endpoint: string;
  filters: readonly ReportFilter[];
}

/** The report pages of spec part 2 §1 (and the reward report), each with its call. */
export const REPORTS = {
  dailyReceipt: { path: "/report/daily-receipt-report", title: "Daily Receipt Report", endpoint: "/reports/daily-receipt", filters: ["date", "company", "branch"] },
  dailyClosing: { path: "/report/daily-closing-report", title: "Daily Closing Report", endpoint: "/reports/daily-closing", filters: ["range", "company", "branch"] },
  paListing: { path: "/report/pa-listing", title: "PA Listing", endpoint: "/reports/pa-listing", filters: ["range", "company", "branch"] },
  deposit: { path: "/report/deposit", title: "Deposit Report", endpoint: "/reports/deposit", filters: ["range", "company"] },
  overpaid: { path: "/report/overpaid-report", title: "Overpaid Report", endpoint: "/reports/overpaid", filters: ["range", "company"] },
  studentAttendance: { path: "/report/student-attendance-report", title: "Student Attendance Report", endpoint: "/reports/student-attendance", filters: ["range", "company", "branch"] },
  enrolmentList: { path: "/report/enrollment-list", title: "Enrollment List", endpoint: "/reports/enrollment-list", filters: ["range", "company", "branch"] },
  newEnrolmentList: { path: "/report/enrollment-list-new", title: "Enrollment List (New)", endpoint: "/reports/enrollment-list-new", filters: ["range", "company", "branch"] },
  reward: { path: "/reward/report", title: "Reward Report", endpoint: "/reports/reward", filters: ["range", "company"] },
  revenue: { path: "/report/revenue-recognition", title: "Revenue Recognition", endpoint: "/reports/revenue", filters: ["range", "company"] },
} as const satisfies Record<string, ReportDefinition>;

/** A calendar day "YYYY-MM-DD" (not a label in a date column). */
export const isDay = (value: ReportValue): boolean => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** One cell as text for CSV and for the screen's plain cells (money as S$ with two decimals). */
export function reportCellText(value: ReportValue, kind: ReportColumnKind, formatMoney: (v: string) => string, formatDay: (v: string) => string): string {
  if (value === null || value === "") return "";
  if (kind === "money") return formatMoney(String(value));
  // a totals row may label a date column ("Total")
  if (kind === "date") return isDay(value) ? formatDay(String(value)) : String(value);
  if (kind === "percent") return `${value}%`;
  return String(value);
}

/** One row's cells as the CSV export writes them: as the screen shows them (S$ money, DD/MM/YYYY days). */
export function reportCsvCells(columns: readonly ReportColumn[], row: ReportRow): string[] {
  return columns.map((c) => reportCellText(row[c.key] ?? null, c.kind, formatMoneyValue, formatFinanceDate));
}
