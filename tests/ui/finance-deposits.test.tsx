/**
 * Finance's list of deposits (issue 15 §3) against the real in-process server and its demo data: every deposit
 * not deleted with its number, student, PA and status; the status filter narrows it to what the database holds.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };
const total = () => Number(/out of (\d+) records/.exec(screen.getByTestId("record-counter").textContent ?? "")?.[1] ?? NaN);
const optionsOf = (inputId: string) =>
  [...(document.getElementById(`${inputId}_list`)?.closest(".ant-select-dropdown")?.querySelectorAll(".ant-select-item-option") ?? [])] as HTMLElement[];

describe("deposits list", () => {
  it("lists every deposit with its status label, and filters by status", async () => {
    const count = async (where = "true") =>
      (await server.db.query<{ n: number }>(`select count(*)::int as n from deposits where status <> 'deleted' and ${where}`)).rows[0]!.n;
    const all = await count();
    const paid = await count(`"depositStatus" = 'paid'`);
    expect(all).toBeGreaterThan(paid);
    expect(paid).toBeGreaterThan(0);

    await signInAs(server.baseUrl, "finance_staff");
    await renderResources(resources, "/finance/deposit");
    await waitFor(() => expect(total()).toBe(all), wait);
    const row = document.querySelector(".ant-table-tbody tr.ant-table-row")!.textContent ?? "";
    expect(row).toMatch(/DEP-/);
    expect(row).toMatch(/S\$[\d,]+\.\d{2}/);
    expect(row).toMatch(/Issued|Paid|Used|Refunded/);

    fireEvent.mouseDown(within(screen.getByRole("form", { name: "Filters" })).getByLabelText("Status"));
    fireEvent.click(await waitFor(() => optionsOf("depositStatus").find((o) => o.textContent === "Paid") ?? Promise.reject(new Error("no option")), wait));
    fireEvent.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(total()).toBe(paid), wait);
    const statuses = [...document.querySelectorAll(".ant-table-tbody tr.ant-table-row")].map((r) => r.textContent ?? "");
    for (const s of statuses) expect(s).toContain("Paid");
  }, 120_000);
});
