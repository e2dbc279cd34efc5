/** Issue 35 item 2, the pure part: statement dates and amounts as banks write them, PA numbers in free text, matching. */
import { describe, expect, it } from "vitest";
import { matchBankLine, paNumbersIn, parseStatementAmount, parseStatementDate, type BankPaCandidate } from "../../src/domain/finance/bankStatement.ts";
import { parseCsv } from "../../server/finance/bankStatementFile.ts";

describe("bank statement cells", () => {
  it("dates: day first as Singapore banks write them, and ISO", () => {
    expect(parseStatementDate("27/11/2026")).toBe("2026-11-27");
    expect(parseStatementDate("7-1-2026")).toBe("2026-01-07");
    expect(parseStatementDate("27 Nov 2026")).toBe("2026-11-27");
    expect(parseStatementDate("27-NOV-26")).toBe("2026-11-27");
    expect(parseStatementDate("2026-11-27")).toBe("2026-11-27");
    expect(parseStatementDate("2026-11-27T00:00:00")).toBe("2026-11-27");
    expect(parseStatementDate("31/02/2026")).toBeNull();
    expect(parseStatementDate("yesterday")).toBeNull();
  });

  it("credit amounts: S$, commas and CR allowed; blanks and debits are no credit; a third decimal is refused, never cut", () => {
    expect(parseStatementAmount("1,234.50")).toBe(123450);
    expect(parseStatementAmount("S$ 80")).toBe(8000);
    expect(parseStatementAmount("SGD 80.5")).toBe(8050);
    expect(parseStatementAmount("654.00 CR")).toBe(65400);
    expect(parseStatementAmount("")).toBeNull();
    expect(parseStatementAmount("-20.00")).toBeNull();
    expect(parseStatementAmount("(20.00)")).toBeNull();
    expect(parseStatementAmount("0.00")).toBeNull();
    expect(parseStatementAmount("12.345")).toBe("bad");
    expect(parseStatementAmount("twelve")).toBe("bad");
    expect(parseStatementAmount("1,23.00")).toBe("bad");
  });

  it("CSV: quoted separators, doubled quotes, line breaks in quotes, CRLF, a byte-order mark, semicolons", () => {
    expect(parseCsv('\uFEFFDate,Desc,Amount\r\n01/11/2026,"PAYNOW, from ""Tan""",10.00\r\n02/11/2026,"two\nlines",5\r\n')).toEqual([
      ["Date", "Desc", "Amount"],
      ["01/11/2026", 'PAYNOW, from "Tan"', "10.00"],
      ["02/11/2026", "two\nlines", "5"],
    ]);
    expect(parseCsv("Date;Amount\n01/11/2026;1,50")).toEqual([["Date", "Amount"], ["01/11/2026", "1,50"]]);
  });
});

describe("PA numbers in a bank line", () => {
  it("with dashes, without, with spaces; several; none in other words", () => {
    expect(paNumbersIn("PAYNOW OTHR PA-BME-2026-00012 TAN")).toEqual(["PA-BME-2026-00012"]);
    expect(paNumbersIn("pabme202600012")).toEqual(["PA-BME-2026-00012"]);
    expect(paNumbersIn("PA BME 2026 00012 / PA-SLC-2026-00003")).toEqual(["PA-BME-2026-00012", "PA-SLC-2026-00003"]);
    expect(paNumbersIn("PAYMENT FOR SCHOOL FEES 2026")).toEqual([]);
    expect(paNumbersIn("SPAIN-BME-2026-00012")).toEqual([]);
  });
});

describe("matching a credit line", () => {
  const pa = (over: Partial<BankPaCandidate> = {}): BankPaCandidate => ({ id: "a", name: "PA-BME-2026-00001", companyId: "bme", paymentStatus: "unpaid", balanceDue: 654_00, ...over });
  const line = (amount: number) => ({ amount, companyId: "bme" });

  it("exact, partial and over by the PA's balance due", () => {
    expect(matchBankLine(line(654_00), [pa()]).outcome).toBe("exact");
    expect(matchBankLine(line(300_00), [pa()]).outcome).toBe("partial");
    expect(matchBankLine(line(700_00), [pa()]).outcome).toBe("over");
  });

  it("a PA of another company is never matched; an unpaid PA of ours named beside it is", () => {
    expect(matchBankLine(line(654_00), [pa({ companyId: "slc", name: "PA-SLC-2026-00001" })])).toMatchObject({ outcome: "wrong_company", pa: null, reason: "PA-SLC-2026-00001 belongs to another company." });
    expect(matchBankLine(line(654_00), [pa({ companyId: "slc" }), pa({ id: "b" })])).toMatchObject({ outcome: "exact", pa: { id: "b" } });
  });

  it("unknown: no PA named, or the PA named is not unpaid", () => {
    expect(matchBankLine(line(654_00), [])).toMatchObject({ outcome: "unknown", reason: "No payment advice number found." });
    expect(matchBankLine(line(654_00), [pa({ paymentStatus: "paid" })])).toMatchObject({ outcome: "unknown", reason: "PA-BME-2026-00001 is not unpaid." });
  });
});
