/** CSV cells and lines (RFC 4180), written the same by the browser's list exports and the server's streamed reports. */

/** The byte-order mark a CSV file starts with, so spreadsheet apps read it as UTF-8. */
export const CSV_BOM = "\uFEFF";

export function csvCell(value: string): string {
  // Cells starting with = + - @ would run as formulas in spreadsheet apps: prefix them with a quote.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line of cells, ended by CRLF. */
export const csvLine = (cells: readonly string[]): string => cells.map(csvCell).join(",") + "\r\n";
