/**
 * The browser reads the rules itself (the server's CSV keeps an unquoted JSON condition's quotes), and answers
 * our model without casbin's engine (src/app/policyMatcher.ts).
 * Both must answer exactly as casbin does when it reads the same text: the same model settings and rules, and
 * the same answer for every role, object (each rule's pattern as written and with a concrete id in place of
 * each :param) and action of the policy.
 */
import { readFileSync } from "node:fs";
import { newEnforcer, newModelFromString, StringAdapter, Util } from "casbin";
import { describe, expect, it } from "vitest";
import { allowed, buildPolicyCheck } from "../../src/app/policy.ts";
import { buildEnforcer } from "../../src/app/casbinEnforcer.ts";
import { keyMatch2Source, rbacPolicyCheck } from "../../src/app/policyMatcher.ts";
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
    const { p, g } = policyRules(policy);
    const browser = await buildEnforcer(model, p, g);
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
  }, 30_000); // casbin's engine over the whole policy: seconds on a busy runner

  it("answers our model without casbin's engine as casbin does, for every role, object and action", async () => {
    const reference = await newEnforcer(newModelFromString(model), new StringAdapter(policy));
    const { p, g } = policyRules(policy);
    const fast = rbacPolicyCheck(modelSettings(model), p, g);
    expect(fast).toBeDefined();
    expect(await buildPolicyCheck({ model, policy, version: 1 })).not.toHaveProperty("getPolicy"); // not casbin
    const roles = [...new Set([...p.map((r) => r[0]!), ...g.flat(), "admin", "nobody"])];
    const objects = [...new Set(p.flatMap((r) => [r[1]!, r[1]!.replace(/:[A-Za-z]+/g, "3f2a9c")])), "/no/such/route", "menu:Nothing", "*"];
    const acts = [...new Set(p.map((r) => r[2]!)), "nothing"];
    const actsFor = new Map<string, Set<string>>();
    for (const [, obj, act] of p) for (const o of [obj!, obj!.replace(/:[A-Za-z]+/g, "3f2a9c")]) actsFor.set(o, (actsFor.get(o) ?? new Set()).add(act!));
    let checked = 0;
    let granted = 0;
    for (const role of roles) {
      // casbin over the rules of the role and the groups casbin says it inherits: the same answers as over all
      // rules (no other rule passes g(r.sub, p.sub)) at a fraction of the time
      const inherited = new Set([role, ...(await reference.getImplicitRolesForUser(role))]);
      const mine = p.filter((r) => inherited.has(r[0]!)).map((r) => `p, ${r.map((v) => `"${v.replace(/"/g, '""')}"`).join(", ")}`);
      const casbin = await newEnforcer(newModelFromString(model), new StringAdapter([...mine, ...g.map((r) => `g, ${r.join(", ")}`)].join("\n")));
      for (const obj of objects) {
        // every action the policy names for this object, and one it names nowhere; all actions on a sample
        const tried = objects.indexOf(obj) % 25 === 0 ? acts : [...(actsFor.get(obj) ?? []), "nothing"];
        for (const act of tried) {
          const want = casbin.enforceSync(role, obj, act);
          expect(fast!.enforceSync(role, obj, act), `${role} ${obj} ${act}`).toBe(want);
          checked++;
          if (want) granted++;
        }
      }
    }
    expect(roles.length).toBeGreaterThan(12);
    expect(checked).toBeGreaterThan(15_000);
    expect(granted).toBeGreaterThan(1_000);
  }, 60_000);

  it("writes keyMatch2's patterns as casbin does, and leaves other models to casbin", async () => {
    for (const [pattern, key] of [
      ["/user/:id/view", "/user/7/view"],
      ["api:/classes/:classId/lessons/:lessonId", "api:/classes/1/lessons/2"],
      ["/report/*", "/report/daily/x"],
      ["*", "anything"],
      ["/a/:b/c:d", "/a/1/cx"],
      ["data:users", "data:users"],
    ]) {
      expect(Util.keyMatch2Func(key!, pattern!), pattern).toBe(true);
      expect(new RegExp(keyMatch2Source(pattern!)).test(key!), pattern).toBe(true);
      expect(new RegExp(keyMatch2Source(pattern!)).test(`${key}/more`), pattern).toBe(Util.keyMatch2Func(`${key}/more`, pattern!));
    }
    const other = model.replace("r.act == p.act", "(r.act == p.act || p.act == \"*\")");
    expect(rbacPolicyCheck(modelSettings(other), [], [])).toBeUndefined();
    expect(rbacPolicyCheck(modelSettings(model), [["hr", "/x"]], [])).toBeUndefined();
    const casbinCheck = await buildPolicyCheck({ model: other, policy: "p, hr, /x, *", version: 1 });
    expect(casbinCheck).toHaveProperty("getPolicy");
    expect(allowed(casbinCheck, ["hr"], "/x", "view")).toBe(true);
  });
});
