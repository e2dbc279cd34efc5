import { describe, expect, it } from "vitest";
import { percentOfCents, percentToHundredths } from "../../src/domain/finance/rounding.ts";
import { applyDiscounts, eligibleDiscounts, isDiscountEligible, type DiscountRule } from "../../src/domain/finance/discounts.ts";
import { billedLessons, computeClassCard, isTermSelectable, type CardLesson } from "../../src/domain/finance/classCard.ts";
import { computePaymentSummary, isMaterialRow, isPayableValid } from "../../src/domain/finance/summary.ts";
import { effectiveRegistrationFeeApplied, isInWaiverPeriod, registrationFeeCharged } from "../../src/domain/finance/registrationFee.ts";
import { computePaymentAdvice, UnknownClassError, type PricedClass } from "../../src/domain/finance/paymentAdvice.ts";

describe("percentages of money: half up to the cent, integers only", () => {
  it("rounds exact halves up and leaves the rest to the nearest cent", () => {
    expect(percentOfCents(1050, 900)).toBe(95); // 9 % of 10.50 = 0.945 → 0.95
    expect(percentOfCents(1150, 700)).toBe(81); // 0.805 → 0.81
    expect(percentOfCents(1149, 700)).toBe(80); // 0.8043 → 0.80
    expect(percentOfCents(12345, 800)).toBe(988); // 9.876 → 9.88
    expect(percentOfCents(12345, 0)).toBe(0);
    expect(percentOfCents(3333, 1250)).toBe(417); // 12.5 % of 33.33 = 4.16625 → 4.17
  });
  it("rounds negative halves away from zero", () => {
    expect(percentOfCents(-1050, 900)).toBe(-95);
  });
  it("reads percentages with up to two decimals", () => {
    expect(percentToHundredths("12.5")).toBe(1250);
    expect(percentToHundredths(9)).toBe(900);
    expect(percentToHundredths("x")).toBeNull();
  });
  it("stays exact on large amounts", () => {
    expect(percentOfCents(99_999_999_999, 900)).toBe(9_000_000_000); // 8,999,999,999.91 cents → 9,000,000,000
    expect(percentOfCents(99_999_999_950, 900)).toBe(8_999_999_996); // 8,999,999,995.5 → up
  });
});

const disc = (over: Partial<DiscountRule>): DiscountRule => ({ id: "d", name: "D", unit: "amount", value: 1000, startDate: "2026-01-01", endDate: "2026-12-31", status: "active", ...over });

describe("discount eligibility (spec part 2 §5)", () => {
  it("needs an issue date inside the discount's dates, both ends included, and an active discount", () => {
    const d = disc({});
    expect(isDiscountEligible(d, null)).toBe(false);
    expect(isDiscountEligible(d, "2025-12-31")).toBe(false);
    expect(isDiscountEligible(d, "2026-01-01")).toBe(true);
    expect(isDiscountEligible(d, "2026-12-31")).toBe(true);
    expect(isDiscountEligible(d, "2027-01-01")).toBe(false);
    expect(isDiscountEligible(disc({ status: "deleted" }), "2026-06-01")).toBe(false);
    expect(isDiscountEligible(disc({ startDate: null, endDate: null }), "2030-06-01")).toBe(true);
  });
  it("offers the eligible ones in order", () => {
    const list = [disc({ id: "a" }), disc({ id: "b", endDate: "2026-02-01" }), disc({ id: "c" })];
    expect(eligibleDiscounts(list, "2026-03-01").map((d) => d.id)).toEqual(["a", "c"]);
  });
  it("applies each chosen discount once, % half up on the base, and drops ineligible or unknown ids", () => {
    const rules = [disc({ id: "pct", unit: "percent", value: 1250 }), disc({ id: "amt", value: 2000 }), disc({ id: "old", endDate: "2026-01-31" })];
    const applied = applyDiscounts(["pct", "amt", "pct", "old", "missing"], rules, "2026-03-01", 3333);
    expect(applied.map((a) => [a.id, a.amount])).toEqual([["pct", 417], ["amt", 2000]]);
  });
});

