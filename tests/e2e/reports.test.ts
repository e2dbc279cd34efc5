/**
 * Reports in a real browser (issue 17): finance_manager runs the daily closing report for this month, sees the
 * chart and the totals row, downloads the Excel file and it holds the same total (read with exceljs); sales,
 * whose only report is the daily receipt one, runs it.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import ExcelJS from "exceljs";
import { useBrowser } from "../support/browser.ts";
import { withRole } from "./catalogue-support.ts";
import { formatMoney, numericToCents } from "../../src/domain/money.ts";
import { REPORTS } from "../../src/domain/reports.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

describe("reports", () => {
  it("finance_manager runs the daily closing report and downloads it as Excel with the same total", async () => {
    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto("/report/daily-closing-report");
      await page.getByRole("button", { name: "Run" }).click();
      const total = page.getByTestId("report-total-total");
      await expect.poll(() => total.textContent(), { timeout: 15_000 }).toMatch(/^S\$/);
      const shown = (await total.textContent())!;
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export Excel" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^daily-closing-report-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile((await download.path())!);
      const sheet = book.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const totalColumn = header.indexOf("Total");
      expect(totalColumn).toBeGreaterThan(0);
      const last = sheet.getRow(sheet.rowCount);
      expect(String(last.getCell(1).value)).toBe("Total");
      expect(formatMoney(Math.round(Number(last.getCell(totalColumn).value) * 100))).toBe(shown);
    });
  });

  it("finance_manager opens every report page: each answers with its table and totals", async () => {
    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      for (const r of Object.values(REPORTS)) {
        await page.goto(r.path);
        await page.getByTestId("report-table").waitFor();
        await expect.poll(() => page.locator('[data-testid^="report-total-"]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
        expect(await page.locator(".ant-card-head-title").first().textContent()).toBe(r.title);
      }
    });
  });

  it("sales runs the daily receipt report; the closing report is not theirs", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await page.goto("/report/daily-receipt-report");
      await page.getByTestId("report-table").waitFor();
      await expect.poll(() => page.getByTestId("report-total-amount").textContent(), { timeout: 15_000 }).toMatch(/^S\$/);
      const amount = numericToCents((await page.getByTestId("report-total-amount").textContent())!.replace(/[S$,]/g, ""));
      expect(amount).not.toBeNull();
      await page.goto("/report/daily-closing-report");
      await page.getByTestId("forbidden").waitFor();
    });
  });
});
