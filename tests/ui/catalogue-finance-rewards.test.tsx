/**
 * Finance set-up and rewards (issue 7 §5, §6) against the real in-process server: a payment discount's
 * order comes from /finance/payment-discount/create/{order}; a discount's amount, unit and validity dates
 * are edited in a dialog on the list (the spec's "update discount amount or start/end dates") while its
 * name, type, code, order and company stay as created; the referral pickers offer students only.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

const wait = { timeout: 20_000 };
/** The options of one select's dropdown (antd names its listbox "<input id>_list"). */
const optionsOf = (inputId: string) =>
  [...(document.getElementById(`${inputId}_list`)?.closest(".ant-select-dropdown")?.querySelectorAll(".ant-select-item-option") ?? [])] as HTMLElement[];
/** The dialog on screen, if any (jsdom never ends antd's closing animation: a leaving dialog is closed). */
const openDialog = () => document.querySelector(".ant-modal:not(.ant-zoom-leave)") as HTMLElement | null;

describe("payment discount", () => {
  it("takes the order from the create path", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/payment-discount/create/7");
    const order = (await screen.findByLabelText("Order", {}, wait)) as HTMLInputElement;
    expect(order.value).toBe("7");
    expect(screen.getByText("Create Payment Discount")).toBeTruthy();
  });

  it("the list's Create opens the create path with the next order filled in, never ':order'", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/payment-discount");
    const counter = await screen.findByText(/out of [1-9]\d* records/, {}, wait);
    const total = Number(/out of (\d+) records/.exec(counter.textContent ?? "")![1]);
    const create = await waitFor(() => (screen.getByRole("button", { name: /Create/ }).closest("a") as HTMLAnchorElement | null) ?? Promise.reject(new Error("no Create link")), wait);
    expect(create.getAttribute("href")).toBe(`/finance/payment-discount/create/${total + 1}`);
  });

  it("edits the amount, unit and validity dates in a dialog; the rest is read-only", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/payment-discount");
    const user = userEvent.setup();
    const row = await waitFor(() => (document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement | null) ?? Promise.reject(new Error("no rows")), wait);
    const id = row.getAttribute("data-row-key")!;
    const before = await server.db.query<Record<string, unknown>>(`select name, code, type, "order", "companyId", description from discounts where id = $1`, [id]);

    await user.click(await within(row).findByLabelText("Edit", {}, wait));
    const dialog = await waitFor(() => openDialog() ?? Promise.reject(new Error("no dialog")), wait);
    expect(within(dialog).getByText("Edit Payment Discount")).toBeTruthy();
    const amount = (await within(dialog).findByLabelText("Amount", {}, wait)) as HTMLInputElement;
    await waitFor(() => expect(amount.value).not.toBe(""), wait);
    for (const label of ["Order", "Discount Name", "Code"]) expect((within(dialog).getByLabelText(label) as HTMLInputElement).disabled).toBe(true);

    await user.clear(amount);
    await user.type(amount, "12.5");
    fireEvent.mouseDown(within(dialog).getByLabelText("Unit"));
    fireEvent.click(await waitFor(() => optionsOf("field-unit").find((o) => o.getAttribute("title") === "%") ?? Promise.reject(new Error("no %")), wait));
    const setDay = async (label: string, day: string) => {
      const input = within(dialog).getByLabelText(label) as HTMLInputElement;
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: day } });
      fireEvent.keyDown(input, { key: "Enter", code: "Enter", keyCode: 13 });
      await waitFor(() => expect(input.value).toBe(day));
    };
    const save = () => fireEvent.click(within(dialog).getByText("Save").closest("button")!);
    await setDay("Start Date", "01/02/2026");
    // the validity may not end before it starts
    await setDay("End Date", "31/01/2026");
    save();
    expect(await within(dialog).findByText("The end date cannot be before the start date.", {}, wait)).toBeTruthy();
    await setDay("End Date", "30/06/2027");
    await waitFor(() => expect(within(dialog).queryByText("The end date cannot be before the start date.")).toBeNull(), wait);
    save();
    await waitFor(() => expect(openDialog()).toBeNull(), wait);

    const after = await server.db.query<Record<string, unknown>>(
      `select amount::text, unit, "startDate"::text, "endDate"::text, name, code, type, "order", "companyId", description from discounts where id = $1`,
      [id],
    );
    expect(after.rows[0]).toEqual({ ...before.rows[0], amount: "12.50", unit: "percent", startDate: "2026-02-01", endDate: "2027-06-30" });
    // the list shows the new values at once, as finance screens show them: DD/MM/YYYY, the amount by its unit
    await waitFor(() => expect(document.querySelector(`tr[data-row-key="${id}"]`)?.textContent).toContain("30/06/2027"), wait);
    const cells = [...document.querySelectorAll(`tr[data-row-key="${id}"] td`)].map((td) => td.textContent);
    expect(cells).toContain("12.5%");
    expect(cells).toContain("01/02/2026");
    expect(cells.join(" ")).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  }, 120_000);
});

