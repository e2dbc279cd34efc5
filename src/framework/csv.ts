/** CSV for list exports (RFC 4180; a BOM so spreadsheet apps read UTF-8). */
import { CSV_BOM, csvCell, csvLine } from "../domain/csv.ts";

export { csvCell };

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return CSV_BOM + [header, ...rows].map(csvLine).join("");
}

/** "companies-2026-11-22.csv" */
export function csvFileName(table: string, day: string): string {
  return `${table}-${day}.csv`;
}