const lesson = (id: string, date: string, termId: string | null, lessonStatus = "active", status = "active"): CardLesson => ({ id, date, termId, lessonStatus, status });
const T1 = "t1", T2 = "t2";
const LESSONS: CardLesson[] = [
  lesson("l1", "2026-01-05", T1), lesson("l2", "2026-01-12", T1), lesson("l3", "2026-01-19", T1, "cancel"), lesson("l4", "2026-01-26", T1),
  lesson("l5", "2026-02-02", T1), lesson("l6", "2026-02-09", T1, "deleted"), lesson("l7", "2026-02-16", T1, "active", "deleted"),
  lesson("m1", "2026-04-06", T2), lesson("m2", "2026-04-13", T2), lesson("m3", "2026-04-20", T2),
];
const TERMS = [{ id: T1, name: "Term 1", startDate: "2026-01-02", endDate: "2026-03-15" }, { id: T2, name: "Term 2", startDate: "2026-03-23", endDate: "2026-05-31" }];
const card = (over: Partial<Parameters<typeof computeClassCard>[0]> = {}) => computeClassCard({
  classType: "regular", lessonStartDate: "2026-01-01", termIds: [T1], lessons: LESSONS, terms: TERMS, unitPrice: 5000, quantityAdditionalLesson: 0,
  boosterPrices: [], discountIds: [], discounts: [], additionalDiscount: 0, issueDate: "2026-01-02", ...over,
});

describe("class card totals (FINANCE.md §3)", () => {
  it("bills the chosen terms' lessons, leaving out cancelled and deleted ones", () => {
    const c = card();
    expect(c.lessonIds).toEqual(["l1", "l2", "l4", "l5"]);
    expect(c.classBase).toBe(20000);
    expect(c.classTotal).toBe(20000);
    expect(c.termLines).toEqual([{ id: T1, name: "Term 1", lessons: 4, lessonIds: ["l1", "l2", "l4", "l5"], pricing: 5000, total: 20000 }]);
    expect(c.period).toEqual({ startDate: "2026-01-05", endDate: "2026-02-02" });
  });
  it("pro-rates a mid-term start: only lessons on or after the lesson start date", () => {
    const c = card({ lessonStartDate: "2026-01-26", termIds: [T1, T2] });
    expect(c.lessonIds).toEqual(["l4", "l5", "m1", "m2", "m3"]); // the start day itself counts
    expect(c.classBase).toBe(25000);
    expect(c.termLines.map((t) => [t.id, t.lessons])).toEqual([[T1, 2], [T2, 3]]);
  });
  it("bills additional lessons and boosters at their prices", () => {
    const c = card({ quantityAdditionalLesson: 2, boosterPrices: [18000, 15000] });
    expect([c.classBase, c.additional, c.boosters, c.classTotal]).toEqual([20000, 10000, 33000, 63000]);
  });
  it("takes % discounts on classBase + additional (not boosters), amounts as they are, plus the additional discount", () => {
    const rules = [disc({ id: "p", unit: "percent", value: 1000 }), disc({ id: "a", value: 2500 })];
    const c = card({ quantityAdditionalLesson: 1, boosterPrices: [15000], discountIds: ["p", "a"], discounts: rules, additionalDiscount: 333 });
    // base 20000 + additional 5000 = 25000 → 10 % = 2500; amount 2500; additional 333
    expect(c.discounts.map((d) => d.amount)).toEqual([2500, 2500]);
    expect(c.totalDiscount).toBe(5333);
    expect(c.classTotal).toBe(20000 + 5000 + 15000 - 5333);
  });
  it("ignores discounts not eligible on the issue date", () => {
    const c = card({ discountIds: ["a"], discounts: [disc({ id: "a", startDate: "2026-02-01" })], issueDate: "2026-01-31" });
    expect(c.totalDiscount).toBe(0);
  });
  it("never discounts more than the class is worth", () => {
    const c = card({ discountIds: ["a"], discounts: [disc({ id: "a", value: 50000 })], additionalDiscount: 100 });
    expect(c.totalDiscount).toBe(20000);
    expect(c.classTotal).toBe(0);
  });
  it("special and others classes bill all lessons from the start date, whatever the terms", () => {
    const c = card({ classType: "special", termIds: [], lessonStartDate: "2026-02-02", unitPrice: 18000 });
    expect(c.lessonIds).toEqual(["l5", "m1", "m2", "m3"]);
    expect(c.classBase).toBe(72000);
    expect(c.termLines).toEqual([]);
  });
  it("bills nothing before a term is chosen", () => {
    expect(card({ termIds: [] }).classTotal).toBe(0);
  });
  it("refuses a negative or fractional additional lesson count and a negative additional discount", () => {
    expect(() => card({ quantityAdditionalLesson: -1 })).toThrow(RangeError);
    expect(() => card({ quantityAdditionalLesson: 1.5 })).toThrow(RangeError);
    expect(() => card({ additionalDiscount: -1 })).toThrow(RangeError);
  });
  it("terms before the term of the lesson start date cannot be chosen", () => {
    expect(isTermSelectable(TERMS[0]!, "2026-03-15")).toBe(true);
    expect(isTermSelectable(TERMS[0]!, "2026-03-16")).toBe(false);
    expect(isTermSelectable(TERMS[1]!, "2026-03-16")).toBe(true);
    expect(isTermSelectable(TERMS[0]!, null)).toBe(true);
    expect(billedLessons({ classType: "regular", lessonStartDate: null, termIds: [T2], lessons: LESSONS }).length).toBe(3);
  });
  it("a student withdrawn from the class is billed no lesson after the last lesson date (FINANCE.md §4)", () => {
    const withdrawn = card({ termIds: [T1, T2], lessonEndDate: "2026-04-13" });
    expect(withdrawn.lessonIds).toEqual(["l1", "l2", "l4", "l5", "m1", "m2"]);
    expect(withdrawn.classTotal).toBe(6 * 5000);
    expect(withdrawn.termLines.map((t) => t.lessons)).toEqual([4, 2]);
    expect(card({ lessonEndDate: "2026-01-04" }).lessons).toBe(0);
  });
});

