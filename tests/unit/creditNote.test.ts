import { storedValueLabel } from "../../src/domain/enumLabels.ts";
import { describe, expect, it } from "vitest";
import {
  CREDIT_NOTE_MOVES, CREDIT_NOTE_STATUSES, CREDIT_NOTE_STATUS_COLOURS, CREDIT_NOTE_WAITING_ON, creditNoteEditStep, creditNoteMove, creditNoteTotals,
} from "../../src/domain/finance/creditNote.ts";
import { waitingStatuses } from "../../src/domain/finance/workflow.ts";

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

describe("credit note workflow (FINANCE.md §4–5, spec part 2 §4)", () => {
  it("the seven statuses have the spec's labels and colours", () => {
    expect(CREDIT_NOTE_STATUSES.map((s) => storedValueLabel("credit_notes", "creditNoteStatus", s))).toEqual([
      "Awaiting Front Desk Action", "Awaiting Finance Action", "Awaiting Finance Approval", "Issued", "Rejected", "Voided", "Used",
    ]);
    // light purple, pink, blue, blue, red, grey, orange
    expect(CREDIT_NOTE_STATUSES.map((s) => CREDIT_NOTE_STATUS_COLOURS[s])).toEqual(["purple", "magenta", "blue", "blue", "red", "default", "orange"]);
  });

  it("each move needs its step's right; nothing leaves rejected, voided or used; used is reached only by a payment", () => {
    expect(creditNoteMove("awaiting_front_desk_action", "awaiting_finance_action")?.right).toBe("complete-front-desk");
    expect(creditNoteMove("awaiting_finance_action", "awaiting_finance_approval")?.right).toBe("fill-fees");
    expect(creditNoteMove("awaiting_finance_approval", "issued")?.right).toBe("approve");
    expect(creditNoteMove("awaiting_finance_approval", "rejected")?.right).toBe("reject");
    expect(creditNoteMove("issued", "voided")?.right).toBe("void");
    expect(creditNoteMove("awaiting_front_desk_action", "issued")).toBeNull(); // no step is skipped
    expect(creditNoteMove("awaiting_finance_action", "issued")).toBeNull();
    for (const from of ["rejected", "voided", "used"]) for (const to of CREDIT_NOTE_STATUSES) expect(creditNoteMove(from, to)).toBeNull();
    expect(CREDIT_NOTE_MOVES.some((m) => m.to === "used")).toBe(false);
  });

  it("who edits what: front desk the class and period, finance the fees, nobody after", () => {
    expect(creditNoteEditStep("awaiting_front_desk_action")).toBe("front-desk");
    expect(creditNoteEditStep("awaiting_finance_action")).toBe("finance");
    for (const s of ["awaiting_finance_approval", "issued", "rejected", "voided", "used"]) expect(creditNoteEditStep(s)).toBeNull();
  });

  it("waiting for me: the statuses whose step needs a right the user holds", () => {
    expect(waitingStatuses(CREDIT_NOTE_WAITING_ON, new Set(["complete-front-desk"]))).toEqual(["awaiting_front_desk_action"]);
    expect(waitingStatuses(CREDIT_NOTE_WAITING_ON, new Set(["fill-fees", "approve", "reject"]))).toEqual(["awaiting_finance_action", "awaiting_finance_approval"]);
    expect(waitingStatuses(CREDIT_NOTE_WAITING_ON, new Set())).toEqual([]);
  });
});
