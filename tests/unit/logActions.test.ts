/** The log history's action texts, user and time (spec part 2 §2 "Log history pages"). */
import { describe, expect, it } from "vitest";
import { logActionText, logDate, logRolesText, logTime } from "../../src/domain/logActions.ts";
import { paLogAction } from "../../src/pages/finance/paLogSource.ts";
import type { LogRow } from "../../src/pages/finance/LogHistory.tsx";

const row = (type: string, before: unknown, after: unknown): LogRow => ({ id: "l1", type, valueBefore: before as never, valueAfter: after as never, createdAt: "2026-11-23T13:05:00Z", creator: null });

describe("log action texts", () => {
  it("are the spec's four texts", () => {
    expect(logActionText({ type: "update", document: "PA", name: "PA-X-2026-00001" })).toBe("Update Content");
    expect(logActionText({ type: "create", document: "CN", name: "CN-X-2026-00002" })).toBe("Create New CN CN-X-2026-00002");
    expect(logActionText({ type: "change_status", document: "PA", name: "x", statusBefore: "Draft", statusAfter: "UnPaid" })).toBe("Change Status from Draft to UnPaid");
    expect(logActionText({ type: "duplicate", document: "CN", name: "CN-2", sourceName: "CN-1" })).toBe("Duplicate from CN CN-1");
  });

  it("a PA's rows read its statuses by their labels and its number (Draft before it has one)", () => {
    expect(paLogAction(row("change_status", { paymentAdvice: { paymentStatus: "draft" } }, { paymentAdvice: { paymentStatus: "unpaid" } }), "PA-A-2026-00007")).toBe("Change Status from Draft to UnPaid");
    expect(paLogAction(row("change_status", { paymentAdvice: { paymentStatus: "unpaid" } }, { paymentAdvice: { paymentStatus: "voided" } }), "PA-A-2026-00007")).toBe("Change Status from UnPaid to Voided");
    expect(paLogAction(row("create", null, { paymentAdvice: { paymentStatus: "draft" } }), "PA-A-2026-00007")).toBe("Create New PA PA-A-2026-00007");
    expect(paLogAction(row("create", null, { paymentAdvice: { paymentStatus: "draft" } }), null)).toBe("Create New PA Draft");
    expect(paLogAction(row("update", {}, {}), null)).toBe("Update Content");
  });

  it("shows role names or --, the time as hh:mm A and the day as DD/MM/YYYY in Singapore", () => {
    expect(logRolesText(["Front Desk", "Finance Staff"])).toBe("Front Desk, Finance Staff");
    expect(logRolesText([])).toBe("--");
    expect(logTime("2026-11-23T13:05:00Z")).toBe("09:05 PM");
    expect(logDate("2026-11-23T16:30:00Z")).toBe("24/11/2026");
  });
});
