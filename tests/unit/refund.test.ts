import { describe, expect, it } from "vitest";
import { REFUND_MOVES, REFUND_STATUSES, REFUND_WAITING_ON, refundClassFigures, refundEditStep, refundMove, refundTotals } from "../../src/domain/finance/refund.ts";
import { waitingStatuses } from "../../src/domain/finance/workflow.ts";

const line = { unitPrice: 4_550, leftLessonNo: 5, oweLessonNo: 0, deduction: 0, otherPayments: [], gstPercent: 9 as const };

describe("refund figures (FINANCE.md §4 'Refund')", () => {
  it("left lessons × unit price plus GST at the PA's rate, half up", () => {
    // 22 750 + 9 % = 2 047.5 → 2 048
    expect(refundClassFigures(line)).toEqual({ leftLessonAmount: 22_750, oweAmount: 0, gst: 2_048, otherPayments: 0, amount: 24_798 });
  });
  it("owed lessons come off before GST; the deduction after GST; other payments are added without GST", () => {
    const f = refundClassFigures({ ...line, oweLessonNo: 1, deduction: 1_000, otherPayments: [{ name: "Material", amount: 500 }] });
    // base 22 750 − 4 550 = 18 200; GST 1 638; 18 200 − 1 000 + 500 + 1 638
    expect(f).toEqual({ leftLessonAmount: 22_750, oweAmount: 4_550, gst: 1_638, otherPayments: 500, amount: 19_338 });
  });
  it("no GST at 0 %; a class with nothing left refunds what was added minus the deduction", () => {
    expect(refundClassFigures({ ...line, gstPercent: 0 }).amount).toBe(22_750);
    expect(refundClassFigures({ ...line, leftLessonNo: 0, deduction: 200, otherPayments: [{ name: "x", amount: 300 }] }).amount).toBe(100);
  });
  it("the total adds the included credit notes and deposits", () => {
    const t = refundTotals([line, { ...line, leftLessonNo: 1, gstPercent: 0 }], [2_180, 100], [5_000]);
    expect(t).toEqual({ classAmount: 24_798 + 4_550, creditNoteAmount: 2_280, depositAmount: 5_000, total: 24_798 + 4_550 + 2_280 + 5_000 });
    expect(refundTotals([], [], [])).toEqual({ classAmount: 0, creditNoteAmount: 0, depositAmount: 0, total: 0 });
  });
});

describe("refund workflow (FINANCE.md §4–5)", () => {
  it("front desk → sales → finance manager, each move with its right; the ends are final", () => {
    expect(refundMove("awaiting_front_desk_action", "awaiting_sale_action")?.right).toBe("complete-front-desk");
    expect(refundMove("awaiting_sale_action", "awaiting_finance_approval")?.right).toBe("sales-step");
    expect(refundMove("awaiting_sale_action", "rejected_by_sale")?.right).toBe("sales-step");
    expect(refundMove("awaiting_finance_approval", "refunded")?.right).toBe("approve");
    expect(refundMove("awaiting_finance_approval", "rejected_by_finance")?.right).toBe("reject");
    expect(refundMove("awaiting_front_desk_action", "refunded")).toBeNull();
    expect(refundMove("awaiting_sale_action", "refunded")).toBeNull();
    for (const from of ["refunded", "rejected_by_sale", "rejected_by_finance"]) for (const to of REFUND_STATUSES) expect(refundMove(from, to)).toBeNull();
    expect(new Set(REFUND_MOVES.map((m) => m.from)).size).toBe(3);
  });
  it("each open step is edited by its right's holders; the waiting filter follows", () => {
    expect(refundEditStep("awaiting_front_desk_action")).toBe("complete-front-desk");
    expect(refundEditStep("awaiting_sale_action")).toBe("sales-step");
    expect(refundEditStep("awaiting_finance_approval")).toBe("approve");
    expect(refundEditStep("refunded")).toBeNull();
    expect(waitingStatuses(REFUND_WAITING_ON, new Set(["sales-step"]))).toEqual(["awaiting_sale_action"]);
  });
});
