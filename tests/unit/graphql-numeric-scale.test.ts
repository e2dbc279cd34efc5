/** The digits a numeric input holds, as the engine counts them to refuse values a numeric(p,s) column would round. */
import { describe, expect, it } from "vitest";
import { decimalDigits } from "../../server/graphql/plan/numeric-scale.ts";

describe("decimalDigits", () => {
  it.each([
    ["12.345", 2, 3],
    ["12.34", 2, 2],
    ["12.340", 2, 2],
    ["0012.3", 2, 1],
    ["-0.005", 0, 3],
    [".5", 0, 1],
    ["5.", 1, 0],
    ["1.2345e1", 2, 3],
    ["1e-7", 0, 7],
    ["1.5E+3", 4, 0],
    ["99999999999.99", 11, 2],
    ["  7  ", 1, 0],
  ])("%s has %i integer and %i fractional digits", (text, integer, fraction) => {
    expect(decimalDigits(text)).toEqual({ integer, fraction });
  });

  it.each(["", ".", "abc", "NaN", "Infinity", "1,5", "1e"])("%j is not a decimal (Postgres answers it)", (text) => {
    expect(decimalDigits(text)).toBeNull();
  });
});
