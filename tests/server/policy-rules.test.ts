import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
import { PolicyError, parsePolicy, ruleToLine, rulesToCsv, splitCsvLine } from "../../server/auth/policy/rules.ts";

const csv = readFileSync(new URL("../../access/policy.csv", import.meta.url), "utf8");
const model = readFileSync(new URL("../../access/model.conf", import.meta.url), "utf8");

describe("access policy rules: the CSV form", () => {
  it("splits CSV lines, with quoted JSON filters holding commas", () => {
    expect(splitCsvLine("p, hr, /user, view")).toEqual(["p", "hr", "/user", "view"]);
    expect(splitCsvLine('p, hr, data:users, update, "{""a"":1,""b"":2}"')).toEqual(["p", "hr", "data:users", "update", '{"a":1,"b":2}']);
    expect(splitCsvLine('p, t, data:lessons, select, {"x":{"_eq":"X-Hasura-User-Id"}}')[4]).toBe('{"x":{"_eq":"X-Hasura-User-Id"}}');
    expect(() => splitCsvLine('p, hr, "open')).toThrow(PolicyError);
  });

  it("access/policy.csv parses, and writing it back reads the same", () => {
    const rules = parsePolicy(csv);
    expect(rules.length).toBeGreaterThan(500);
    expect(parsePolicy(rulesToCsv(rules))).toEqual(rules);
  });

  it("casbin (the browser's parser) reads our serialised rules exactly as we do", async () => {
    const rules = parsePolicy(csv);
    const enforcer = await newEnforcer(newModelFromString(model), new StringAdapter(rulesToCsv(rules)));
    // casbin pads a line to the model's fields; trailing empty values are ours to drop (an empty filter before a column list stays).
    const theirs = (await enforcer.getPolicy()).map((v) => {
      const values = [...v];
      while (values.length > 3 && values[values.length - 1] === "") values.pop();
      return values;
    });
    expect(theirs).toEqual(rules.filter((r) => r.ptype === "p").map((r) => r.values));
    expect(await enforcer.getGroupingPolicy()).toEqual(rules.filter((r) => r.ptype === "g").map((r) => r.values));
  });

  it("a data rule may end with a column list: granted (a b) or withheld (-a -b), not both; other rules take none", () => {
    expect(parsePolicy("p, hr, data:users, update, , firstName lastName")[0]!.values).toEqual(["hr", "data:users", "update", "", "firstName lastName"]);
    expect(parsePolicy('p, hr, data:users, select, {"type":{"_eq":"student"}}, -bankNumber')[0]!.values[4]).toBe("-bankNumber");
    expect(() => parsePolicy("p, hr, data:users, update, , firstName -role")).toThrow(/not both/);
    expect(() => parsePolicy("p, hr, data:users, update, , first;name")).toThrow(/bad column name/);
    expect(() => parsePolicy("p, hr, /user, view, , firstName")).toThrow(/column list/);
    expect(() => parsePolicy("p, hr, data:users, delete, , firstName")).toThrow(/no column list/);
  });

  it("duplicates are dropped; a rule line is p or g", () => {
    expect(parsePolicy("p, hr, /user, view\np, hr, /user, view\n")).toHaveLength(1);
    expect(() => parsePolicy("x, hr, /user, view")).toThrow(/Line 1/);
    expect(ruleToLine({ ptype: "p", values: ["hr", "data:users", "select", '{"a":1,"b":2}'] })).toBe('p, hr, data:users, select, "{""a"":1,""b"":2}"');
  });

  it("groups must be declared before a rule may name them; admin and anonymous are not groups", () => {
    expect(() => parsePolicy("p, team, /user, view")).toThrow(/unknown role "team"/);
    expect(parsePolicy("g, hr, team\np, team, /user, view")).toHaveLength(2);
    expect(() => parsePolicy("g, hr, admin")).toThrow(/cannot be used as a group/);
  });
});
