/** The formatters of src/domain/formats.ts (issue 19; spec part 1 §5, part 2 §9). */
import { describe, expect, it } from "vitest";
import { formatDiscount, formatFinanceDate, formatMoneyValue, formatRecordedText, formatTimeDate } from "../../src/domain/formats.ts";

describe("formats", () => {
  it("finance dates read DD/MM/YYYY, a calendar day unshifted, an instant by its Singapore day", () => {
    expect(formatFinanceDate("2026-03-01")).toBe("01/03/2026");
    expect(formatFinanceDate("2026-02-28T16:30:00Z")).toBe("01/03/2026");
    expect(formatFinanceDate(null)).toBe("");
  });

  it("money reads S$ with grouping and two decimals", () => {
    expect(formatMoneyValue("1234567.5")).toBe("S$1,234,567.50");
    expect(formatMoneyValue(20)).toBe("S$20.00");
    expect(formatMoneyValue("-0.05")).toBe("-S$0.05");
    expect(formatMoneyValue(null)).toBe("");
  });

  it("a discount reads by its unit: S$20.00 or 10%", () => {
    expect(formatDiscount("20", "amount")).toBe("S$20.00");
    expect(formatDiscount(1500, "amount")).toBe("S$1,500.00");
    expect(formatDiscount("10", "percent")).toBe("10%");
    expect(formatDiscount("12.50", "percent")).toBe("12.5%");
    expect(formatDiscount("0.25", "percent")).toBe("0.25%");
    expect(formatDiscount(null, "percent")).toBe("");
  });

  it("date-times read 'HH:mm, DD/MM/YYYY' in Singapore", () => {
    expect(formatTimeDate("2026-03-01T01:05:00Z")).toBe("09:05, 01/03/2026");
  });

  it("a log's recorded text reads its days as DD/MM/YYYY and its instants as 'HH:mm, DD/MM/YYYY' (issue 37 item 15)", () => {
    expect(formatRecordedText("2026-03-01")).toBe("01/03/2026");
    expect(formatRecordedText("2026-03-01T01:05:00.000Z")).toBe("09:05, 01/03/2026");
    expect(formatRecordedText("PA-BME-2026-00001")).toBe("PA-BME-2026-00001");
    expect(formatRecordedText("2026-03-01 and more")).toBe("2026-03-01 and more");
  });
});
