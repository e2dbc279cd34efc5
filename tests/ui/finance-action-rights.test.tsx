/**
 * The payment advice action rights (issue 14 §1, FINANCE.md §5) are policy lines an admin edits on the
 * Roles screen like routes: the Actions tab lists them, and a saved grant is in effect on the server at once.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

describe("payment advice action rights on the Roles screen", () => {
  it("lists the finance actions with their default roles; granting void-paid to finance_staff takes effect on the server", async () => {
    await signInAs(server.baseUrl, "admin");
    await renderResources(resources, "/roles");
    const editor = await screen.findByTestId("policy-editor", {}, { timeout: 20_000 });
    const user = userEvent.setup();
    await user.click(within(editor).getByRole("tab", { name: "Actions" }));
    fireEvent.change(within(editor).getByLabelText("Find"), { target: { value: "payment-advice" } });
    // FINANCE.md §5 defaults
    await within(editor).findByLabelText("front_desk api:/actions/payment-advice/issue POST");
    const checked = (label: string) => (within(editor).getByLabelText(label) as HTMLInputElement).checked;
    expect(checked("front_desk api:/actions/payment-advice/issue POST")).toBe(true);
    expect(checked("intern api:/actions/payment-advice/issue POST")).toBe(false);
    expect(checked("intern api:/actions/payment-advice/create POST")).toBe(true);
    expect(checked("finance_manager api:/actions/payment-advice/void-paid POST")).toBe(true);
    expect(checked("finance_staff api:/actions/payment-advice/void-paid POST")).toBe(false);
    const box = within(editor).getByLabelText("finance_staff api:/actions/payment-advice/void-paid POST");
    await user.click(box);
    await user.click(within(editor).getByRole("button", { name: "Save policy" }));
    await screen.findByText("The access policy is saved and in effect.", {}, { timeout: 20_000 });

    // finance_staff now passes the action check of void-paid: the call reaches validation (400), not 403
    const signIn = await fetch(`${server.baseUrl}/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.56.0.9" },
      body: JSON.stringify({ username: "finance_staff", password: DEMO_PASSWORD }),
    });
    const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
    const { rows } = await server.db.query<{ id: string; updatedAt: string }>(`select id, to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where "paymentStatus" = 'unpaid' limit 1`);
    const res = await fetch(`${server.baseUrl}/api/v2/finances/payment-advices/void-paid-pa`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ id: rows[0]!.id, reason: "test", updatedAt: rows[0]!.updatedAt }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe("Only a paid or overpaid payment advice can be voided here.");
  }, 240_000);
});
