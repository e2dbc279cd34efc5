import { describe, expect, it } from "vitest";
import { MENU_TREE, buildMenu, menuEntryFor, menuForRoles, menuLabels, mergeMenus } from "../../src/domain/menu.ts";
import { APP_ROUTES, matchAppRoute, routeShape } from "../../src/app/routes.ts";
import { EXPECTED_MENUS, specCanOpen } from "../support/spec-menus.ts";

const FULL_MENU = [
  "Companies",
  "Users",
  "Branches",
  "Students",
  "Programmes",
  "Classes",
  "Finance",
  "Rewards",
  "Communication",
  "Report",
  "Attendance",
  "Content Management",
  "Enquiry",
];

describe("menu tree", () => {
  it("admin gets the full menu in the spec's order", () => {
    expect(menuLabels(menuForRoles(["admin"], () => false))).toEqual(FULL_MENU);
    expect(menuLabels(MENU_TREE)).toEqual(FULL_MENU);
  });

  it("every menu page is a declared route", () => {
    const declared = new Set(APP_ROUTES.map((r) => r.path));
    for (const g of MENU_TREE) for (const i of g.items) expect(declared.has(i.path), i.path).toBe(true);
  });

  it("every declared route sits in the group its menu page belongs to", () => {
    for (const r of APP_ROUTES) {
      const entry = menuEntryFor(r.path);
      if (entry) expect(entry.group.key, r.path).toBe(r.group);
      else {
        const first = r.path.split("/")[1];
        const group = MENU_TREE.find((g) => g.key === r.group)!;
        expect(group.items.some((i) => i.path.split("/")[1] === first), r.path).toBe(true);
      }
    }
  });
});

describe("menu building from a predicate", () => {
  it("keeps only the groups holding at least one page the role may open, with only those pages", () => {
    const menu = buildMenu((p) => p === "/attendance/list" || p === "/reward/referral");
    expect(menu.map((g) => [g.label, g.items.map((i) => i.path)])).toEqual([
      ["Rewards", ["/reward/referral"]],
      ["Attendance", ["/attendance/list"]],
    ]);
  });

  it("merges menus of several roles, de-duplicated by key, in the canonical order", () => {
    const a = buildMenu((p) => p.startsWith("/attendance") || p === "/student-management");
    const b = buildMenu((p) => p === "/attendance/list" || p === "/company");
    const merged = mergeMenus([a, b]);
    expect(menuLabels(merged)).toEqual(["Companies", "Students", "Attendance"]);
    expect(merged.find((g) => g.key === "attendance")!.items.map((i) => i.path)).toEqual([
      "/attendance/list",
      "/attendance/monitor",
      "/attendance/gantry-record",
    ]);
  });

  it.each(Object.entries(EXPECTED_MENUS))("%s sees exactly its menu (spec §6 of both parts)", (role, expected) => {
    expect(menuLabels(menuForRoles([role], specCanOpen))).toEqual(expected);
  });

  it("multi_role (front_desk + hod) gets the merged menu", () => {
    const merged = menuLabels(menuForRoles(["front_desk", "hod"], specCanOpen));
    expect(merged).toEqual(EXPECTED_MENUS.front_desk);
    expect(menuLabels(menuForRoles(["sales", "hr"], specCanOpen))).toEqual(["Users", "Students", "Classes", "Finance", "Communication", "Report"]);
  });
});

describe("route table", () => {
  it("declares every route once", () => {
    const shapes = APP_ROUTES.map((r) => routeShape(r.path));
    expect(new Set(shapes).size).toBe(shapes.length);
  });

  it("prefers static segments over parameters", () => {
    expect(matchAppRoute("/class/management/create")?.route.title).toBe("Create Class");
    expect(matchAppRoute("/class/management/abc/create")?.route.path).toBe("/class/management/:programId/create");
    expect(matchAppRoute("/finance/refund/refunded/7")?.route.path).toBe("/finance/refund/refunded/:id");
    expect(matchAppRoute("/suspension/detail/9/view")?.route.path).toBe("/suspension/detail/:id/view");
    expect(matchAppRoute("/nothing/here")).toBeUndefined();
  });

  it("compares spec and react-router patterns by shape", () => {
    expect(routeShape("/company/{companyId}/update")).toBe(routeShape("/company/:companyId/update"));
  });
});

describe("menus from the access policy (access/model.conf + access/policy.csv)", async () => {
  const { readFileSync } = await import("node:fs");
  const { newEnforcer, newModelFromString, StringAdapter } = await import("casbin");
  const model = readFileSync(new URL("../../access/model.conf", import.meta.url), "utf8");
  const csv = readFileSync(new URL("../../access/policy.csv", import.meta.url), "utf8");
  const enforcer = await newEnforcer(newModelFromString(model), new StringAdapter(csv));
  const canOpen = (role: string, path: string) => enforcer.enforceSync(role, path, "view");

  it.each(Object.entries(EXPECTED_MENUS))("%s: the policy gives exactly the spec's menu", (role, expected) => {
    expect(menuLabels(menuForRoles([role], canOpen))).toEqual(expected);
  });

  it.each(Object.keys(EXPECTED_MENUS).filter((r) => r !== "admin"))("%s: the policy's menu:<Label> rules agree with its pages", (role) => {
    const shown = MENU_TREE.filter((g) => enforcer.enforceSync(role, `menu:${g.label}`, "show")).map((g) => g.label);
    expect(shown).toEqual(menuLabels(menuForRoles([role], canOpen)));
  });

  it("every declared route is named in the policy (a rule or an admin-only line)", () => {
    for (const r of APP_ROUTES) expect(csv.includes(` ${r.path}, view`) || csv.includes(`admin only: ${r.path}\n`), r.path).toBe(true);
  });

  it("concrete paths match the patterns (keyMatch2)", () => {
    expect(canOpen("hr", "/user/3f2a/view")).toBe(true);
    expect(canOpen("sales", "/user/3f2a/update")).toBe(false);
    expect(canOpen("front_desk", "/programme/holiday")).toBe(false);
  });
});
