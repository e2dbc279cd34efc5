import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../../server/config.ts";
import { createPolicy, type PolicyService } from "../../server/auth/policy/index.ts";
import { parsePolicy } from "../../server/auth/policy/rules.ts";
import { generateHasuraPermissions } from "../../server/auth/policy/hasura.ts";
import { EXPECTED_MENUS } from "../support/spec-menus.ts";
import { databaseLanes } from "../support/db.ts";
import { ALL_ROLES, STAFF_ROLES, api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { API_MATRIX, ROUTE_MATRIX } from "./policy-matrix.ts";

const MENU_ORDER = ["Companies", "Users", "Branches", "Students", "Programmes", "Classes", "Finance", "Rewards", "Communication", "Report", "Attendance", "Content Management", "Enquiry"];

describe.each(databaseLanes())("access policy: routes, menus and REST rules [%s]", (lane) => {
  let server: TestServer;
  let policy: PolicyService;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(lane);
    // A second PolicyService over the same database: what another server instance would see.
    policy = await createPolicy({ db: server.db, config: configFromEnv({} as NodeJS.ProcessEnv, []), migrations: 0 });
    for (const role of [...ALL_ROLES, "multi_role"]) tokens[role] = (await signIn(server.app, role)).accessToken;
  });
  afterAll(async () => {
    await policy?.close();
    await server?.close();
  });

  it.each(ALL_ROLES)("%s: every route of both spec parts opens exactly as the spec's matrix says", async (role) => {
    const wrong: string[] = [];
    for (const { route, path, roles } of ROUTE_MATRIX) {
      const expected = role === "admin" || roles.includes(role);
      if ((await policy.enforce([role], path, "view")) !== expected) wrong.push(`${route} (${path}): expected ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a route with no roles listed (holiday, enquiry) is admin-only", async () => {
    for (const path of ["/programme/holiday", "/enquiry", "/enquiry/abc/update"]) {
      expect(await policy.enforce(["admin"], path, "view")).toBe(true);
      for (const role of STAFF_ROLES) expect(await policy.enforce([role], path, "view"), `${role} ${path}`).toBe(false);
    }
  });

  it("multi-role users get the union of their roles (front_desk + hod)", async () => {
    for (const { path, roles } of ROUTE_MATRIX) {
      const expected = roles.includes("front_desk") || roles.includes("hod");
      expect(await policy.enforce(["front_desk", "hod"], path, "view"), path).toBe(expected);
    }
    // and through the REST guard: front_desk may suggest usernames, hod may not, front_desk + hod may
    const asHod = await api(server.app, "GET", "/users/username/suggest?firstName=Ann&lastName=Lee", tokens.hod);
    expect(asHod.statusCode).toBe(403);
    const asMulti = await api(server.app, "GET", "/users/username/suggest?firstName=Ann&lastName=Lee", tokens.multi_role);
    expect(asMulti.statusCode).toBe(200);
  });

  it.each(Object.entries(EXPECTED_MENUS))("%s: the menu rules give the spec's menu, in order", async (role, expected) => {
    const shown: string[] = [];
    for (const label of MENU_ORDER) if (await policy.enforce([role], `menu:${label}`, "show")) shown.push(label);
    expect(shown).toEqual(expected);
  });

  it("admin's menu is the spec's full menu in the spec's order", async () => {
    const lines = (await policy.snapshot()).policy.split("\n").filter((l) => l.startsWith("p, admin, menu:"));
    expect(lines.map((l) => l.split(", ")[2].slice(5))).toEqual(MENU_ORDER);
  });

  it.each(ALL_ROLES)("%s: REST permissions for every call of both spec parts", async (role) => {
    const wrong: string[] = [];
    for (const { method, path, roles } of API_MATRIX) {
      const expected = role === "admin" || roles === "anonymous" || roles === "staff" || roles.includes(role);
      if ((await policy.enforce([role, "anonymous"], `api:${path}`, method)) !== expected) wrong.push(`${method} ${path}: expected ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it("calls open without a token are exactly the login page's, the forgot-password page's and the token refresh", async () => {
    for (const { method, path, roles } of API_MATRIX) {
      expect(await policy.enforce(["anonymous"], `api:${path}`, method), `${method} ${path}`).toBe(roles === "anonymous");
    }
  });

  it.each(ALL_ROLES)("%s: any signed-in user reads the policy (model, rules, version)", async (role) => {
    const res = await api(server.app, "GET", "/access/policy", tokens[role]);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.model).toContain("keyMatch2");
    expect(data.policy).toContain("p, hr, /user, view");
    expect(typeof data.version).toBe("number");
  });

  it("without a token the policy is refused with 401 {success:false, message}", async () => {
    const res = await api(server.app, "GET", "/access/policy");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
  });

  it("the seeded policy is access/policy.csv, rule for rule", async () => {
    const { readFileSync } = await import("node:fs");
    const file = parsePolicy(readFileSync(new URL("../../access/policy.csv", import.meta.url), "utf8"));
    expect(parsePolicy((await policy.snapshot()).policy)).toEqual(file);
  });

  it("every data rule names a table of the database, and no backend table", async () => {
    const { rows } = await server.db.query<{ t: string }>(`select table_name as t from information_schema.tables where table_schema = 'public'`);
    const tables = new Set(rows.map((r) => r.t));
    const rules = parsePolicy((await policy.snapshot()).policy);
    const named = [...new Set(rules.filter((r) => r.values[1]?.startsWith("data:")).map((r) => r.values[1].slice(5)))];
    expect(named.filter((t) => !tables.has(t))).toEqual([]);
    for (const t of ["user_credentials", "refresh_tokens", "signing_keys", "casbin_rule", "password_reset_codes", "outbox", "policy_changes"]) expect(named).not.toContain(t);
  });

  it("GraphQL permissions are generated for every staff role; tutors only see their own lessons", () => {
    const perms = policy.hasuraPermissions();
    expect(perms.admin).toBeUndefined();
    for (const role of STAFF_ROLES) expect(Object.keys(perms[role] ?? {}).length, role).toBeGreaterThan(0);
    expect(perms.fulltime_tutor.lessons.select?.filter).toEqual({ sessions: { tutorIds: { _has_key: "X-Hasura-User-Id" } } });
    expect(perms.parttime_tutor.lessons_students.update?.filter).toEqual({ lesson: { sessions: { tutorIds: { _has_key: "X-Hasura-User-Id" } } } });
    expect(perms.hod.lessons.select?.filter).toEqual({});
    expect(perms.sales.payment_advices).toBeUndefined();
    // hr: staff users that are not admins, or students (student pages)
    expect(perms.hr.users.update?.check).toEqual({ _or: [{ _and: expect.any(Array) }, { type: { _eq: "student" } }] });
    expect(perms.front_desk.users.insert?.check).toEqual({ type: { _eq: "student" } });
    expect(perms.front_desk.users.insert?.set).toEqual({ createdBy: "X-Hasura-User-Id", updatedBy: "X-Hasura-User-Id" });
    expect(perms.intern.posts.delete).toEqual({ filter: {} });
  });

  it("rules on one table and action are ORed; an unfiltered one wins", () => {
    const rules = parsePolicy([
      "g, fulltime_tutor, g1",
      'p, fulltime_tutor, data:lessons, select, {"a":{"_eq":1}}',
      'p, g1, data:lessons, select, {"b":{"_eq":2}}',
      "p, hod, data:lessons, select",
      'p, hod, data:lessons, select, {"b":{"_eq":2}}',
    ].join("\n"));
    const perms = generateHasuraPermissions(rules, ["fulltime_tutor", "hod"]);
    expect(perms.fulltime_tutor.lessons.select?.filter).toEqual({ _or: [{ a: { _eq: 1 } }, { b: { _eq: 2 } }] });
    expect(perms.hod.lessons.select?.filter).toEqual({});
  });
});
