/**
 * The browser reads the rules itself (the server's CSV keeps an unquoted JSON condition's quotes) and hands
 * them to casbin with the model text: it must hold the same rules as casbin reading the same text, and answer
 * the same (objects sampled from the policy's routes, as written and with a concrete id for each :param).
 */
import { readFileSync } from "node:fs";
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
import { describe, expect, it } from "vitest";
import { allowed, buildPolicyCheck } from "../../src/app/policy.ts";
import { buildEnforcer } from "../../src/app/casbinEnforcer.ts";
import { policyRules } from "../../src/domain/policyText.ts";

const model = readFileSync("access/model.conf", "utf8");
const policy = readFileSync("access/policy.csv", "utf8");

describe("the browser's reading of the access policy", () => {
  it("splits quoted values with commas and doubled quotes", () => {
    const { p, g } = policyRules(['p, hr, data:users, select, "{""branchId"":{""_in"":[1,2]}}"', "g, hr, staff", "# comment", ""]);
    expect(p).toEqual([["hr", "data:users", "select", '{"branchId":{"_in":[1,2]}}']]);
    expect(g).toEqual([["hr", "staff"]]);
  });

  it("holds the same rules as casbin reading the text, and answers the same", async () => {
    const reference = await newEnforcer(newModelFromString(model), new StringAdapter(policy));
    const { p, g } = policyRules(policy);
    const browser = await buildEnforcer(model, p, g);
    const refRules = await reference.getPolicy();
    expect(refRules.length).toBeGreaterThan(100);
    expect(await browser.getPolicy()).toEqual(refRules);
    expect(await browser.getGroupingPolicy()).toEqual(await reference.getGroupingPolicy());

    // spot checks through casbin's matcher (keyMatch2 on patterns and concrete paths, groups, admin, unknown objects)
    const check = await buildPolicyCheck({ model, policy, version: 1 });
    const routes = [...new Set(refRules.filter((r) => r[1]!.startsWith("/")).map((r) => r[1]!))].filter((_, i) => i % 10 === 0);
    const objects = [...routes, ...routes.map((o) => o.replace(/:[A-Za-z]+/g, "3f2a9c")), "/no/such/route", "menu:Finance"];
    let granted = 0;
    for (const role of ["front_desk", "finance_manager", "parttime_tutor", "admin", "nobody"]) {
      for (const obj of objects) {
        for (const act of [obj.startsWith("menu:") ? "show" : "view", "nothing"]) {
          const want = role === "admin" || reference.enforceSync(role, obj, act);
          expect(allowed(check, [role], obj, act), `${role} ${obj} ${act}`).toBe(want);
          if (want) granted++;
        }
      }
    }
    expect(granted).toBeGreaterThan(objects.length);
  }, 60_000);
});
