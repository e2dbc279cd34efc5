/**
 * The PA builder's form rules (spec part 2 §2, §5) against the real in-process server: the Class Fee's
 * empty text, the required fields' messages when issuing an empty PA, the date rules, and the buttons
 * each role's action rights allow.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };

async function setDay(id: string, day: string) {
  const input = document.getElementById(id) as HTMLInputElement;
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: day } });
  fireEvent.keyDown(input, { key: "Enter", code: "Enter", keyCode: 13 });
  await waitFor(() => expect(input.value).toBe(day));
}

describe("payment advice builder", () => {
  it("issuing an empty PA shows the spec's messages; the due date may not come before the issue date", async () => {
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/finance/payment-advice/create");
    expect(await screen.findByText("Click “Add Class\" to start creating the Payment Advice. You have to add 1 Regular class before adding any Double Lesson class.", {}, wait)).toBeTruthy();
    const blocks = [...document.querySelectorAll(".ant-card-head-title")].map((t) => t.textContent);
    for (const block of ["Student", "Payment Information", "Registration Fee", "Class Fee", "Payment Summary", "Remarks", "Notes"]) expect(blocks).toContain(block);
    expect((screen.getByLabelText("Registration fee amount") as HTMLInputElement).placeholder).toBe("S$00.00");
    const issue = await waitFor(() => screen.getByRole("button", { name: "Issue" }), wait);
    fireEvent.click(issue);
    for (const text of ["Please select student!", "Please select company!", "Please select branch!", "Please QR Expiry Date!"]) expect(await screen.findByText(text, {}, wait)).toBeTruthy();
    // the due date carries the issue date's message (spec part 2 §5)
    await waitFor(() => expect(screen.getAllByText("Please select issue date!").length).toBe(2), wait);

    await setDay("issueDate", "10/12/2026");
    await setDay("dueDate", "01/12/2026");
    fireEvent.click(issue);
    expect(await screen.findByText("The due date cannot be before the issue date.", {}, wait)).toBeTruthy();
    // nothing was created
    const { rows } = await server.db.query<{ n: number }>(`select count(*)::int as n from payment_advices where "createdAt" > now() - interval '5 minutes'`);
    expect(rows[0]!.n).toBe(0);
  }, 120_000);

  it("a new PA's GST starts from the chosen company's payment setting: 9% for a company with a GST number and a 9% setting, No GST for one with none (issue 37 item 11)", async () => {
    const companyWhere = async (rule: string) =>
      (await server.db.query<{ name: string }>(
        `select c.name from companies c join system_settings s on s."companyId" = c.id and s.key = 'gst' and s.status = 'active'
         where c.status = 'active' and ${rule} order by c.name limit 1`,
      )).rows[0]!.name;
    const withGst = await companyWhere(`c."hasGstNo" and c."gstRefNo" <> '' and (s.value->>'percentage')::numeric = 9`);
    const without = await companyWhere(`not c."hasGstNo" and (s.value->>'percentage')::numeric = 0`);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/finance/payment-advice/create");
    const gst = () => document.querySelector("#gst")?.closest(".ant-select")?.querySelector(".ant-select-selection-item")?.textContent;
    // the company is picked as staff do: its name typed into the select's search, then its option
    const company = async (name: string) => {
      const input = (await screen.findByLabelText("Company", {}, wait)) as HTMLInputElement;
      // the form stays disabled until the user's create right is answered: staff type once the select takes input
      await waitFor(() => expect(input.disabled).toBe(false), wait);
      fireEvent.mouseDown(input);
      fireEvent.change(input, { target: { value: name } });
      fireEvent.click(await screen.findByTitle(name, {}, wait));
      await waitFor(() => expect(input.closest(".ant-select")!.querySelector(".ant-select-selection-item")?.textContent).toBe(name), wait);
    };
    await waitFor(() => expect(gst()).toBe("No GST"), wait);
    await company(withGst);
    await waitFor(() => expect(gst()).toBe("9%"), wait);
    await company(without);
    await waitFor(() => expect(gst()).toBe("No GST"), wait);
  }, 120_000);

  it("an intern may save a draft but not issue it (FINANCE.md §5)", async () => {
    await signInAs(server.baseUrl, "intern");
    await renderResources(resources, "/finance/payment-advice/create");
    // ~30 s on a busy runner before the intern's rights are all answered (to be looked into: issue 37's speed part)
    await waitFor(() => screen.getByRole("button", { name: "Save Draft" }), { timeout: 90_000 });
    expect(screen.queryByRole("button", { name: "Issue" })).toBeNull();
  }, 120_000);

  it("a paid PA shows the figures stored with it, not a recomputation", async () => {
    // a paid PA whose stored Total Payable no recomputation gives: the page must read the stored one
    const { rows } = await server.db.query<{ id: string }>(
      `update payment_advices set "paymentSummaryStatic" = jsonb_set("paymentSummaryStatic", '{totalPayable}', '"12345.67"')
       where id = (select id from payment_advices where "paymentStatus" = 'paid' and status <> 'deleted' order by "issueDate" desc limit 1) returning id`,
    );
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, `/finance/payment-advice/edit/${rows[0]!.id}`);
    await waitFor(() => expect(document.querySelector('[data-figure="totalPayable"]')?.textContent).toBe("S$12,345.67"), wait);
  }, 120_000);
});
