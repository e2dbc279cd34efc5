import { describe, expect, it } from "vitest";
import { creditNoteTotals } from "../../src/domain/finance/creditNote.ts";

describe("credit note totals (FINANCE.md §4, spec part 2 §9)", () => {
  it("suspension: lessons × unit price, plus GST at the PA's rate, half up", () => {
    expect(creditNoteTotals({ numberOfLesson: 3, unitPriceOfClass: 4_550 }, 9)).toEqual({ subTotal: 13_650, gst: 1_229, total: 14_879 }); // 1228.5 → 1229
    expect(creditNoteTotals({ numberOfLesson: 1, unitPriceOfClass: 5_000 }, 0)).toEqual({ subTotal: 5_000, gst: 0, total: 5_000 });
  });
  it("overpaid: the overpaid amount, plus GST", () => {
    expect(creditNoteTotals({ overpaidAmount: 1_050 }, 7)).toEqual({ subTotal: 1_050, gst: 74, total: 1_124 }); // 73.5 → 74
    expect(creditNoteTotals({ overpaidAmount: 999 }, 8)).toEqual({ subTotal: 999, gst: 80, total: 1_079 }); // 79.92 → 80
  });
});
