/**
 * The browser's enforcer (src/app/policy.ts) reads the model and the rules itself, because casbin's text
 * readers need Node's Buffer and csv-parse, which the browser build leaves out. It must answer exactly as
 * casbin does when it reads the same text: the same model settings and rules on the real model and policy,
 * and the same answers on a sample of routes (a concrete id in place of each :param) and unknown objects.
 */
import { readFileSync } from "node:fs";
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
import { describe, expect, it } from "vitest";
import { buildEnforcer, allowed } from "../../src/app/policy.ts";
import { modelSettings, policyRules } from "../../src/domain/policyText.ts";

const model = readFileSync("access/model.conf", "utf8");
const policy = readFileSync("access/policy.csv", "utf8");

describe("the browser's reading of the access policy", () => {
  it("reads the model's settings as casbin does", () => {
    const casbinModel = newModelFromString(model);
    const ours = modelSettings(model);
    const names = { r: "request_definition", p: "policy_definition", g: "role_definition", e: "policy_effect", m: "matchers" } as const;
    for (const [sec, title] of Object.entries(names)) {
      const ast = casbinModel.model.get(sec)?.get(sec);
      expect(ast, sec).toBeDefined();
      const probe = newModelFromString(`[${names.r}]\nr = sub, obj, act\n[${names.p}]\np = sub, obj, act\n[${names.e}]\ne = some(where (p.eft == allow))\n[${names.m}]\nm = r.sub == p.sub`);
      probe.addDef(sec, sec, ours.get(`${title}::${sec}`) ?? "");
      expect(probe.model.get(sec)?.get(sec)?.value, sec).toBe(ast!.value);
    }
    expect(modelSettings("[a]\nx = 1 # note\ny = b == \\\n  c\n; comment\n").get("a::y")).toBe("b == c");
  });

  it("splits quoted values with commas and doubled quotes", () => {
    const { p, g } = policyRules(['p, hr, data:users, select, "{""branchId"":{""_in"":[1,2]}}"', "g, hr, staff", "# comment", ""]);
    expect(p).toEqual([["hr", "data:users", "select", '{"branchId":{"_in":[1,2]}}']]);
    expect(g).toEqual([["hr", "staff"]]);
  });

  it("holds the same rules as casbin reading the text, and answers the same", async () => {
    const reference = await newEnforcer(newModelFromString(model), new StringAdapter(policy));
    const browser = await buildEnforcer({ model, policy, version: 1 });
    const refRules = await reference.getPolicy();
    expect(refRules.length).toBeGreaterThan(100);
    expect(await browser.getPolicy()).toEqual(refRules);
    expect(await browser.getGroupingPolicy()).toEqual(await reference.getGroupingPolicy());
    // spot checks through the matcher (keyMatch2 on a concrete path, groups, admin, unknown objects)
    const routes = [...new Set(refRules.filter((r) => r[1]!.startsWith("/")).map((r) => r[1]!))].filter((_, i) => i % 10 === 0);
    const objects = [...routes.map((o) => o.replace(/:[A-Za-z]+/g, "3f2a9c")), "/no/such/route", "menu:Finance"];
    let granted = 0;
    for (const role of ["front_desk", "finance_manager", "parttime_tutor", "admin", "nobody"]) {
      for (const obj of objects) {
        const act = obj.startsWith("menu:") ? "show" : "view";
        const want = role === "admin" || (await reference.enforce(role, obj, act));
        expect(allowed(browser, [role], obj, act), `${role} ${obj}`).toBe(want);
        if (want) granted++;
      }
    }
    expect(granted).toBeGreaterThan(objects.length);
  });
});
