/**
 * The generated list against the real in-process server (spec part 1 §2 "Layout", DESIGN §7 "Lists"):
 * page 1 of size 10 sorted by updatedAt descending; the counter 'Viewing from X - Y (out of N records)';
 * the index continuing across pages; quick jump without a page-size selector; filters, sort and page in
 * the URL; soft-deleted rows excluded; long links broken after 60 characters; CSV export of every
 * matching row. (Buttons and the access policy: framework-access.test.tsx.)
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { startFrameworkUiServer, type FrameworkUiServer } from "../support/ui-server-framework.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { enquiries } from "../../resources/enquiries.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

let server: FrameworkUiServer;
const LONG_LINK = "https://example.com/" + "a".repeat(130); // 150 characters

beforeAll(async () => {
  server = await startFrameworkUiServer();
  // 17 more enquiries (23 live in all), two soft-deleted ones, and one with a long link.
  for (let i = 1; i <= 17; i++) {
    await server.db.query(`insert into enquiries (name, email, type, status, "updatedAt") values ($1, $2, $3, 'new', now() + interval '1 day' - ($4 || ' minutes')::interval)`, [
      `Listed Person ${String(i).padStart(2, "0")}`,
      `p${i}@example.com`,
      i === 1 ? `see ${LONG_LINK}` : "general",
      String(i),
    ]);
  }
  await server.db.query(`insert into enquiries (name, status) values ('Deleted Person A', 'deleted'), ('Deleted Person B', 'deleted')`);
  await signInAs(server.baseUrl, "admin");
}, 120_000);
afterAll(async () => server?.close());

const rowsText = () => [...document.querySelectorAll(".ant-table-tbody tr.ant-table-row")].map((tr) => tr.textContent ?? "");
const indexes = () => [...document.querySelectorAll(".ant-table-tbody tr.ant-table-row")].map((tr) => tr.querySelector("td")?.textContent);
const counter = () => screen.getByTestId("record-counter").textContent;
const filterInput = (label: string) => within(document.querySelector('form[aria-label="Filters"]') as HTMLElement).getByLabelText(label) as HTMLInputElement;

describe("the generated list", () => {
  it("shows page 1 of 10, the counter, the index, quick jump and no page-size selector; page 2 continues the index", async () => {
    await renderResources(resources, "/enquiry");
    // the file's first render also loads the list's page chunks: longer on a busy runner
    await waitFor(() => expect(counter()).toBe("Viewing from 1 - 10 (out of 23 records)"), { timeout: 45_000 });
    expect(indexes()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    // updatedAt descending: the newest first
    expect(rowsText()[0]).toContain("Listed Person 01");
    expect(document.querySelector(".ant-pagination-options-quick-jumper")).not.toBeNull();
    expect(document.querySelector(".ant-pagination-options-size-changer")).toBeNull();
    expect(document.body.textContent).not.toContain("Deleted Person");

    fireEvent.click(screen.getByTitle("2"));
    await waitFor(() => expect(counter()).toBe("Viewing from 11 - 20 (out of 23 records)"), { timeout: 20_000 });
    expect(indexes()).toEqual(["11", "12", "13", "14", "15", "16", "17", "18", "19", "20"]);
    expect(probe.location).toMatch(/currentPage=2/);

    fireEvent.click(screen.getByTitle("3"));
    await waitFor(() => expect(counter()).toBe("Viewing from 21 - 23 (out of 23 records)"), { timeout: 20_000 });
    expect(indexes()).toEqual(["21", "22", "23"]);
  });

  it("opens on the page, filter and sort written in the URL", async () => {
    cleanup();
    await renderResources(resources, "/enquiry?currentPage=2&pageSize=10");
    await waitFor(() => expect(counter()).toBe("Viewing from 11 - 20 (out of 23 records)"), { timeout: 20_000 });
    cleanup();
    const url = `/enquiry?filters[0][field]=name&filters[0][operator]=contains&filters[0][value]=Person 1&sorters[0][field]=name&sorters[0][order]=asc`;
    await renderResources(resources, url);
    await waitFor(() => expect(counter()).toBe("Viewing from 1 - 8 (out of 8 records)"), { timeout: 20_000 });
    expect(rowsText()[0]).toContain("Listed Person 10");
    expect(filterInput("Name").value).toBe("Person 1");
  });

  it("filters through the form and writes the filter to the URL; Reset clears it", async () => {
    cleanup();
    await renderResources(resources, "/enquiry");
    await waitFor(() => expect(counter()).toMatch(/out of 23 records/), { timeout: 20_000 });
    const user = userEvent.setup();
    await user.type(filterInput("Name"), "Person 0");
    await user.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(counter()).toBe("Viewing from 1 - 9 (out of 9 records)"), { timeout: 20_000 });
    const url = () => decodeURIComponent(probe.location.replace(/\+/g, " "));
    await waitFor(() => expect(url()).toContain("[value]=Person 0"), { timeout: 20_000 });
    expect(url()).toContain("[field]=name");
    expect(url()).toContain("[operator]=contains");
    await user.click(screen.getByRole("button", { name: /Reset/ }));
    await waitFor(() => expect(counter()).toMatch(/out of 23 records/), { timeout: 20_000 });
  });

  it("sorts by a column header and keeps the sort in the URL", async () => {
    cleanup();
    await renderResources(resources, "/enquiry");
    await waitFor(() => expect(counter()).toMatch(/out of 23 records/), { timeout: 20_000 });
    const header = [...document.querySelectorAll("th")].find((th) => th.textContent === "Name")!;
    fireEvent.click(header);
    await waitFor(() => expect(decodeURIComponent(probe.location)).toMatch(/sorters\[0\]\[field\]=name&sorters\[0\]\[order\]=asc/), { timeout: 20_000 });
    await waitFor(() => expect(rowsText()[0]).toMatch(/^1/), { timeout: 20_000 });
  });

  it("breaks long links after 60 characters", async () => {
    cleanup();
    await renderResources(resources, "/enquiry");
    await waitFor(() => expect(counter()).toMatch(/out of 23 records/), { timeout: 20_000 });
    const link = [...document.querySelectorAll("a")].find((a) => a.getAttribute("href") === LONG_LINK)!;
    expect(link).toBeTruthy();
    expect(link.querySelectorAll("br").length).toBe(2);
    expect(link.innerHTML.split("<br>").map((p) => p.length)).toEqual([60, 60, LONG_LINK.length - 120]);
  });

  it("exports every matching row to CSV, page by page", async () => {
    cleanup();
    let csv = "";
    const createObjectURL = vi.fn((blob: Blob) => {
      void blob.text().then((t) => (csv = t));
      return "blob:csv";
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: () => undefined });
    await renderResources(resources, "/enquiry");
    await waitFor(() => expect(counter()).toMatch(/out of 23 records/), { timeout: 20_000 });
    fireEvent.click(screen.getByRole("button", { name: /Export CSV/ }));
    await waitFor(() => expect(csv).not.toBe(""), { timeout: 20_000 });
    const lines = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe(["Index", ...enquiries.fieldList.filter((f) => f.list).map((f) => f.label)].join(","));
    expect(lines).toHaveLength(1 + 23);
    expect(csv).not.toContain("Deleted Person");
  });
});
