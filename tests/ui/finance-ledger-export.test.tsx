/**
 * The accounting export screen (issue 39 §4) against the real in-process server and its demo data: a range with more
 * journal lines than Xero imports in one file is saved as its parts, one file each, every one a Xero manual journal
 * CSV of at most 300 lines that balances on its own.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { XERO_HEADER, XERO_IMPORT_MAX_LINES } from "../../src/domain/finance/accountingExport.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay, todayInSingapore } from "../../src/domain/dates.ts";
import { numericToCents } from "../../src/domain/money.ts";
import { parseCsv } from "../../server/finance/bankStatementFile.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };
afterEach(() => vi.restoreAllMocks());

describe("accounting export and its account codes", () => {
  it("saves a range of more lines than Xero imports as its parts, each a balanced file of at most 300 lines", async () => {
    const saved: Array<{ name: string; blob: Blob }> = [];
    let last: Blob | undefined;
    (URL as unknown as { createObjectURL: (b: Blob) => string }).createObjectURL = (b: Blob) => ((last = b), "blob:export");
    (URL as unknown as { revokeObjectURL: () => void }).revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: last! });
    });

    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/ledger-export");
    fireEvent.mouseDown(await screen.findByRole("combobox", { name: "Company" }, wait));
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")].find((o) => /Bright Minds/.test(o.textContent ?? ""));
      return (found as HTMLElement | undefined) ?? Promise.reject(new Error("no BME company"));
    }, wait);
    fireEvent.click(option);
    // the year so far: a day's journal has a line per account code, so a year is well over 300 lines
    const year = todayInSingapore().slice(0, 4);
    const [from, to] = [...document.querySelectorAll<HTMLInputElement>(".ant-picker-range input")];
    for (const [input, value] of [[from!, `01/01/${year}`], [to!, formatCalendarDay(todayInSingapore(), DISPLAY_DATE_FORMAT)]] as const) {
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value } });
      fireEvent.keyDown(input, { key: "Enter", code: "Enter", keyCode: 13 });
    }
    await waitFor(() => expect(from!.value).toBe(`01/01/${year}`), wait);
    fireEvent.click(screen.getByRole("button", { name: /Xero Manual Journals \(CSV\)/ }));

    await waitFor(() => expect(saved.length).toBeGreaterThan(1), { timeout: 60_000 });
    const parts = Number(/part-\d+-of-(\d+)\.csv$/.exec(saved[0]!.name)?.[1]);
    await waitFor(() => expect(saved.length).toBe(parts), { timeout: 60_000 });
    expect(saved.map((f) => f.name)).toEqual(Array.from({ length: parts }, (_, i) => expect.stringMatching(new RegExp(`^BME-${year}-01-01-.*-xero-manual-journals-part-${i + 1}-of-${parts}\\.csv$`))));
    for (const f of saved) {
      const [header, ...lines] = parseCsv(await f.blob.text()).filter((r) => r.some(Boolean));
      expect(header).toEqual([...XERO_HEADER]);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(XERO_IMPORT_MAX_LINES);
      // each file imports on its own: its journals balance
      const amount = XERO_HEADER.indexOf("*Amount");
      expect(lines.reduce((sum, l) => sum + numericToCents(l[amount]!)!, 0)).toBe(0);
    }
  }, 120_000);

  it("shows finance_staff the ledger's account codes read-only and the other payment settings editable (the manager's codes)", async () => {
    await signInAs(server.baseUrl, "finance_staff");
    await renderResources(resources, "/finance/payment-setting");
    const codes = await screen.findByRole("form", { name: "Ledger Account Codes" }, wait);
    const gst = screen.getAllByRole("form", { name: "GST" })[0]!;
    // the row's condition decides once the policy is read: the GST form stays editable, the codes' form turns read-only
    await waitFor(() => expect(codes.querySelector("input:not([disabled])")).toBeNull(), wait);
    expect(gst.querySelector("input:not([disabled]), .ant-select:not(.ant-select-disabled)")).not.toBeNull();
    expect(within(codes.closest(".ant-card")! as HTMLElement).queryByRole("button", { name: "Save" })).toBeNull();
    expect(within(gst.closest(".ant-card")! as HTMLElement).getByRole("button", { name: "Save" })).toBeTruthy();
  }, 60_000);
});
