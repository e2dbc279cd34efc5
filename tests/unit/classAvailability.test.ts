import { describe, expect, it } from "vitest";
import { classAvailability } from "../../src/domain/classAvailability.ts";

const base = { startDate: "2026-03-01", today: "2026-02-27", enrolled: 0, classSize: 20 };

describe("class availability label (spec part 1 §3)", () => {
  it("closed gives Closed", () => {
    expect(classAvailability({ ...base, classStatus: "closed" })).toBe("Closed");
  });
  it("new gives Waiting before the start date and Expired from the start date on", () => {
    expect(classAvailability({ ...base, classStatus: "new", today: "2026-02-28" })).toBe("Waiting");
    expect(classAvailability({ ...base, classStatus: "new", today: "2026-03-01" })).toBe("Expired");
    expect(classAvailability({ ...base, classStatus: "new", today: "2026-04-01" })).toBe("Expired");
    expect(classAvailability({ ...base, classStatus: "new", startDate: null })).toBe("Waiting");
  });
  it("open: Available under 80 %, Filling Fast from 80 % to under 100 %, Full Class at 100 %", () => {
    const open = (enrolled: number, classSize = 20) => classAvailability({ ...base, classStatus: "open", enrolled, classSize });
    expect(open(0)).toBe("Available");
    expect(open(15)).toBe("Available"); // 75 %
    expect(open(16)).toBe("Filling Fast"); // 80 %
    expect(open(19)).toBe("Filling Fast"); // 95 %
    expect(open(20)).toBe("Full Class");
    expect(open(21)).toBe("Full Class");
    expect(open(7, 9)).toBe("Available"); // 77.8 %
    expect(open(79, 100)).toBe("Available");
    expect(open(4, 5)).toBe("Filling Fast"); // exactly 80 %
    expect(open(0, 0)).toBe("Full Class"); // a class with no seats is full
  });
  it("anything else gives Unknown", () => {
    expect(classAvailability({ ...base, classStatus: "deleted" })).toBe("Unknown");
    expect(classAvailability({ ...base, classStatus: null })).toBe("Unknown");
  });
});
