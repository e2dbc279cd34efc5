import { describe, expect, it } from "vitest";
import { labelsOf } from "../../src/domain/enumLabels.ts";
import { canTransition, displayPaStatus, isPaDeletable, isPaEditable, overdueFrom, paVoidAction, PA_STATUS_COLOURS, transitionTarget } from "../../src/domain/finance/paymentAdviceStatus.ts";
import { documentNumberLabel, formatDocumentNumber, parseDocumentNumber } from "../../src/domain/finance/documentNumber.ts";
import { classInformationFromWire, summaryFromWire, summaryToWire } from "../../src/domain/finance/paymentAdviceApi.ts";
import { computePaymentSummary } from "../../src/domain/finance/summary.ts";

describe("overdue is shown, never stored", () => {
  it("an unpaid PA is Overdue from 23:59:59 Singapore time of its due day", () => {
    expect(overdueFrom("2026-03-10")).toBe("2026-03-10T15:59:59.000Z");
    expect(displayPaStatus("unpaid", "2026-03-10", "2026-03-10T15:59:58.999Z")).toBe("unpaid");
    expect(displayPaStatus("unpaid", "2026-03-10", "2026-03-10T15:59:59.000Z")).toBe("overdue");
    expect(displayPaStatus("unpaid", "2026-03-10", new Date("2026-03-11T01:00:00Z"))).toBe("overdue");
  });
  it("other statuses are shown as stored", () => {
    expect(displayPaStatus("paid", "2020-01-01", "2026-01-01T00:00:00Z")).toBe("paid");
    expect(displayPaStatus("draft", "2020-01-01", "2026-01-01T00:00:00Z")).toBe("draft");
    expect(displayPaStatus("unpaid", null, "2026-01-01T00:00:00Z")).toBe("unpaid");
  });
  it("labels and colours follow the spec", () => {
    expect(labelsOf("payment_advices", "paymentStatus")).toMatchObject({ draft: "Draft", overdue: "OverDue", paid: "Paid", unpaid: "UnPaid", voided: "Voided", withdrawn: "Withdrawn" });
    expect(PA_STATUS_COLOURS).toMatchObject({ draft: "warning", overdue: "brown", voided: "brown", paid: "success", unpaid: "danger", withdrawn: "primary" });
  });
});

describe("PA transitions (FINANCE.md §4)", () => {
  it("the void offered is the one the server takes: none on an unpaid PA with part payments (issue 37)", () => {
    expect(paVoidAction("unpaid", 0)).toBe("void_unpaid");
    expect(paVoidAction("unpaid", 5000)).toBeNull();
    expect(paVoidAction("paid", 5000)).toBe("void_paid");
    expect(paVoidAction("overpaid", 9000)).toBe("void_paid");
    expect(paVoidAction("draft", 0)).toBeNull();
    expect(paVoidAction("voided", 0)).toBeNull();
  });
  it("issue moves a draft to unpaid and nothing else", () => {
    expect(transitionTarget("draft", "issue")).toBe("unpaid");
    expect(transitionTarget("unpaid", "issue")).toBeNull();
  });
  it("void unpaid only from unpaid, void paid only from paid or overpaid", () => {
    expect(transitionTarget("unpaid", "void_unpaid")).toBe("voided");
    expect(transitionTarget("draft", "void_unpaid")).toBeNull();
    expect(transitionTarget("paid", "void_unpaid")).toBeNull();
    expect(transitionTarget("paid", "void_paid")).toBe("voided");
    expect(transitionTarget("overpaid", "void_paid")).toBe("voided");
    expect(transitionTarget("unpaid", "void_paid")).toBeNull();
    expect(transitionTarget("voided", "void_paid")).toBeNull();
  });
  it("payments and withdrawal", () => {
    expect(canTransition("unpaid", "paid")).toBe(true);
    expect(canTransition("unpaid", "overpaid")).toBe(true);
    expect(canTransition("unpaid", "withdrawn", "withdraw")).toBe(true);
    expect(canTransition("voided", "unpaid")).toBe(false);
    expect(canTransition("paid", "unpaid")).toBe(false);
    expect(canTransition("draft", "paid")).toBe(false);
  });
  it("edits: drafts, and unpaid PAs without payments; deletes: drafts only", () => {
    expect(isPaEditable("draft", 0)).toBe(true);
    expect(isPaEditable("unpaid", 0)).toBe(true);
    expect(isPaEditable("unpaid", 100)).toBe(false);
    expect(isPaEditable("paid", 0)).toBe(false);
    expect(isPaDeletable("draft")).toBe(true);
    expect(isPaDeletable("unpaid")).toBe(false);
  });
});

describe("document numbers", () => {
  it("formats PA-<shortName>-<YYYY>-00001 and reads it back", () => {
    expect(formatDocumentNumber("payment_advice", "BM", 2026, 1)).toBe("PA-BM-2026-00001");
    expect(formatDocumentNumber("credit_note", "BM", 2026, 123)).toBe("CN-BM-2026-00123");
    expect(formatDocumentNumber("deposit", "X-Y", 2026, 100000)).toBe("DEP-X-Y-2026-100000");
    expect(parseDocumentNumber("PA-X-Y-2026-00042")).toEqual({ prefix: "PA", shortName: "X-Y", year: 2026, n: 42 });
    expect(parseDocumentNumber("Draft")).toBeNull();
    expect(() => formatDocumentNumber("invoice", "BM", 2026, 0)).toThrow(RangeError);
  });
  it("a draft shows Draft", () => {
    expect(documentNumberLabel(null)).toBe("Draft");
    expect(documentNumberLabel("PA-BM-2026-00001")).toBe("PA-BM-2026-00001");
  });
});

describe("wire conversions", () => {
  it("reads dollars as strings or numbers into cents", () => {
    const e = classInformationFromWire({ id: "c", lessonStartDate: "2026-01-01", termIds: ["t"], discountIds: [], quantityAdditionalLesson: 1, additionalDiscount: "12.5",
      booterClassIds: [], otherPayments: [{ name: "Material", amount: 30 }], deductions: [], deposits: [{ name: "Deposit", amount: "200.00" }], deductedDeposit: [], isDeductedDeposit: false });
    expect([e.additionalDiscount, e.otherPayments[0]!.amount, e.deposits[0]!.amount]).toEqual([1250, 3000, 20000]);
  });
  it("round-trips the summary through numeric strings", () => {
    const s = computePaymentSummary({ classTotals: [12345], registrationFee: 0, otherPayments: [], deductions: [], deposits: [], deductedDeposits: [], gstPercent: 9 });
    const w = summaryToWire(s);
    expect(w.gst).toBe("11.11");
    expect(w.totalPayable).toBe("134.56");
    expect(w.gstConfig).toEqual({ percentage: 9 });
    expect(summaryFromWire(w)).toEqual(s);
  });
});
