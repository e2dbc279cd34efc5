/**
 * A list's enum and yes/no filters (issue 20): until reached, a stand-in drawing antd's closed Select (the same
 * markup and classes, the same accessible name) without antd's Select code; a click, or Enter/Space/arrows on
 * the focused field, draws the real Select opened, so picking still takes one click; the clear icon clears.
 * Against the real in-process server, the enquiries list and its Status filter.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConfigProvider, Select } from "antd";
import { FormItemInputContext } from "antd/es/form/context.js";
// under vitest "antd" is its CommonJS build, with its own copy of the context
import { FormItemInputContext as LibFormItemInputContext } from "antd/lib/form/context.js";
import { startFrameworkUiServer, type FrameworkUiServer } from "../support/ui-server-framework.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { FilterSelect } from "../../src/framework/inputs/FilterSelect.tsx";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

let server: FrameworkUiServer;
let all = 0;
let closed = 0;
const wait = { timeout: 20_000 };

beforeAll(async () => {
  server = await startFrameworkUiServer();
  for (let i = 1; i <= 3; i++) await server.db.query(`insert into enquiries (name, status) values ($1, 'closed')`, [`Closed Person ${i}`]);
  for (let i = 1; i <= 2; i++) await server.db.query(`insert into enquiries (name, status) values ($1, 'new')`, [`New Person ${i}`]);
  const count = async (where: string) => Number(((await server.db.query(`select count(*)::int as n from enquiries where ${where}`)) as { rows: { n: number }[] }).rows[0].n);
  all = await count(`status <> 'deleted'`);
  closed = await count(`status = 'closed'`);
  await signInAs(server.baseUrl, "admin");
}, 120_000);
afterAll(async () => server?.close());

const counter = () => screen.getByTestId("record-counter").textContent;
const filters = () => within(screen.getByRole("form", { name: "Filters" }));
const statusField = () => filters().getByLabelText("Status") as HTMLInputElement;
const statusSelect = () => statusField().closest(".ant-select") as HTMLElement;
const options = () => [...(document.getElementById("status_list")?.closest(".ant-select-dropdown")?.querySelectorAll(".ant-select-item-option") ?? [])] as HTMLElement[];
const option = (label: string) => waitFor(() => options().find((o) => o.textContent === label) ?? Promise.reject(new Error(`no option ${label}`)), wait);
const url = () => decodeURIComponent(probe.location.replace(/\+/g, " "));

describe("a list's select filter", () => {
  it("draws antd's closed Select: the same markup, empty and with a value", () => {
    const opts = [
      { value: "new", label: "New" },
      { value: "closed", label: "Closed" },
    ];
    for (const value of [undefined, "closed"]) {
      const html = (node: React.ReactNode) => {
        const { container, unmount } = render(
          <ConfigProvider>
            <FormItemInputContext.Provider value={{ isFormItemInput: true }}>
              <LibFormItemInputContext.Provider value={{ isFormItemInput: true }}>{node}</LibFormItemInputContext.Provider>
            </FormItemInputContext.Provider>
          </ConfigProvider>,
        );
        const out = container.innerHTML;
        unmount();
        return out;
      };
      const ours = html(<FilterSelect id="status" value={value} options={opts} placeholder="Status" style={{ minWidth: 140 }} />);
      const antd = html(<Select id="status" value={value} options={opts} placeholder="Status" style={{ minWidth: 140 }} allowClear />);
      expect(ours).toBe(antd);
    }
  });

  it("opens the real select in one click; picking filters the list and the URL; the clear icon clears", async () => {
    cleanup();
    await renderResources(resources, "/enquiry");
    await waitFor(() => expect(counter()).toMatch(`out of ${all} records`), wait);
    // closed: antd's markup and the placeholder, no dropdown yet
    expect(statusField().getAttribute("role")).toBe("combobox");
    expect(statusSelect().className).toMatch(/\bant-select-single\b.*\bant-select-allow-clear\b.*\bant-select-show-arrow\b/);
    expect(statusSelect().querySelector(".ant-select-selection-placeholder")?.textContent).toBe("Status");
    expect(document.querySelector(".ant-select-dropdown")).toBeNull();

    const user = userEvent.setup();
    await user.click(statusField());
    await user.click(await option("Closed"));
    await waitFor(() => expect(statusSelect().querySelector(".ant-select-selection-item")?.textContent).toBe("Closed"), wait);
    await user.click(filters().getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(counter()).toMatch(`out of ${closed} records`), wait);
    await waitFor(() => expect(url()).toContain("[value]=closed"), wait);
    expect(url()).toContain("[field]=status");

    fireEvent.mouseDown(statusSelect().querySelector(".ant-select-clear")!);
    await waitFor(() => expect(statusSelect().querySelector(".ant-select-selection-placeholder")?.textContent).toBe("Status"), wait);
    await user.click(filters().getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(counter()).toMatch(`out of ${all} records`), wait);
    expect(url()).not.toContain("[value]=closed");
  });

  it("shows the URL's value by its label, clears without opening, and opens from the keyboard", async () => {
    cleanup();
    await renderResources(resources, "/enquiry?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=closed");
    await waitFor(() => expect(counter()).toMatch(`out of ${closed} records`), wait);
    // the stand-in (the real select's code may be loaded by now, but it is drawn only once reached)
    expect(statusSelect().querySelector(".ant-select-selection-item")?.textContent).toBe("Closed");
    fireEvent.mouseDown(statusSelect().querySelector(".ant-select-clear")!);
    await waitFor(() => expect(statusSelect().querySelector(".ant-select-selection-placeholder")?.textContent).toBe("Status"), wait);
    expect(document.querySelector(".ant-select-dropdown")).toBeNull();

    const user = userEvent.setup();
    await act(async () => statusField().focus());
    await user.keyboard("{ArrowDown}");
    await user.click(await option("New"));
    await waitFor(() => expect(statusSelect().querySelector(".ant-select-selection-item")?.textContent).toBe("New"), wait);
    expect(document.activeElement?.id).toBe("status");
    await user.click(filters().getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(url()).toContain("[value]=new"), wait);
  });
});
