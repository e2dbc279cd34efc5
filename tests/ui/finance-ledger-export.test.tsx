/**
 * The accounting export screen (issue 39 §4) against the real in-process server and its demo data: a range with more
 * journal lines than Xero imports in one file is saved as its parts, one file each, every one a Xero manual journal
 * CSV of at most 300 lines, the parts together holding every line of the range.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { XERO_IMPORT_MAX_LINES } from "../../src/domain/finance/accountingExport.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };
afterEach(() => vi.restoreAllMocks());

describe("accounting export", () => {
  it("saves a range of more lines than Xero imports as its parts, each a file of at most 300 lines", async () => {
    // last month, the screen's default range: lines of its journals (a journal is never split across files)
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from journal_lines l join companies c on c.id = l."companyId"
       where c."shortName" = 'BME' and l.day >= date_trunc('month', (now() at time zone 'Asia/Singapore') - interval '1 month')
         and l.day < date_trunc('month', now() at time zone 'Asia/Singapore')`,
    );
    const lines = rows[0]!.n;
    expect(lines).toBeGreaterThan(XERO_IMPORT_MAX_LINES);

    const saved: Array<{ name: string; blob: Blob }> = [];
    let last: Blob | undefined;
    (URL as unknown as { createObjectURL: (b: Blob) => string }).createObjectURL = (b: Blob) => ((last = b), "blob:export");
    (URL as unknown as { revokeObjectURL: () => void }).revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: last! });
    });

    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/finance/ledger-export");
    fireEvent.mouseDown(await screen.findByLabelText("Company", {}, wait));
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")].find((o) => /Bright Minds/.test(o.textContent ?? ""));
      return (found as HTMLElement | undefined) ?? Promise.reject(new Error("no BME company"));
    }, wait);
    fireEvent.click(option);
    fireEvent.click(screen.getByRole("button", { name: /Xero Manual Journals \(CSV\)/ }));

    await waitFor(() => expect(saved.length).toBeGreaterThan(1), { timeout: 60_000 });
    const parts = Math.ceil(lines / XERO_IMPORT_MAX_LINES);
    await waitFor(() => expect(saved.length).toBeGreaterThanOrEqual(parts), { timeout: 60_000 });
    const count = saved.length;
    expect(saved.map((f) => f.name)).toEqual(Array.from({ length: count }, (_, i) => expect.stringMatching(new RegExp(`-xero-manual-journals-part-${i + 1}-of-${count}\\.csv$`))));
    let total = 0;
    for (const f of saved) {
      const body = (await f.blob.text()).trim().split(/\r?\n/);
      expect(body[0]).toMatch(/^\*Narration,\*Date,/);
      expect(body.length - 1).toBeLessThanOrEqual(XERO_IMPORT_MAX_LINES);
      total += body.length - 1;
    }
    expect(total).toBe(lines);
  }, 120_000);
});
