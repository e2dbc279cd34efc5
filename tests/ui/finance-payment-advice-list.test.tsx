/**
 * The PA list, its student picker and the Log History dialog (issue 14 §2, §6; issue 12 §4) against the
 * real in-process server and its demo data: the status pills read the spec's labels with Overdue derived
 * from the due date, the status and student filters narrow the list to what the database holds, and a
 * PA's Log History shows who did what and when.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { lastOverdueDueDay } from "../../src/pages/finance/paymentAdviceList.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };
const SPEC_LABELS = ["Draft", "OverDue", "Paid", "UnPaid", "Voided", "OverPaid", "Withdrawn"];
const counterText = () => screen.getByTestId("record-counter").textContent ?? "";
const total = () => Number(/out of (\d+) records/.exec(counterText())?.[1] ?? NaN);
const optionsOf = (inputId: string) =>
  [...(document.getElementById(`${inputId}_list`)?.closest(".ant-select-dropdown")?.querySelectorAll(".ant-select-item-option") ?? [])] as HTMLElement[];
const search = () => fireEvent.click(screen.getByRole("button", { name: /Search/ }));

describe("payment advice list", () => {
  it("lists every PA not deleted, newest first, with the spec's status labels", async () => {
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/finance/payment-advice");
    const { rows } = await server.db.query<{ n: number }>(`select count(*)::int as n from payment_advices where status <> 'deleted'`);
    await waitFor(() => expect(total()).toBe(rows[0]!.n), wait);
    expect(counterText()).toMatch(/^Viewing from 1 - 10 \(out of \d+ records\)$/);
    const pills = [...document.querySelectorAll('[data-testid="pa-status"]')].map((p) => p.textContent);
    expect(pills.length).toBe(10);
    for (const p of pills) expect(SPEC_LABELS).toContain(p);
  }, 120_000);

  it("OverDue: unpaid PAs whose due day has ended, and only those", async () => {
    await signInAs(server.baseUrl, "finance_staff");
    await renderResources(resources, "/finance/payment-advice");
    await waitFor(() => expect(total()).toBeGreaterThan(0), wait);
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from payment_advices where status <> 'deleted' and ("paymentStatus" = 'overdue' or ("paymentStatus" = 'unpaid' and "dueDate" <= $1::date))`,
      [lastOverdueDueDay()],
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    fireEvent.mouseDown(screen.getByLabelText("Status"));
    fireEvent.click(await waitFor(() => optionsOf("status").find((o) => o.textContent === "OverDue") ?? Promise.reject(new Error("no option")), wait));
    search();
    await waitFor(() => expect(total()).toBe(rows[0]!.n), wait);
    await waitFor(() => {
      const pills = [...document.querySelectorAll('[data-testid="pa-status"]')].map((p) => p.textContent);
      expect(pills.length).toBe(Math.min(10, rows[0]!.n));
      expect(new Set(pills)).toEqual(new Set(["OverDue"]));
    }, wait);
  }, 120_000);

  it("the student picker finds a student by part of the name, whatever the case, and filters the list", async () => {
    const { rows: students } = await server.db.query<{ id: string; firstName: string; lastName: string; username: string; n: number }>(
      `select u.id, u."firstName", u."lastName", u.username, count(p.id)::int as n from users u join payment_advices p on p."studentId" = u.id and p.status <> 'deleted'
       where u.role = 'student' and u.status = 'active' group by u.id order by count(p.id) desc, u.username limit 1`,
    );
    const s = students[0]!;
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/finance/payment-advice");
    await waitFor(() => expect(total()).toBeGreaterThan(0), wait);
    const input = document.getElementById("studentId") as HTMLInputElement;
    fireEvent.mouseDown(input);
    expect(input.closest(".ant-select")?.textContent).toContain("Search by student name or username");
    // a part of the last name, in upper case
    fireEvent.change(input, { target: { value: s.lastName.slice(1, 4).toUpperCase() } });
    // every option offered matches what was typed (once the search has answered), the student among them
    const option = await waitFor(() => {
      const options = optionsOf("studentId");
      for (const o of options) expect(o.textContent?.toLowerCase()).toContain(s.lastName.slice(1, 4).toLowerCase());
      return options.find((o) => o.textContent?.includes(s.username)) ?? Promise.reject(new Error("student not offered"));
    }, wait);
    expect(option.textContent).toContain(`${s.firstName} ${s.lastName}`);
    fireEvent.click(option);
    search();
    await waitFor(() => expect(total()).toBe(s.n), wait);
  }, 120_000);
});

describe("Log History", () => {
  it("opens in a dialog: Index, User, Timestamp, Action; the user's full name and roles, the spec's action texts", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/payment-advice");
    await waitFor(() => expect(total()).toBeGreaterThan(0), wait);
    const row = document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement;
    const paId = row.getAttribute("data-row-key")!;
    const { rows: logs } = await server.db.query<{ n: number }>(`select count(*)::int as n from payment_advice_logs where "paymentAdviceId" = $1`, [paId]);
    fireEvent.click(within(row).getByRole("button", { name: "Log history" }));
    const dialog = await waitFor(() => (document.querySelector(".ant-modal") as HTMLElement | null) ?? Promise.reject(new Error("no dialog")), wait);
    expect(within(dialog).getByText("Log History")).toBeTruthy();
    expect((dialog.querySelector(".ant-modal") ?? dialog).getAttribute("style") ?? (dialog as HTMLElement).style.width).toContain("1100");
    const table = within(dialog).getByTestId("log-history");
    for (const h of ["Index", "User", "Timestamp", "Action"]) expect(within(table).getByText(h)).toBeTruthy();
    await waitFor(() => expect(table.querySelectorAll("tbody tr.ant-table-row").length).toBe(Math.min(10, logs[0]!.n)), wait);
    const text = table.textContent ?? "";
    expect(text).toMatch(/Create New PA |Change Status from |Update Content/);
    expect(text).toMatch(/\d{2}:\d{2} (AM|PM)/);
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4}/);
    // the demo's logs were written by the front desk and finance staff accounts
    expect(text).toMatch(/Front Desk|Finance Staff/);
    // the eye opens the log's page in a new tab
    const eye = table.querySelector('a[aria-label="View log"]') as HTMLAnchorElement;
    expect(eye.getAttribute("target")).toBe("_blank");
    expect(eye.getAttribute("href")).toMatch(/^\/finance\/payment-advice\/logs\/[0-9a-f-]{36}$/);
  }, 120_000);
});
