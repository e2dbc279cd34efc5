/** The PA list's status filter: Overdue is derived from the due date (spec part 2 §4, FINANCE.md §4). */
import { describe, expect, it } from "vitest";
import { lastOverdueDueDay, paListFilterValues, paListFilters, statusFilter } from "../../src/pages/finance/paymentAdviceList.ts";
import { studentOptionParts, studentWhere } from "../../src/pages/students/studentSearch.ts";
import { programmeAlreadyPicked } from "../../src/pages/finance/builder/classPicker.ts";

describe("PA list filters", () => {
  it("an unpaid PA is overdue from 23:59:59 Singapore time of its due day", () => {
    // 23:59:58 on 23 Nov in Singapore = 15:59:58Z: PAs due on the 23rd are not overdue yet.
    expect(lastOverdueDueDay(new Date("2026-11-23T15:59:58Z"))).toBe("2026-11-22");
    expect(lastOverdueDueDay(new Date("2026-11-23T15:59:59Z"))).toBe("2026-11-23");
  });

  it("Overdue asks for unpaid PAs due on or before that day; UnPaid for the others", () => {
    const now = new Date("2026-11-23T04:00:00Z");
    expect(JSON.stringify(statusFilter("overdue", now))).toContain('"field":"dueDate","operator":"lte","value":"2026-11-22"');
    expect(JSON.stringify(statusFilter("unpaid", now))).toContain('"field":"dueDate","operator":"gt","value":"2026-11-22"');
    expect(JSON.stringify(statusFilter("paid", now))).toBe(JSON.stringify([{ key: "status", operator: "and", value: [{ field: "paymentStatus", operator: "eq", value: "paid" }] }]));
  });

  it("reads back from the URL's filters what it wrote", () => {
    const v = { companyId: "c1", branchId: "b1", studentId: "s1", status: "overdue", issueDate: ["2026-01-01", "2026-01-31"] as [string, string], dueDate: null };
    const back = paListFilterValues(paListFilters(v));
    expect(back).toEqual({ ...v, dueDate: null });
  });
});

describe("student search", () => {
  it("students only, never deleted or draft users, username or full name matched anywhere without case, wildcards typed taken literally", () => {
    const where = JSON.stringify(studentWhere(" Tan_% "));
    expect(where).toContain('"role":{"_eq":"student"}');
    expect(where).toContain('"status":{"_nin":["deleted","draft"]}');
    expect(where).toContain('"username":{"_ilike":"%Tan\\\\_\\\\%%"}');
    expect(where).toContain('"fullName":{"_ilike":"%Tan\\\\_\\\\%%"}');
  });

  it("options show '__' where a value is missing", () => {
    const parts = studentOptionParts({ id: "1", firstName: "Amy", lastName: null, fullName: "Amy", username: "amy1", email: null, phone: null, school: null, curriculum: { abbreviation: "IP" }, level: { abbreviation: null } });
    expect(parts).toEqual(["Amy", "amy1", "__", "IP", "__"]);
  });
});

describe("class picker", () => {
  it("a programme is picked once per PA, a special programme any number of times", () => {
    expect(programmeAlreadyPicked({ programId: "p1", programCategory: "regular" }, [{ programId: "p1" }])).toBe(true);
    expect(programmeAlreadyPicked({ programId: "p1", programCategory: "regular" }, [{ programId: "p2" }])).toBe(false);
    expect(programmeAlreadyPicked({ programId: "p1", programCategory: "special" }, [{ programId: "p1" }])).toBe(false);
  });
});