describe("payment discount dialog with unsaved changes", () => {
  it("asks before closing a changed dialog; an untouched one closes at once", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/payment-discount");
    const user = userEvent.setup();
    const row = await waitFor(() => (document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement | null) ?? Promise.reject(new Error("no rows")), wait);
    const id = row.getAttribute("data-row-key")!;
    const before = await server.db.query<{ amount: string }>(`select amount::text from discounts where id = $1`, [id]);
    const dialogs = () => [...document.querySelectorAll(".ant-modal:not(.ant-zoom-leave)")] as HTMLElement[];

    await user.click(await within(row).findByLabelText("Edit", {}, wait));
    const dialog = await waitFor(() => openDialog() ?? Promise.reject(new Error("no dialog")), wait);
    const amount = (await within(dialog).findByLabelText("Amount", {}, wait)) as HTMLInputElement;
    await waitFor(() => expect(amount.value).not.toBe(""), wait);
    await user.clear(amount);
    await user.type(amount, "44");

    // Cancel on a changed form asks; No keeps the dialog and what was typed
    fireEvent.click(within(dialog).getByText("Cancel").closest("button")!);
    const question = await screen.findByText("Are you sure you want to leave? You have unsaved changes.", {}, wait);
    fireEvent.click(within(question.closest(".ant-modal") as HTMLElement).getByText("No").closest("button")!);
    await waitFor(() => expect(dialogs()).toHaveLength(1), wait);
    expect(amount.value).toBe("44");
    // the dialog's × asks too; Yes closes it and saves nothing
    fireEvent.click(dialog.querySelector(".ant-modal-close")!);
    const again = await screen.findByText("Are you sure you want to leave? You have unsaved changes.", {}, wait);
    fireEvent.click(within(again.closest(".ant-modal") as HTMLElement).getByText("Yes").closest("button")!);
    await waitFor(() => expect(dialogs()).toHaveLength(0), wait);
    expect((await server.db.query<{ amount: string }>(`select amount::text from discounts where id = $1`, [id])).rows[0]).toEqual(before.rows[0]);

    // opened and left untouched: Cancel closes without a question
    await user.click(within(document.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement).getByLabelText("Edit"));
    const untouched = await waitFor(() => openDialog() ?? Promise.reject(new Error("no dialog")), wait);
    await within(untouched).findByLabelText("Amount", {}, wait);
    fireEvent.click(within(untouched).getByText("Cancel").closest("button")!);
    await waitFor(() => expect(dialogs()).toHaveLength(0), wait);
    expect(screen.queryByText("Are you sure you want to leave? You have unsaved changes.")).toBeNull();
  }, 120_000);
});

describe("payment discount dialog with live updates", () => {
  it("keeps what the user types when a live event refreshes the list under the dialog", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/payment-discount", { live: true });
    const user = userEvent.setup();
    const row = await waitFor(() => (document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement | null) ?? Promise.reject(new Error("no rows")), wait);
    const id = row.getAttribute("data-row-key")!;
    await user.click(await within(row).findByLabelText("Edit", {}, wait));
    const dialog = await waitFor(() => openDialog() ?? Promise.reject(new Error("no dialog")), wait);
    const amount = (await within(dialog).findByLabelText("Amount", {}, wait)) as HTMLInputElement;
    await waitFor(() => expect(amount.value).not.toBe(""), wait);
    await user.clear(amount);
    await user.type(amount, "33");

    // someone else changes the record: the list under the dialog shows it…
    await server.db.query(`update discounts set "endDate" = '2031-12-31', "updatedAt" = now() where id = $1`, [id]);
    await waitFor(() => expect(document.querySelector(`tr[data-row-key="${id}"]`)?.textContent).toContain("31/12/2031"), wait);
    // …and the dialog still holds what the user typed, and saves it
    expect(amount.value).toBe("33");
    fireEvent.click(within(dialog).getByText("Save").closest("button")!);
    await waitFor(() => expect(openDialog()).toBeNull(), wait);
    const after = await server.db.query<{ amount: string }>(`select amount::text from discounts where id = $1`, [id]);
    expect(after.rows[0]?.amount).toBe("33.00");
  }, 120_000);
});

describe("referral", () => {
  it("offers students only as referrer and referee", async () => {
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/reward/referral/create");
    const students = await server.db.query<{ fullName: string }>(`select "fullName" from users where role = 'student'`);
    const names = new Set(students.rows.map((r) => r.fullName));
    for (const [label, inputId] of [["Referrer", "field-referrerId"], ["Referee", "field-referreeId"]] as const) {
      fireEvent.mouseDown(await screen.findByLabelText(label, {}, wait));
      await waitFor(() => expect(optionsOf(inputId).length).toBeGreaterThan(0), wait);
      for (const o of optionsOf(inputId)) expect(names.has(o.getAttribute("title")!)).toBe(true);
    }
    // a staff member is not offered, even when searched for by name
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Referee"), "Front");
    await waitFor(() => expect(optionsOf("field-referreeId")).toHaveLength(0), wait);
  }, 120_000);

  it("a saved referrer the picker no longer offers still shows by name on the edit form", async () => {
    // a referral whose referrer is no longer a student (the row was changed behind the app's back)
    const staff = (await server.db.query<{ id: string; fullName: string }>(`select id, "fullName" from users where username = 'hr'`)).rows[0]!;
    const referral = (await server.db.query<{ id: string }>(`select id from referrals where status <> 'deleted' limit 1`)).rows[0]!;
    await server.db.query(`update referrals set "referrerId" = $1 where id = $2`, [staff.id, referral.id]);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/reward/referral/${referral.id}/update`);
    const field = (await screen.findByLabelText("Referrer", {}, wait)).closest(".ant-select") as HTMLElement;
    await waitFor(() => expect(field.querySelector(".ant-select-selection-item")?.textContent).toBe(staff.fullName), wait);
  }, 120_000);
});
