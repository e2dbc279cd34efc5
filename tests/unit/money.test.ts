import { describe, expect, it } from "vitest";
import {
  centsToNumeric,
  formatMoney,
  formatMoneyInputText,
  numericToCents,
  parseMoneyInput,
  sumCents,
} from "../../src/domain/money.ts";

describe("Currency: prefix S$ (a minus sign when negative), thousands grouping, two decimals", () => {
  it.each([
    [0, "S$0.00"],
    [5, "S$0.05"],
    [50, "S$0.50"],
    [100, "S$1.00"],
    [123456, "S$1,234.56"],
    [100000000, "S$1,000,000.00"],
    [-5, "-S$0.05"],
    [-123456, "-S$1,234.56"],
    [99999999999, "S$999,999,999.99"],
  ])("formatMoney(%i) = %s", (cents, text) => expect(formatMoney(cents)).toBe(text));

  it("refuses non-integer cents (no float money)", () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
    expect(() => centsToNumeric(Number.NaN)).toThrow(RangeError);
  });
});

describe("numeric strings over GraphQL ↔ integer cents", () => {
  it.each([
    [0, "0.00"],
    [7, "0.07"],
    [-7, "-0.07"],
    [123456, "1234.56"],
  ])("centsToNumeric(%i) = %s", (cents, text) => expect(centsToNumeric(cents)).toBe(text));

  it.each([
    ["1234.56", 123456],
    ["1234.5", 123450],
    ["1234", 123400],
    ["0.1", 10],
    [".5", 50],
    ["-0.05", -5],
    ["-12", -1200],
    ["12.349", 1234],
    [12.34, 1234],
    [0.1, 10],
    [-3, -300],
    ["+2.00", 200],
    ["-0", 0],
  ] as const)("numericToCents(%s) = %i", (value, cents) => expect(numericToCents(value)).toBe(cents));

  it.each([null, undefined, "", "abc", "1.2.3", "-", ".", "1e5"])("numericToCents(%s) is null", (value) =>
    expect(numericToCents(value as string | null | undefined)).toBeNull(),
  );

  it("round-trips", () => {
    for (const c of [0, 1, -1, 99, 100, 101, 123456789, -987654321]) expect(numericToCents(centsToNumeric(c))).toBe(c);
  });
});

describe("the currency input: further digits are cut as typed; a text holding them is refused, never cut", () => {
  it.each([
    ["", null],
    ["S$", null],
    ["S$1,234.56", 123456],
    ["1234.567", null],
    ["1234.999", null],
    ["12.340", null],
    ["-S$1,234.5", -123450],
    ["S$-12", -1200],
    ["  42 ", 4200],
    ["0.05", 5],
    [".5", 50],
    ["00012.3", 1230],
    ["1a2b3", 12300],
    ["-", null],
    ["-0", 0],
  ] as const)("parseMoneyInput(%j) = %s", (text, cents) => expect(parseMoneyInput(text)).toBe(cents));

  it("null and undefined are empty", () => {
    expect(parseMoneyInput(null)).toBeNull();
    expect(parseMoneyInput(undefined)).toBeNull();
  });

  it.each([
    ["", ""],
    ["1", "S$1"],
    ["1234", "S$1,234"],
    ["1234.", "S$1,234."],
    ["1234.5", "S$1,234.5"],
    ["1234.567", "S$1,234.56"],
    ["1234567.891", "S$1,234,567.89"],
    ["-1234.5", "-S$1,234.5"],
    ["-", "-S$"],
    [".5", "S$0.5"],
    ["S$1,234.56", "S$1,234.56"],
    ["0001", "S$1"],
  ])("formatMoneyInputText(%j) = %j", (text, shown) => expect(formatMoneyInputText(text)).toBe(shown));

  it("the shown text parses back to the same cents", () => {
    for (const t of ["1234.5", "-99.99", "1000000", "0.01"]) {
      expect(parseMoneyInput(formatMoneyInputText(t))).toBe(parseMoneyInput(t));
    }
  });
});

describe("sumCents", () => {
  it("adds integers exactly where floats would drift", () => {
    expect(sumCents([10, 20])).toBe(30); // 0.1 + 0.2
    expect(sumCents([])).toBe(0);
    expect(() => sumCents([0.5])).toThrow(RangeError);
  });
});
