/**
 * FINANCE.md §7: each finance operation's posting rule gives balanced lines that move the accounts the
 * way the table of §7 says (a debit raises receivable and cash; a credit raises every other account).
 */
import { describe, expect, it } from "vitest";
import {
  balanceOf,
  creditNoteIssued,
  creditNoteVoided,
  isBalanced,
  paEdited,
  paIssued,
  paReversed,
  paTarget,
  paVoidedPaid,
  paymentReceived,
  receiptVoided,
  refundRefunded,
  revenueRecognisedByPart,
  standingAfter,
  type Account,
  type LedgerLine,
  type PaFigures,
} from "../../src/domain/finance/ledger.ts";

/** Each account's movement as a signed rise (+ raises it, − lowers it), zero movements left out. */
function moves(lines: LedgerLine[]): Partial<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const l of lines) {
    const k = l.account === "cash" ? `cash:${l.method}` : l.account;
    out[k] = (out[k] ?? 0) + (l.account === "cash" || l.account === "receivable" ? l.debit - l.credit : l.credit - l.debit);
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0));
}

function expectBalanced(lines: LedgerLine[]) {
  expect(isBalanced(lines)).toBe(true);
  for (const l of lines) expect((l.debit === 0) !== (l.credit === 0), JSON.stringify(l)).toBe(true);
}

// S$490.50 of lessons + GST 9% (S$44.15), a S$100 deposit collected, a S$50 deposit applied
const PA: PaFigures = { totalBeforeGst: 49050, gst: 4415, deposit: 10000, deductedDeposit: 5000, totalPayable: 49050 + 4415 + 10000 - 5000 };
const T = PA.totalPayable;

