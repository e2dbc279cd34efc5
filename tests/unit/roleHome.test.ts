import { describe, expect, it } from "vitest";
import { roleHome } from "../../src/domain/roleHome.ts";

describe("role home pages (spec part 1 §2)", () => {
  it.each([
    ["admin", "/company"],
    ["front_desk", "/student-management"],
    ["ops_manager", "/branch"],
    ["hr", "/user"],
    ["finance_staff", "/student-management"],
    ["finance_manager", "/student-management"],
    ["intern", "/student-management"],
    ["attendance_checker", "/attendance/list"],
    ["fulltime_tutor", "/attendance/list"],
    ["parttime_tutor", "/attendance/list"],
    ["hod", "/attendance/list"],
    ["sales", "/communication/broadcast"],
  ])("%s lands on %s", (role, home) => {
    expect(roleHome([role])).toBe(home);
  });

  it("with several roles the later rule of the table wins", () => {
    expect(roleHome(["front_desk", "ops_manager"])).toBe("/branch");
    expect(roleHome(["ops_manager", "front_desk"])).toBe("/branch");
    expect(roleHome(["hr", "finance_manager"])).toBe("/student-management");
    expect(roleHome(["admin", "hr"])).toBe("/user");
    expect(roleHome(["intern", "sales"])).toBe("/communication/broadcast");
  });

  it("hod, tutors and attendance_checker take precedence over every other role", () => {
    expect(roleHome(["front_desk", "hod"])).toBe("/attendance/list");
    expect(roleHome(["hod", "front_desk"])).toBe("/attendance/list");
    expect(roleHome(["sales", "fulltime_tutor"])).toBe("/attendance/list");
    expect(roleHome(["attendance_checker", "sales"])).toBe("/attendance/list");
    expect(roleHome(["admin", "parttime_tutor"])).toBe("/attendance/list");
  });

  it("roles with no row have no home", () => {
    expect(roleHome([])).toBeUndefined();
    expect(roleHome(["student", "parent", "tutor"])).toBeUndefined();
  });
});