describe("registration fee and the waiver period", () => {
  const period = { startDate: "2026-11-15", endDate: "2026-12-31" };
  it("is waived on the waiver period's first and last day and charged the day before and after", () => {
    expect(isInWaiverPeriod("2026-11-14", period)).toBe(false);
    expect(isInWaiverPeriod("2026-11-15", period)).toBe(true);
    expect(isInWaiverPeriod("2026-12-31", period)).toBe(true);
    expect(isInWaiverPeriod("2027-01-01", period)).toBe(false);
    expect(registrationFeeCharged({ apply: true, amount: 8000, issueDate: "2026-11-14", waiverPeriod: period })).toBe(8000);
    expect(registrationFeeCharged({ apply: true, amount: 8000, issueDate: "2026-11-15", waiverPeriod: period })).toBe(0);
  });
  it("forces the switch off inside the period and leaves it off when not asked", () => {
    expect(effectiveRegistrationFeeApplied(true, "2026-12-01", period)).toBe(false);
    expect(effectiveRegistrationFeeApplied(false, "2026-06-01", period)).toBe(false);
    expect(effectiveRegistrationFeeApplied(true, "2026-06-01", null)).toBe(true);
    expect(isInWaiverPeriod(null, period)).toBe(false);
  });
});

describe("PA summary (paymentSummaryStatic)", () => {
  const base = { classTotals: [25000, 12345], registrationFee: 8000, otherPayments: [], deductions: [], deposits: [], deductedDeposits: [], gstPercent: 0 as const };
  it("adds classes, registration, material and other payments, less deductions; GST on that; deposits outside GST", () => {
    const s = computePaymentSummary({
      ...base,
      otherPayments: [{ name: "Material fee", amount: 3000 }, { name: "Exam paper", amount: 1500 }],
      deductions: [{ name: "Goodwill", amount: 1000 }],
      deposits: [{ name: "Deposit", amount: 20000 }],
      deductedDeposits: [{ name: "DEP-BM-2026-00001", amount: 5000 }],
      gstPercent: 9,
    });
    // before GST: 37345 + 8000 + 3000 + 1500 − 1000 = 48845; GST 9 % = 4396.05 → 4396; after 53241
    expect(s).toEqual({
      classFee: 37345, registrationFee: 8000, materialFee: 3000, otherPayment: 1500, deduction: 1000, totalBeforeGst: 48845, gst: 4396,
      totalAfterGst: 53241, deposit: 20000, deductedDeposit: 5000, totalPayable: 68241, gstPercent: 9,
    });
  });
  it("rounds GST half up at 0, 7, 8 and 9 %", () => {
    const gst = (before: number, g: 0 | 7 | 8 | 9) => computePaymentSummary({ ...base, classTotals: [before], registrationFee: 0, gstPercent: g }).gst;
    expect(gst(1050, 0)).toBe(0);
    expect(gst(1150, 7)).toBe(81); // 0.805
    expect(gst(1050, 8)).toBe(84); // 0.84
    expect(gst(1850, 8)).toBe(148); // 1.48
    expect(gst(1050, 9)).toBe(95); // 0.945
    expect(gst(1049, 9)).toBe(94); // 0.9441
  });
  it("refuses a GST rate outside 0/7/8/9 and negative rows", () => {
    expect(() => computePaymentSummary({ ...base, gstPercent: 5 as never })).toThrow(RangeError);
    expect(() => computePaymentSummary({ ...base, deductions: [{ name: "x", amount: -1 }] })).toThrow(RangeError);
  });
  it("marks a negative total payable as not valid", () => {
    const s = computePaymentSummary({ ...base, classTotals: [1000], registrationFee: 0, deductedDeposits: [{ name: "dep", amount: 5000 }] });
    expect(s.totalPayable).toBe(-4000);
    expect(isPayableValid(s)).toBe(false);
    expect(isPayableValid({ totalPayable: 0 })).toBe(true);
  });
  it("counts rows named material as the material fee", () => {
    expect(isMaterialRow({ name: "Materials" })).toBe(true);
    expect(isMaterialRow({ name: "Material fee" })).toBe(true);
    expect(isMaterialRow({ name: "Immaterial" })).toBe(false);
  });
});