describe("posting rules (FINANCE.md §7)", () => {
  it("revenue recognised by class and month: each part's difference on lines naming it, a part recognised before the split taken back", () => {
    const lines = revenueRecognisedByPart([
      { classId: "c1", revenueMonth: "2026-10-01", figure: "recognised", target: 12000, posted: 0 },
      { classId: null, revenueMonth: "2026-11-01", figure: "recognised", target: 3000, posted: 1000 },
      { classId: null, revenueMonth: null, figure: "recognised", target: 0, posted: 5000 },
    ]);
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ revenue_recognised: 12000 + 2000 - 5000, revenue_deferred: -(12000 + 2000 - 5000) });
    expect(lines.filter((l) => l.account === "revenue_recognised").map((l) => [l.classId, l.revenueMonth, l.credit - l.debit])).toEqual([
      ["c1", "2026-10-01", 12000],
      [null, "2026-11-01", 2000],
      [null, null, -5000],
    ]);
  });

  it("billed and credited by class and month: labels within revenue_deferred, each part's difference against an untagged line, the account unmoved", () => {
    const lines = revenueRecognisedByPart([
      { classId: "c1", revenueMonth: "2026-10-01", figure: "billed", target: 12000, posted: 0 },
      { classId: null, revenueMonth: "2026-11-01", figure: "billed", target: 3000, posted: 0 },
      { classId: null, revenueMonth: "2026-10-01", figure: "billed", target: 0, posted: 3000 }, // the fees' month moved to the paid day's
      { classId: "c1", revenueMonth: "2026-10-01", figure: "credited", target: 2000, posted: 0 },
    ]);
    expectBalanced(lines);
    expect(moves(lines)).toEqual({});
    expect(lines.filter((l) => l.revenueFigure).map((l) => [l.classId, l.revenueMonth, l.revenueFigure, l.credit - l.debit])).toEqual([
      ["c1", "2026-10-01", "billed", 12000],
      [null, "2026-11-01", "billed", 3000],
      [null, "2026-10-01", "billed", -3000],
      ["c1", "2026-10-01", "credited", -2000],
    ]);
    expect(lines.filter((l) => !l.revenueFigure).map((l) => [l.account, l.classId ?? null, l.debit - l.credit])).toEqual([["revenue_deferred", null, 12000 - 2000]]);
  });

  it("PA issued: receivable rises by totalPayable, revenue deferred before GST, GST payable, deposit billed, an applied deposit leaves deposits_held", () => {
    const lines = paIssued(PA);
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ receivable: T, revenue_deferred: 49050, gst_payable: 4415, deposits_billed: 10000, deposits_held: -5000 });
  });

  it("PA edited while unpaid: only the difference is posted", () => {
    const after = { ...PA, totalBeforeGst: 29975, gst: 2698, totalPayable: 29975 + 2698 + 10000 - 5000 };
    const lines = paEdited(PA, after);
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ receivable: after.totalPayable - T, revenue_deferred: 29975 - 49050, gst_payable: 2698 - 4415 });
    expect(paEdited(PA, PA)).toEqual([]);
  });

  it("withdrawal from one class of an unpaid PA: the PA is edited, so the withdrawn class's lessons leave receivable, deferred revenue and GST", () => {
    const otherClassOnly = { ...PA, totalBeforeGst: 24000, gst: 2160, totalPayable: 24000 + 2160 + 10000 - 5000 };
    const lines = paEdited(PA, otherClassOnly);
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ receivable: otherClassOnly.totalPayable - T, revenue_deferred: 24000 - 49050, gst_payable: 2160 - 4415 });
  });

  it("PA voided unpaid (or withdrawn): the issue is reversed", () => {
    const lines = paReversed(PA);
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ receivable: -T, revenue_deferred: -49050, gst_payable: -4415, deposits_billed: -10000, deposits_held: 5000 });
  });

  const issued = standingAfter({ receivable: 0, depositsBilled: 0 }, paIssued(PA));

  it.each(["cash", "nets", "cheque", "credit_card", "interbank_transfer", "qr_code", "axs"])("payment by %s in part: cash of that method in, receivable down, the deposit still billed", (method) => {
    const lines = paymentReceived({ amount: 30000, method }, issued, paTarget({ live: true, totalPayable: T, received: 30000, deposit: 10000 }));
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ [`cash:${method}`]: 30000, receivable: -30000 });
  });

  it("payment in full: the deposit billed becomes held", () => {
    const lines = paymentReceived({ amount: T, method: "cash" }, issued, paTarget({ live: true, totalPayable: T, received: T, deposit: 10000 }));
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ "cash:cash": T, receivable: -T, deposits_billed: -10000, deposits_held: 10000 });
  });

  it("overpayment: what exceeds the balance due becomes customer credit", () => {
    const lines = paymentReceived({ amount: T + 1001, method: "nets" }, issued, paTarget({ live: true, totalPayable: T, received: T + 1001, deposit: 10000 }));
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ "cash:nets": T + 1001, receivable: -T, customer_credit: 1001, deposits_billed: -10000, deposits_held: 10000 });
  });

  it("payment by credit note: customer credit is spent, no cash moves", () => {
    const lines = paymentReceived({ amount: 20000, method: "credit_note" }, issued, paTarget({ live: true, totalPayable: T, received: 20000, deposit: 10000 }));
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ customer_credit: -20000, receivable: 20000 * -1 });
  });

  it("receipt voided: the payment is taken back and the PA settles again (the overpayment's credit returns to receivable)", () => {
    // paid 30,000 then 30,000 (overpaid by 60,000 − T), then the first receipt is voided
    const first = paymentReceived({ amount: 30000, method: "cash" }, issued, paTarget({ live: true, totalPayable: T, received: 30000, deposit: 10000 }));
    const afterFirst = standingAfter(issued, first);
    const second = paymentReceived({ amount: 30000, method: "qr_code" }, afterFirst, paTarget({ live: true, totalPayable: T, received: 60000, deposit: 10000 }));
    const afterSecond = standingAfter(afterFirst, second);
    const voided = receiptVoided({ amount: 30000, method: "cash" }, afterSecond, paTarget({ live: true, totalPayable: T, received: 30000, deposit: 10000 }));
    expectBalanced(voided);
    expect(moves(voided)).toEqual({ "cash:cash": -30000, receivable: T - 30000, customer_credit: -(60000 - T), deposits_billed: 10000, deposits_held: -10000 });
    const all = [...paIssued(PA), ...first, ...second, ...voided];
    expect(balanceOf(all, "receivable")).toBe(T - 30000);
    expect(balanceOf(all, "customer_credit")).toBe(0);
  });

  it("paid PA voided: the sale is reversed, what was received becomes customer credit, the cash stays", () => {
    const paid = paymentReceived({ amount: T + 500, method: "cash" }, issued, paTarget({ live: true, totalPayable: T, received: T + 500, deposit: 10000 }));
    const lines = paVoidedPaid(PA, standingAfter(issued, paid));
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ revenue_deferred: -49050, gst_payable: -4415, customer_credit: T, deposits_held: 5000 - 10000 });
    const all = [...paIssued(PA), ...paid, ...lines];
    expect(balanceOf(all, "receivable")).toBe(0);
    expect(balanceOf(all, "customer_credit")).toBe(T + 500);
    expect(balanceOf(all, "cash", "cash")).toBe(T + 500);
    expect(balanceOf(all, "deposits_billed")).toBe(0);
  });

  it("paid PA voided after a suspension credit note on it: the credited lessons leave the sale once, the student's credit is what was received", () => {
    const paid = paymentReceived({ amount: T, method: "cash" }, issued, paTarget({ live: true, totalPayable: T, received: T, deposit: 10000 }));
    const cn = { type: "suspension" as const, subTotal: 5450, gst: 491, total: 5941 };
    const lines = paVoidedPaid(PA, standingAfter(issued, paid), { net: cn.subTotal, gst: cn.gst });
    expectBalanced(lines);
    const all = [...paIssued(PA), ...paid, ...creditNoteIssued(cn), ...lines];
    expect(balanceOf(all, "revenue_deferred")).toBe(0);
    expect(balanceOf(all, "gst_payable")).toBe(0);
    expect(balanceOf(all, "customer_credit")).toBe(T);
    expect(balanceOf(all, "receivable")).toBe(0);
  });

  it("suspension credit note issued: deferred revenue and GST down, customer credit up; voided: reversed", () => {
    const cn = { type: "suspension" as const, subTotal: 23980, gst: 2158, total: 26138 };
    expectBalanced(creditNoteIssued(cn));
    expect(moves(creditNoteIssued(cn))).toEqual({ revenue_deferred: -23980, gst_payable: -2158, customer_credit: 26138 });
    expect(moves(creditNoteVoided(cn))).toEqual({ revenue_deferred: 23980, gst_payable: 2158, customer_credit: -26138 });
  });

  it("overpaid credit note issued: moves nothing (the overpayment is already customer credit)", () => {
    expect(creditNoteIssued({ type: "overpaid", subTotal: 918, gst: 83, total: 1001 })).toEqual([]);
  });

  it("refund refunded: lessons' deferred revenue and GST, included credit notes and deposits, paid out in cash by its method", () => {
    const lines = refundRefunded({ classNet: 27250, classFees: 0, classGst: 2453, creditNotes: 26138, deposits: 10000, method: "pay now" });
    expectBalanced(lines);
    const total = 27250 + 2453 + 26138 + 10000;
    expect(moves(lines)).toEqual({ revenue_deferred: -27250, gst_payable: -2453, customer_credit: -26138, deposits_held: -10000, "cash:pay now": -total });
  });

  it("refund whose owed lessons exceed those left: the class part raises deferred revenue back, the total paid out stays the sum", () => {
    const lines = refundRefunded({ classNet: -5000, classFees: 0, classGst: -450, creditNotes: 10000, deposits: 0, method: "cheque" });
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ revenue_deferred: 5000, gst_payable: 450, customer_credit: -10000, "cash:cheque": -4550 });
  });

  it("refund with other payments and a deduction: their difference corrects recognised revenue, deferred revenue loses only the lessons", () => {
    const lines = refundRefunded({ classNet: 27250, classFees: 1500, classGst: 2453, creditNotes: 0, deposits: 0, method: "cheque" });
    expectBalanced(lines);
    expect(moves(lines)).toEqual({ revenue_deferred: -27250, revenue_recognised: -1500, gst_payable: -2453, "cash:cheque": -(27250 + 1500 + 2453) });
  });

  it("every line names cash's method and no other account's", () => {
    const all = [...paIssued(PA), ...refundRefunded({ classNet: 1, classFees: 0, classGst: 0, creditNotes: 0, deposits: 0, method: "cheque" })];
    for (const l of all) expect(l.method === null, `${l.account}`).toBe(l.account !== ("cash" as Account));
  });
});
