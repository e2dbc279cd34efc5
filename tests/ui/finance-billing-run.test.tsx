/**
 * The billing run screen (issue 39) against the real in-process server and its demo data: finance staff choose a
 * branch's class and term, preview one PA per student, untick one student, issue the rest and read the summary, then
 * open the stored run from Recent Runs.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };

/** Opens the select labelled `label` and picks the option reading `text`. */
async function choose(label: string, text: string) {
  fireEvent.mouseDown(within(screen.getByRole("form", { name: "Billing run" })).getByLabelText(label));
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")].find((o) => o.textContent === text);
    return (found as HTMLElement | undefined) ?? Promise.reject(new Error(`no option ${text} under ${label}`));
  }, wait);
  fireEvent.click(option);
}

describe("billing run", () => {
  it("previews a class's term, unticks one student, issues the rest with a summary", async () => {
    const { rows } = await server.db.query<{ company: string; branch: string; year: number; className: string; n: number }>(
      `select co.name as company, b.name as branch, ac.year, c.name as "className", count(*)::int as n
       from classes c join companies co on co.id = c."companyId" join branches b on b.id = c."branchId" join academic_calendars ac on ac.id = c."academicCalendarId"
       join student_classes sc on sc."classId" = c.id and sc.status = 'enrolled'
       where co."shortName" = 'BME' and c."classStatus" = 'open' and c."classType" = 'regular'
       group by 1, 2, 3, 4, c.id order by n desc, c.id limit 1`,
    );
    const pick = rows[0]!;
    const pas = async () => (await server.db.query<{ n: number }>(`select count(*)::int as n from payment_advices`)).rows[0]!.n;
    const before = await pas();

    await signInAs(server.baseUrl, "finance_staff");
    await renderResources(resources, "/finance/billing-run");
    await screen.findByRole("button", { name: "Preview" }, wait);
    await choose("Company", pick.company);
    await choose("Branch", pick.branch);
    await choose("Academic Year", String(pick.year));
    await choose("Terms", "Term 4");
    await choose("Classes", pick.className);
    fireEvent.click(screen.getByRole("button", { name: "Preview" }));

    const boxes = await waitFor(() => {
      const found = screen.getAllByRole("checkbox", { name: /^Bill / }).filter((b) => !(b as HTMLInputElement).disabled && (b as HTMLInputElement).checked);
      return found.length >= 2 ? found : Promise.reject(new Error(`no billable students: ${document.querySelector(".ant-alert-message, .ant-form-item-explain-error")?.textContent ?? "no message"}`));
    }, { timeout: 90_000 });
    fireEvent.click(boxes[0]!);
    const issue = await screen.findByRole("button", { name: `Issue ${boxes.length - 1} payment advice${boxes.length - 1 === 1 ? "" : "s"}` });
    fireEvent.click(issue);

    // issuing takes longer than previewing (a transaction per PA): the preview's wait
    await screen.findByText(`${boxes.length - 1} of ${boxes.length - 1} students done`, {}, { timeout: 90_000 });
    const statistic = (title: string) => screen.getAllByText(title).map((e) => e.closest(".ant-statistic")).find(Boolean)?.textContent; // not Recent Runs' column
    expect(statistic("Issued")).toBe(`Issued${boxes.length - 1}`);
    expect(statistic("Total billed")).toMatch(/^Total billedS\$[\d,]+\.\d{2}$/);
    expect(screen.getByRole("button", { name: "E-mail all" })).toBeTruthy();
    expect(document.body.textContent).toMatch(/PA-BME-\d{4}-\d{5}/);
    expect(await pas()).toBe(before + boxes.length - 1);

    // the run is stored: Recent Runs opens its summary, the unticked student left out with the reason
    const recent = screen.getByText("Recent Runs").closest(".ant-card") as HTMLElement;
    fireEvent.click(await within(recent).findByRole("button", { name: "View" }, wait));
    const dialog = await screen.findByRole("dialog", {}, wait);
    await within(dialog).findByText(/^Billing run of \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/, {}, wait);
    const stored = (title: string) => within(dialog).getByText(title).closest(".ant-statistic")?.textContent;
    expect(stored("Issued")).toBe(`Issued${boxes.length - 1}`);
    expect(stored("Skipped")).toMatch(/^Skipped[1-9]\d*$/);
    expect(stored("Total Billed")).toBe(statistic("Total billed")!.replace("Total billed", "Total Billed"));
    expect(within(dialog).getAllByText("Skipped: Left out of the run.").length).toBe(1);
    expect(within(dialog).getAllByRole("link", { name: /^PA-BME-\d{4}-\d{5}$/ }).length).toBe(Math.min(20, boxes.length - 1));
  }, 300_000);
});
