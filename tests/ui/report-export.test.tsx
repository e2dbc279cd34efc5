/**
 * The Excel export of a large report (issue 17 §1): written in steps with its progress reported, the file
 * holding every row, read back with the same library.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import ExcelJS from "exceljs";
import { exportXlsx } from "../../src/pages/reports/reportExport.ts";
import type { ReportResult } from "../../src/domain/reports.ts";

afterEach(() => vi.restoreAllMocks());

describe("Excel export of a large report", () => {
  it("reports its progress step by step up to 100 and writes every row", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ name: `DEP-${i + 1}`, amount: "10.50" }));
    const report: ReportResult = {
      columns: [
        { key: "name", title: "Deposit No.", kind: "text" },
        { key: "amount", title: "Amount", kind: "money" },
      ],
      rows,
      totals: { name: "5000 deposits", amount: "52500.00" },
    } as ReportResult;
    let blob: Blob | undefined;
    (URL as unknown as { createObjectURL: (b: Blob) => string }).createObjectURL = (b: Blob) => ((blob = b), "blob:report");
    (URL as unknown as { revokeObjectURL: () => void }).revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);

    const seen: number[] = [];
    await exportXlsx("Deposit Report", report, (p) => seen.push(p));
    expect(seen).toEqual([36, 72, 90, 100]);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await blob!.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(1 + 5000 + 1);
    expect(sheet.getRow(5001).getCell(1).value).toBe("DEP-5000");
    expect(sheet.getRow(5002).getCell(2).value).toBe(52500);
  });
});