describe("a whole PA priced from its entries", () => {
  const cls: PricedClass = { id: "c1", name: "Sec 3 Maths", classType: "regular", classStatus: "open", unitPrice: 5000, lessons: LESSONS, terms: TERMS };
  const special: PricedClass = { id: "c2", name: "Exam Booster", classType: "special", classStatus: "open", unitPrice: 18000, lessons: [lesson("s1", "2026-04-01", null), lesson("s2", "2026-04-02", null)], terms: [] };
  const entry = (over = {}) => ({ id: "c1", lessonStartDate: "2026-01-26", termIds: [T1, T2], discountIds: ["p"], quantityAdditionalLesson: 0, additionalDiscount: 0,
    booterClassIds: ["c2", "c2"], otherPayments: [], deductions: [{ name: "Sibling", amount: 1000 }], deposits: [], deductedDeposit: [{ name: "Old deposit", amount: 2000 }], isDeductedDeposit: true, ...over });
  it("prices each card and sums the summary, registration fee forced off inside the waiver period", () => {
    const r = computePaymentAdvice({
      issueDate: "2026-11-20", isRegistrationFee: true, registrationFee: { amount: 8000, waiverPeriod: { startDate: "2026-11-15", endDate: "2026-12-31" } }, gstPercent: 8,
      entries: [entry()], classes: new Map([["c1", cls], ["c2", special]]), discounts: [disc({ id: "p", unit: "percent", value: 1000 })], boosterPrices: new Map([["c2", 15000]]),
    });
    const t = r.cards[0]!.totals;
    expect([t.classBase, t.boosters, t.totalDiscount, t.classTotal]).toEqual([25000, 15000, 2500, 37500]); // booster counted once
    expect(r.registrationFeeApplied).toBe(false);
    // 37500 − 1000 = 36500; GST 8 % = 2920; deducted deposit 2000
    expect([r.summary.registrationFee, r.summary.totalBeforeGst, r.summary.gst, r.summary.totalPayable]).toEqual([0, 36500, 2920, 37420]);
  });
  it("applies a deducted deposit only when the card says so", () => {
    const r = computePaymentAdvice({
      issueDate: "2026-06-01", isRegistrationFee: true, registrationFee: { amount: 8000, waiverPeriod: null }, gstPercent: 0,
      entries: [entry({ isDeductedDeposit: false, discountIds: [], booterClassIds: [], deductions: [] })], classes: new Map([["c1", cls]]), discounts: [], boosterPrices: new Map(),
    });
    expect([r.summary.classFee, r.summary.registrationFee, r.summary.deductedDeposit, r.summary.totalPayable]).toEqual([25000, 8000, 0, 33000]);
  });
  it("refuses an entry whose class is unknown", () => {
    expect(() => computePaymentAdvice({ issueDate: null, isRegistrationFee: false, registrationFee: { amount: 0, waiverPeriod: null }, gstPercent: 0,
      entries: [entry({ id: "nope" })], classes: new Map(), discounts: [], boosterPrices: new Map() })).toThrow(UnknownClassError);
  });
});
