/** Issue 39's pure rules: the statement's movement, the reminder schedule and its steps, the late-fee note, the export's files. */
import { describe, expect, it } from "vitest";
import { statementRows } from "../../src/domain/finance/statement.ts";
import { lateFeeNote, parseReminderSchedule, reminderStep } from "../../src/domain/finance/reminders.ts";
import { accountCodesFrom, journalLinesCsv, xeroJournals, xeroManualJournalCsv, type AccountCodes, type ExportLine } from "../../src/domain/finance/accountingExport.ts";
import { paIssued, paymentReceived } from "../../src/domain/finance/ledger.ts";

describe("statement rows", () => {
  it("a PA issued is a charge, its payment a credit, an overpayment leaves the family in credit; deposits held beside", () => {
    const issued = paIssued({ totalBeforeGst: 10000, gst: 900, deposit: 5000, deductedDeposit: 0, totalPayable: 15900 });
    const paid = paymentReceived({ amount: 16000, method: "cash" }, { receivable: 15900, depositsBilled: 5000 }, { receivable: 0, depositsBilled: 0 });
    const rows = statementRows([
      { day: "2026-01-05", operation: "pa_issued", documentNumber: "PA-1", studentName: "A", lines: issued },
      { day: "2026-01-06", operation: "payment_received", documentNumber: "RC-1", studentName: "A", lines: paid },
    ]);
    expect(rows.map((r) => [r.charge, r.credit, r.balance, r.depositsHeld])).toEqual([[15900, 0, 15900, 0], [0, 16000, -100, 5000]]);
  });
});

describe("reminder schedule", () => {
  it("reads days after the due date; refuses anything else", () => {
    expect(parseReminderSchedule(" 10, 3,3 ")).toEqual([3, 10]);
    expect(parseReminderSchedule("")).toEqual([]);
    for (const bad of ["0", "3;10", "-3", "3.5", "366", "x"]) expect(parseReminderSchedule(bad), bad).toBeNull();
  });
  it("sends the latest step fallen due after those handled; passes the earlier ones; never goes back", () => {
    expect(reminderStep("2026-01-10", "2026-01-12", [3, 10], new Set())).toBeNull();
    expect(reminderStep("2026-01-10", "2026-01-13", [3, 10], new Set())).toEqual({ send: 3, passed: [] });
    expect(reminderStep("2026-01-10", "2026-01-14", [3, 10], new Set([3]))).toBeNull();
    expect(reminderStep("2026-01-10", "2026-01-25", [3, 10], new Set())).toEqual({ send: 10, passed: [3] });
    expect(reminderStep("2026-01-10", "2026-01-25", [3, 5, 10], new Set([10]))).toBeNull();
  });
  it("the late-fee note is the notes' sentences about a late fee", () => {
    expect(lateFeeNote("Late payment fee of $10 per week applies. PayNow is preferred.")).toBe("Late payment fee of $10 per week applies.");
    expect(lateFeeNote("PayNow is preferred.")).toBeNull();
  });
});

describe("accounting export", () => {
  const codes = accountCodesFrom({ "cash:paynow": "091", taxRate: "No GST" }) as AccountCodes;
  const line = (entryId: string, account: ExportLine["account"], method: string | null, debit: number, credit: number, day = "2026-01-05"): ExportLine =>
    ({ day, companyName: "BME, Pte", entryId, operation: "x", documentType: "payment_advice", documentNumber: "PA-1", studentName: "=A", account, method, debit, credit });
  const lines = [
    line("e1", "receivable", null, 10900, 0), line("e1", "revenue_deferred", null, 0, 10000), line("e1", "gst_payable", null, 0, 900),
    line("e2", "cash", "paynow", 5000, 0), line("e2", "receivable", null, 0, 5000),
    line("e3", "cash", "cash", 100, 0, "2026-01-06"), line("e3", "receivable", null, 0, 100, "2026-01-06"),
  ];
  it("one journal a day, netted per account code, each summing to zero", () => {
    const j = xeroJournals(lines, codes);
    expect(j.map((l) => [l.day, l.accountCode, l.amount])).toEqual([
      ["2026-01-05", "091", 5000], ["2026-01-05", "610", 5900], ["2026-01-05", "820", -900], ["2026-01-05", "830", -10000],
      ["2026-01-06", "090", 100], ["2026-01-06", "610", -100],
    ]);
    expect(xeroManualJournalCsv(xeroJournals(lines, codes), codes.taxRate).split("\r\n")[1]).toBe('"BME, Pte ledger 05/01/2026",05/01/2026,cash (paynow),091,No GST,50.00,,,,');
  });
  it("text that would run as a formula is quoted; a bad account code is refused", () => {
    expect(journalLinesCsv(lines.slice(0, 1), codes).split("\r\n")[1]).toContain(",'=A,receivable,,610,109.00,0.00");
    expect(accountCodesFrom({ receivable: "6 10" })).toEqual({ error: "The account code for receivable must be 1 to 10 letters or digits." });
  });
});
