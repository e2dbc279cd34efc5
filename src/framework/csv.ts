/** CSV for list exports (RFC 4180; a BOM so spreadsheet apps read UTF-8). */
export function csvCell(value: string): string {
  // Cells starting with = + - @ would run as formulas in spreadsheet apps: prefix them with a quote.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return "\uFEFF" + [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** "companies-2026-11-22.csv" */
export function csvFileName(table: string, day: string): string {
  return `${table}-${day}.csv`;
}
