/**
 * A report to a file: CSV (the server writes it, streamed for the paged reports: issue 38) or Excel (.xlsx by exceljs,
 * loaded only when asked, from every page of the report). Money cells are numbers in Excel (two decimals, S$ format),
 * text in CSV as the screen shows them.
 */
import { api } from "../../app/api.ts";
import { downloadFile, saveFile } from "../../framework/download.ts";
import { numericToCents } from "../../domain/money.ts";
import { todayInSingapore } from "../../domain/dates.ts";
import { formatFinanceDate, formatMoneyValue } from "../../domain/formats.ts";
import { isDay, MAX_REPORT_PAGE_SIZE, type ReportResult, type ReportValue } from "../../domain/reports.ts";

export const moneyText = (v: string) => formatMoneyValue(v);
export const dayText = (v: string) => formatFinanceDate(v);

const fileName = (title: string, ext: string) => `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${todayInSingapore()}.${ext}`;

/** The report's CSV as the server writes it (`query`: the filters). */
export async function exportCsv(title: string, endpoint: string, query: string): Promise<void> {
  await downloadFile(`${endpoint}?${query}&format=csv`, fileName(title, "csv"));
}

/** Every row of a report the server pages (the first page already read), a page of the largest size at a time. */
export async function allRows(endpoint: string, query: string, first: ReportResult): Promise<ReportResult> {
  if (!first.page || first.rows.length === first.page.total) return first;
  const rows: ReportResult["rows"] = [];
  for (let page = 1; rows.length < first.page.total; page++) {
    const next = (await api<ReportResult>("GET", `${endpoint}?${query}&page=${page}&pageSize=${MAX_REPORT_PAGE_SIZE}`)).data!;
    if (!next.rows.length) break;
    rows.push(...next.rows);
  }
  return { ...first, rows };
}

/** Rows written between two progress reports (and a pause that lets the page repaint). */
const ROWS_PER_STEP = 2000;

/**
 * The report as an Excel file. A large report is written in steps: `onProgress` hears the percentage done
 * (rows written, then the file packed) so the page can show how far it is.
 */
export async function exportXlsx(title: string, r: ReportResult, onProgress?: (percent: number) => void): Promise<void> {
  const { default: ExcelJS } = await import("exceljs");
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(title.slice(0, 31));
  sheet.columns = r.columns.map((c) => ({ header: c.title, key: c.key, width: Math.max(12, c.title.length + 2), style: c.kind === "money" ? { numFmt: '"S$"#,##0.00' } : {} }));
  const cell = (v: ReportValue, kind: string) => (v === null || v === "" ? null : kind === "money" ? (numericToCents(String(v)) ?? 0) / 100 : kind === "number" ? Number(v) : kind === "date" && isDay(v) ? dayText(String(v)) : v);
  for (let i = 0; i < r.rows.length; i += ROWS_PER_STEP) {
    for (const row of r.rows.slice(i, i + ROWS_PER_STEP)) sheet.addRow(Object.fromEntries(r.columns.map((c) => [c.key, cell(row[c.key] ?? null, c.kind)])));
    onProgress?.(Math.floor((90 * Math.min(i + ROWS_PER_STEP, r.rows.length)) / r.rows.length));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (r.totals) sheet.addRow(Object.fromEntries(r.columns.map((c) => [c.key, cell(r.totals![c.key] ?? null, c.kind)]))).font = { bold: true };
  sheet.getRow(1).font = { bold: true };
  const buffer = await book.xlsx.writeBuffer();
  onProgress?.(100);
  saveFile(new Blob([buffer], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }), fileName(title, "xlsx"));
}
