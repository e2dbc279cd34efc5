/**
 * A screen shows a record read-only where the policy's row condition refuses its edit (issue 39: finance_staff
 * saw the ledger's account codes editable until the server refused), and leaves to the server what the row alone
 * cannot decide.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allowedOnRow, buildPolicyCheck } from "../../src/app/policy.ts";
import { rowConditionHolds } from "../../src/domain/rowCondition.ts";

const doc = { model: readFileSync("access/model.conf", "utf8"), policy: readFileSync("access/policy.csv", "utf8"), version: 1 };

describe("a policy line's row condition on a row the screen holds", () => {
  it("decides comparisons of the row's own columns, and nothing through relationships or session variables", () => {
    const row = { key: "ledgerAccountCodes", type: "finance", companyId: null };
    expect(rowConditionHolds({ key: { _neq: "ledgerAccountCodes" } }, row)).toBe(false);
    expect(rowConditionHolds({ key: { _eq: "ledgerAccountCodes" } }, row)).toBe(true);
    expect(rowConditionHolds({}, row)).toBe(true);
    expect(rowConditionHolds({ _and: [{ type: { _in: ["finance", "fee"] } }, { companyId: { _is_null: true } }] }, row)).toBe(true);
    expect(rowConditionHolds({ _or: [{ key: { _eq: "gst" } }, { _not: { type: { _nin: ["finance"] } } }] }, row)).toBe(true);
    expect(rowConditionHolds({ company: { name: { _eq: "x" } } }, row)).toBeUndefined();
    expect(rowConditionHolds({ createdBy: { _eq: "X-Hasura-User-Id" } }, { createdBy: "u1" })).toBeUndefined();
    // one false part decides an _and, whatever the unknown parts
    expect(rowConditionHolds({ _and: [{ key: { _eq: "gst" } }, { company: { id: { _eq: "c" } } }] }, row)).toBe(false);
  });

  it("finance_staff may edit every payment setting but the ledger's account codes; finance_manager may edit those too", async () => {
    const check = await buildPolicyCheck(doc);
    const edit = (roles: string[], key: string) => allowedOnRow(check, roles, "data:system_settings", "update", { key, type: "finance", companyId: null });
    expect(edit(["finance_staff"], "ledgerAccountCodes")).toBe(false);
    expect(edit(["finance_staff"], "gst")).toBe(true);
    expect(edit(["finance_manager"], "ledgerAccountCodes")).toBe(true);
    expect(edit(["finance_staff", "finance_manager"], "ledgerAccountCodes")).toBe(true);
    expect(edit(["front_desk"], "gst")).toBe(false);
  });
});
