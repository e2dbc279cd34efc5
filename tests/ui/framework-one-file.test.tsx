/**
 * "Adding an entity is adding one file (and its table)" (DESIGN §7): a table created and tracked through
 * the engine's admin interface, one defineResource declaration in this file, and nothing else — the
 * list, create, edit and show pages work, with soft delete and the unsaved-changes warning.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defineResource, field } from "../../src/framework/index.ts";
import { startFrameworkUiServer, type FrameworkUiServer } from "../support/ui-server-framework.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

/** The one file: a gadget of a company. */
const gadgets = defineResource({
  table: "gadgets",
  label: "Gadgets",
  singular: "Gadget",
  routes: { list: "/gadgets", create: "/gadgets/new", edit: "/gadgets/:gadgetId/edit", show: "/gadgets/:gadgetId" },
  softDelete: true,
  fields: {
    name: field.text("Gadget Name", { required: true, filter: true }),
    price: field.money("Price", { required: true }),
    quantity: field.number("Quantity"),
    kind: field.enumOf("Kind", { small: "Small", large: "Large" }, { filter: true }),
    active: field.boolean("Active"),
    companyId: field.relation("Company", "companies", { filter: true }),
    notes: field.longText("Notes"),
  },
});

let server: FrameworkUiServer;
beforeAll(async () => {
  server = await startFrameworkUiServer();
  await server.admin("/v2/query", {
    type: "run_sql",
    args: {
      source: "default",
      sql: `create table gadgets (
              id uuid primary key default gen_random_uuid(),
              name text not null, price numeric(12,2) not null, quantity int, kind text check (kind in ('small', 'large')),
              active boolean not null default false, "companyId" uuid references companies(id), notes text,
              status text not null default 'active', "createdAt" timestamptz not null default now(), "updatedAt" timestamptz not null default now())`,
    },
  });
  await server.admin("/v1/metadata", { type: "pg_track_table", args: { source: "default", table: { schema: "public", name: "gadgets" } } });
  await server.admin("/v1/metadata", {
    type: "pg_create_object_relationship",
    args: { source: "default", table: { schema: "public", name: "gadgets" }, name: "company", using: { foreign_key_constraint_on: "companyId" } },
  });
  await signInAs(server.baseUrl, "admin");
}, 120_000);
afterAll(async () => server?.close());

const all = [...resources, gadgets];
const counter = () => screen.getByTestId("record-counter").textContent;
const wait = { timeout: 20_000 };

describe("a new entity is one file", () => {

  // One test: the app's test set-up unmounts after each test, and the steps follow one user.
  it("list, create, show, edit with the unsaved-changes warning, soft delete", async () => {
    // list: empty at first, with the counter
    await renderResources(all, "/gadgets");
    await waitFor(() => expect(counter()).toBe("Viewing from 0 - 0 (out of 0 records)"), wait);
    expect(screen.getByText("Gadgets")).toBeTruthy();

    // create: the form saves and returns to the list
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /Create/ }, wait));
    await waitFor(() => expect(probe.location).toBe("/gadgets/new"), wait);
    await user.click(await screen.findByRole("button", { name: "Save" }, wait));
    expect(await screen.findByText("Please input Gadget Name!")).toBeTruthy();
    await user.type(screen.getByLabelText("Gadget Name"), "Sprocket");
    await user.type(await screen.findByLabelText("Price", {}, wait), "1234.5");
    await user.type(screen.getByLabelText("Quantity"), "3");
    fireEvent.mouseDown(screen.getByLabelText("Kind"));
    await user.click(await screen.findByTitle("Large"));
    await user.click(await screen.findByLabelText("Active", {}, wait));
    fireEvent.mouseDown(await screen.findByLabelText("Company", {}, wait));
    await user.type(screen.getByLabelText("Company"), "Summit");
    await user.click(await screen.findByTitle("Summit Learning Centre Pte Ltd", {}, wait));
    // every counter shown after the save reads the new total (never the cached "out of 0" for a moment)
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const el = document.querySelector(".record-counter") as HTMLElement | null;
      if (el && el.style.visibility !== "hidden" && seen.at(-1) !== el.textContent) seen.push(el.textContent ?? "");
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toMatch(/^\/gadgets(\?|$)/), wait);
    await waitFor(() => expect(counter()).toBe("Viewing from 1 - 1 (out of 1 records)"), wait);
    observer.disconnect();
    expect(seen).toEqual(["Viewing from 1 - 1 (out of 1 records)"]);
    const row = document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement;
    expect(row.textContent).toContain("Sprocket");
    expect(row.textContent).toContain("S$1,234.50");
    expect(row.textContent).toContain("Large");
    await waitFor(() => expect(row.textContent).toContain("Summit Learning Centre Pte Ltd"), wait);
    const { rows } = await server.db.query<{ id: string; price: string; kind: string; active: boolean }>(`select id, price::text, kind, active from gadgets`);
    expect(rows[0]).toMatchObject({ price: "1234.50", kind: "large", active: true });
    const gadgetId = rows[0]!.id;

    // show: a description layout of the record
    fireEvent.click(within(row).getByLabelText("View"));
    await waitFor(() => expect(probe.location).toBe(`/gadgets/${gadgetId}`), wait);
    await waitFor(() => expect(document.querySelector(".ant-descriptions")).not.toBeNull(), wait);
    const text = document.querySelector(".ant-descriptions")!.textContent;
    expect(text).toContain("Gadget Name");
    expect(text).toContain("Sprocket");
    expect(text).toContain("S$1,234.50");
    await waitFor(() => expect(document.querySelector(".ant-descriptions")!.textContent).toContain("Summit Learning Centre Pte Ltd"), wait);

    // edit: loads the record, warns before leaving with unsaved changes, saves
    fireEvent.click(screen.getByLabelText("Edit"));
    await waitFor(() => expect(probe.location).toBe(`/gadgets/${gadgetId}/edit`), wait);
    const nameInput = (await screen.findByLabelText("Gadget Name", {}, wait)) as HTMLInputElement;
    await waitFor(() => expect(nameInput.value).toBe("Sprocket"), wait);
    expect((screen.getByLabelText("Price") as HTMLInputElement).value).toBe("S$1,234.50");
    await user.clear(nameInput);
    await user.type(nameInput, "Sprocket Mk II");
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(confirm).toHaveBeenCalled();
    expect(probe.location).toBe(`/gadgets/${gadgetId}/edit`);
    confirm.mockRestore();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toMatch(/^\/gadgets(\?|$)/), wait);
    await waitFor(() => expect(document.querySelector(".ant-table-tbody")!.textContent).toContain("Sprocket Mk II"), wait);

    // delete: soft, after a confirmation; the row leaves the list
    const listed = document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement;
    await user.click(within(listed).getByLabelText("Delete"));
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    await waitFor(() => expect(counter()).toBe("Viewing from 0 - 0 (out of 0 records)"), wait);
    const after = await server.db.query<{ status: string }>(`select status from gadgets where id = $1`, [gadgetId]);
    expect(after.rows[0]!.status).toBe("deleted");
    cleanup();
  });
});
