/**
 * A bank statement export as rows of text (issue 35): CSV (comma or semicolon separated, quoted fields, a
 * byte-order mark) or Excel .xlsx (its first sheet, read by exceljs). Banks put an account summary above the
 * column headings: the heading row is the first of the widest rows near the top.
 */
import type ExcelJS from "exceljs";
import { BANK_MESSAGES } from "../../src/domain/finance/bankStatement.ts";
import { FinanceError } from "./transaction.ts";

export interface StatementTable {
  headers: string[];
  /** The rows under the headings, each as long as `headers`, with the file's row number (1-based). */
  rows: { rowNumber: number; cells: string[] }[];
}

/** RFC 4180 CSV: quoted fields may hold the separator, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, "");
  const firstLine = body.slice(0, body.indexOf("\n") === -1 ? undefined : body.indexOf("\n"));
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) rows.push([...row, cell]);
  return rows;
}

/** An Excel cell as the text a CSV export would hold: dates as YYYY-MM-DD, numbers as written. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "object") {
    if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("text" in value) return String(value.text);
    return "";
  }
  return String(value);
}

async function readXlsx(bytes: Buffer): Promise<string[][]> {
  // loaded on first use: exceljs alone was ~2 of a server start's ~10 s of imports (issue 31)
  const { default: Excel } = await import("exceljs");
  const book = new Excel.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const values = row.values as ExcelJS.CellValue[];
    rows[n - 1] = values.slice(1).map(cellText);
  });
  return Array.from(rows, (r) => r ?? []);
}

const isXlsx = (name: string, bytes: Buffer) => /\.xlsx$/i.test(name) || bytes.subarray(0, 4).toString("binary") === "PK\u0003\u0004";

/** Reads the file into its headings and rows; a refusal (400) when it is neither CSV nor .xlsx or has no headings. */
export async function readStatement(fileName: string, bytes: Buffer, maxRows: number): Promise<StatementTable> {
  if (!/\.(csv|txt|xlsx)$/i.test(fileName)) throw new FinanceError(400, BANK_MESSAGES.fileType, { file: BANK_MESSAGES.fileType });
  let raw: string[][];
  try {
    raw = isXlsx(fileName, bytes) ? await readXlsx(bytes) : parseCsv(bytes.toString("utf8"));
  } catch {
    throw new FinanceError(400, BANK_MESSAGES.fileUnreadable, { file: BANK_MESSAGES.fileUnreadable });
  }
  const filled = (r: string[]) => r.filter((c) => c.trim() !== "").length;
  const top = raw.slice(0, 30);
  const widest = Math.max(0, ...top.map(filled));
  const headerAt = top.findIndex((r) => filled(r) === widest);
  if (widest < 2 || headerAt < 0) throw new FinanceError(400, BANK_MESSAGES.noHeader, { file: BANK_MESSAGES.noHeader });
  const headers = raw[headerAt]!.map((h) => h.trim());
  const rows = raw
    .map((cells, i) => ({ rowNumber: i + 1, cells: headers.map((_, c) => (cells[c] ?? "").trim()) }))
    .slice(headerAt + 1)
    .filter((r) => r.cells.some((c) => c !== ""));
  if (rows.length > maxRows) throw new FinanceError(400, BANK_MESSAGES.tooManyLines(maxRows), { file: BANK_MESSAGES.tooManyLines(maxRows) });
  return { headers, rows };
}
