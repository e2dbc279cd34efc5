/**
 * The policy editor on /roles (issue 7 §2, DESIGN §6) against the real in-process server: an admin ticks
 * a grant in the roles × routes / data tables grid and saves it through PUT /api/v2/access/policy; it
 * takes effect at once — in the browser's casbin (routes, menus) and on the server (GraphQL permissions).
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { allowed, currentPolicy, ensurePolicy } from "../../src/app/policy.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";
import { PolicyGrid } from "../../src/pages/roles/policyGrid.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

async function tokenOf(username: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "10.55.0.9" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

async function referralCountAs(token: string): Promise<unknown> {
  const res = await fetch(`${server.baseUrl}/v1/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "{ referrals_aggregate { aggregate { count } } }" }),
  });
  return res.json();
}

describe("the policy grid model", () => {
  it("toggles grants, keeps other lines and row filters", () => {
    const grid = new PolicyGrid(["g, sales, staff", 'p, hr, data:users, update, "{""type"":{""_neq"":""student""}}"', "p, sales, /communication/broadcast, view"]);
    expect(grid.has({ role: "hr", obj: "data:users", act: "update" })).toBe(true);
    expect(grid.condition({ role: "hr", obj: "data:users", act: "update" })).toBe('{"type":{"_neq":"student"}}');
    const next = grid.set({ role: "sales", obj: "/company", act: "view" }, true).set({ role: "sales", obj: "/communication/broadcast", act: "view" }, false);
    expect(next.text()).toBe('g, sales, staff\np, hr, data:users, update, "{""type"":{""_neq"":""student""}}"\np, sales, /company, view\n');
    expect(grid.has({ role: "sales", obj: "/company", act: "view" })).toBe(false);
  });

  it("shows each line of a grant with its rows and columns, and keeps them when other grants change", () => {
    const lines = ['p, hr, data:users, update, "{""type"":{""_neq"":""student""}}", -type -numOfFailed', 'p, hr, data:users, update, {"type":{"_eq":"student"}}, firstName lastName', "p, sales, data:invoices, update, , notes"];
    const grid = new PolicyGrid(lines);
    expect(grid.condition({ role: "hr", obj: "data:users", act: "update" })).toBe('rows {"type":{"_neq":"student"}}, columns -type -numOfFailed | rows {"type":{"_eq":"student"}}, columns firstName lastName');
    expect(grid.condition({ role: "sales", obj: "data:invoices", act: "update" })).toBe("rows all, columns notes");
    expect(grid.set({ role: "sales", obj: "/company", act: "view" }, true).text()).toBe([...lines, "p, sales, /company, view"].join("\n") + "\n");
  });
});

describe("policy editor", () => {
  it("shows the roles with their users' count; a saved grant takes effect at once in the browser and on the server", async () => {
    const sales = await tokenOf("sales");
    const before = (await referralCountAs(sales)) as { errors?: unknown[] };
    expect(before.errors?.length).toBeGreaterThan(0);

    await signInAs(server.baseUrl, "admin");
    await renderResources(resources, "/roles");
    await waitFor(() => expect(Number(screen.getByTestId("users-count-sales").textContent)).toBeGreaterThanOrEqual(1), { timeout: 20_000 });
    const editor = await screen.findByTestId("policy-editor", {}, { timeout: 20_000 });
    const user = userEvent.setup();

    // routes: sales may now open /company
    expect(allowed((await ensurePolicy()).enforcer, ["sales"], "/company", "view")).toBe(false);
    fireEvent.change(within(editor).getByLabelText("Find"), { target: { value: "/company" } });
    const routeBox = await within(editor).findByLabelText("sales /company view");
    await user.click(routeBox);
    // data tables: sales may now select referrals
    await user.click(within(editor).getByRole("tab", { name: "Data tables" }));
    fireEvent.change(within(editor).getByLabelText("Find"), { target: { value: "referrals" } });
    await user.click(await within(editor).findByLabelText("sales data:referrals select"));
    await user.click(within(editor).getByRole("button", { name: "Save policy" }));
    await screen.findByText("The access policy is saved and in effect.", {}, { timeout: 20_000 });

    const res = await fetch(`${server.baseUrl}/api/v2/access/policy`, { headers: { authorization: `Bearer ${sales}` } });
    const policy = ((await res.json()) as { data: { policy: string } }).data.policy;
    expect(policy).toContain("p, sales, /company, view");
    expect(policy).toContain("p, sales, data:referrals, select");
    await waitFor(() => expect(allowed(currentPolicy()!.enforcer, ["sales"], "/company", "view")).toBe(true));
    const after = (await referralCountAs(sales)) as { data?: { referrals_aggregate: { aggregate: { count: number } } } };
    expect(after.data?.referrals_aggregate.aggregate.count).toBeGreaterThan(0);
  }, 240_000);
});
