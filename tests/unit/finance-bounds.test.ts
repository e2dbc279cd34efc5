import { describe, expect, it } from "vitest";
import { BOUND_MESSAGES, documentBoundError, lineBoundError, MAX_DOCUMENT_CENTS, MAX_LINE_CENTS, parseAmount, paymentDateError, paymentDateWindow } from "../../src/domain/finance/bounds.ts";

describe("amounts: at most two decimals, refused beyond, never cut (FINANCE.md §1 Bounds)", () => {
  it.each([
    ["12.34", 1234],
    ["12.3", 1230],
    ["12", 1200],
    [".5", 50],
    ["  7.00 ", 700],
    ["-0.05", -5],
    [12.34, 1234],
    [0, 0],
    ["99999999999.99", 9999999999999],
  ] as const)("parseAmount(%j) = %i cents", (value, cents) => expect(parseAmount(value)).toEqual({ ok: true, cents }));

  it.each(["12.345", "12.340", "0.001", 12.345, 0.1 + 0.2])("parseAmount(%j) is refused for its decimals", (value) =>
    expect(parseAmount(value)).toEqual({ ok: false, message: BOUND_MESSAGES.decimals }),
  );

  it.each(["", "abc", "1,234.56", "1.2.3", "-", ".", "1e5", Number.NaN, Number.POSITIVE_INFINITY, 1e21, "9".repeat(20)])("parseAmount(%j) is not an amount", (value) =>
    expect(parseAmount(value)).toEqual({ ok: false, message: "invalid" }),
  );
});

describe("line and document maxima", () => {
  it("a line is at most S$1,000,000.00, a document at most S$10,000,000.00 (either sign)", () => {
    expect(MAX_LINE_CENTS).toBe(100_000_000);
    expect(MAX_DOCUMENT_CENTS).toBe(1_000_000_000);
    expect(lineBoundError(100_000_000)).toBeNull();
    expect(lineBoundError(100_000_001)).toBe("A line may be at most S$1,000,000.00.");
    expect(lineBoundError(-100_000_001)).toBe(BOUND_MESSAGES.line);
    expect(documentBoundError(1_000_000_000)).toBeNull();
    expect(documentBoundError(1_000_000_001)).toBe("A document may total at most S$10,000,000.00.");
    expect(documentBoundError(-1_000_000_001)).toBe(BOUND_MESSAGES.document);
  });
});

describe("the payment date window: the PA's issue date minus one year … today", () => {
  it("takes both ends and refuses outside, naming the first day", () => {
    expect(paymentDateWindow("2026-03-15", "2026-11-27")).toEqual({ from: "2025-03-15", to: "2026-11-27" });
    for (const ok of ["2025-03-15", "2026-01-01", "2026-11-27"]) expect(paymentDateError(ok, "2026-03-15", "2026-11-27")).toBeNull();
    for (const bad of ["2025-03-14", "2026-11-28", "0999-01-01", "9999-12-31"]) {
      expect(paymentDateError(bad, "2026-03-15", "2026-11-27")).toBe("The payment date must lie between 15/03/2025 and today.");
    }
  });

  it("a leap day issue date steps back to 28 February; without an issue date the window counts from today", () => {
    expect(paymentDateWindow("2028-02-29", "2028-03-01").from).toBe("2027-02-28");
    expect(paymentDateWindow(null, "2026-11-27").from).toBe("2025-11-27");
  });
});
