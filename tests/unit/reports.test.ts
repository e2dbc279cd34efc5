import { describe, expect, it } from "vitest";
import { isDay, reportCellText, REPORTS } from "../../src/domain/reports.ts";

const money = (v: string) => `S$${v}`;
const day = (v: string) => v.split("-").reverse().join("/");

describe("report cells (issue 17)", () => {
  it("shows money, days, percentages and counts as the screen and the CSV read them", () => {
    expect(reportCellText("12.50", "money", money, day)).toBe("S$12.50");
    expect(reportCellText("2026-11-24", "date", money, day)).toBe("24/11/2026");
    expect(reportCellText("Total", "date", money, day)).toBe("Total"); // a totals row labels a date column
    expect(reportCellText(85, "percent", money, day)).toBe("85%");
    expect(reportCellText(3, "number", money, day)).toBe("3");
    expect(reportCellText(null, "money", money, day)).toBe("");
    expect(isDay("2026-02-30")).toBe(true); // shape only: the server sends real days
    expect(isDay("Total")).toBe(false);
  });
  it("every report page has its route under /report (or /reward) and a call under /reports", () => {
    for (const r of Object.values(REPORTS)) {
      expect(r.path).toMatch(/^\/(report|reward)\//);
      expect(r.endpoint).toMatch(/^\/reports\//);
    }
  });
});
