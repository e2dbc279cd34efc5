/**
 * Issue 31 §4: an invoice has no log of its own, so a free-text edit of its notes over GraphQL is logged on its PA's
 * log as {invoice: {name, notes}}. The PA's log detail page shows those fields (Invoice Name, Invoice Notes) before
 * and after, beside the PA's own. Against the real in-process server.
 */
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };

describe("payment advice log detail", () => {
  it("shows an invoice's notes edit logged on its PA", async () => {
    const { rows } = await server.db.query<{ id: string }>(
      `insert into payment_advice_logs ("paymentAdviceId", type, "valueBefore", "valueAfter")
       select "paymentAdviceId", 'update', '{"invoice": {"name": "INV-T-2026-00001", "notes": "Pay by Friday"}}', '{"invoice": {"name": "INV-T-2026-00001", "notes": "Paid by the grandparents"}}'
       from invoices where "paymentAdviceId" is not null order by id limit 1 returning id`,
    );
    await signInAs(server.baseUrl, "finance_staff");
    await renderResources(resources, `/finance/payment-advice/logs/${rows[0]!.id}`);
    const row = await waitFor(() => screen.getByRole("cell", { name: "Invoice Notes" }).closest("tr")!, wait);
    expect(within(row).getByText("Pay by Friday")).toBeTruthy();
    expect(within(row).getByText("Paid by the grandparents")).toBeTruthy();
    expect(screen.getByRole("cell", { name: "Invoice Name" })).toBeTruthy();
  }, 120_000);
});
