/**
 * The History drawer (issue 36) on a generated show page, against the real in-process server: a programme made and
 * renamed by ops_manager shows its creation with the fields it was made with ("Programme Name: …") and the rename as
 * "Programme Name: before → after", by the user's name, at DD/MM/YYYY HH:mm Singapore time. A deleted programme's
 * page says who deleted it and when, and so do the hand-written student and PA pages. The Audit Log's table picker offers the audited tables and filters by one.
 */
import { describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { formatInSingapore } from "../../src/domain/dates.ts";
import { auditedTables } from "../../server/audit/history.ts";
import { findResource } from "../../src/framework/registry.ts";
import { humanize } from "../../src/framework/defineResource.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 20_000 };

/** Runs writes as ops_manager, as the writers record the actor in their transaction; answers the transaction's time. */
async function asOpsManager(write: (tx: { query: typeof server.db.query }) => Promise<unknown>): Promise<{ at: string; who: string }> {
  const { rows } = await server.db.query<{ id: string; who: string }>(`select id, "fullName" as who from users where username = 'ops_manager'`);
  return server.db.transaction(async (tx) => {
    await tx.query(`select set_config('app.user_id', $1, true), set_config('app.role', 'ops_manager', true)`, [rows[0]!.id]);
    await write(tx);
    return { at: (await tx.query<{ at: string }>(`select now() as at`)).rows[0]!.at, who: rows[0]!.who };
  });
}

describe("record history", () => {
  it("shows who created a programme with the fields it was made with, and who renamed it, name before → after", async () => {
    const { rows } = await server.db.query<{ id: string; name: string; by: string; who: string }>(
      `select p.id, p.name, u.id as by, u."fullName" as who from programs p, users u where p.status = 'active' and u.username = 'ops_manager' order by p.name limit 1`,
    );
    const p = rows[0]!;
    const name = `${p.name} (copy)`;
    // a programme made and renamed by ops_manager (the writers record the actor like this in their transaction)
    const { id, at } = await server.db.transaction(async (tx) => {
      await tx.query(`select set_config('app.user_id', $1, true), set_config('app.role', 'ops_manager', true)`, [p.by]);
      const made = await tx.query<{ id: string }>(`insert into programs (name, "programCode", "companyId") select $2, 'AUDIT-1', "companyId" from programs where id = $1 returning id`, [p.id, name]);
      return { id: made.rows[0]!.id, at: (await tx.query<{ at: string }>(`select now() as at`)).rows[0]!.at };
    });
    await server.db.transaction(async (tx) => {
      await tx.query(`select set_config('app.user_id', $1, true), set_config('app.role', 'ops_manager', true)`, [p.by]);
      await tx.query(`update programs set name = $2 where id = $1`, [id, `${name} (renamed)`]);
    });
    await signInAs(server.baseUrl, "admin");
    await renderResources(resources, `/programme/management/${id}/view`);
    await userEvent.setup().click(await screen.findByRole("button", { name: "History" }, wait));
    const drawer = await screen.findByRole("dialog", {}, wait);
    expect(await within(drawer).findByText(`Programme Name: ${name} → ${name} (renamed)`, {}, wait)).toBeTruthy();
    expect(within(drawer).getByText(`Created by ${p.who}, ${formatInSingapore(at, "DD/MM/YYYY HH:mm")}`)).toBeTruthy();
    expect(within(drawer).getByText(`Programme Name: ${name}`)).toBeTruthy();
    expect(within(drawer).getAllByText(/^Updated by /)).toHaveLength(1);
  });

  it("a deleted programme's page says who deleted it and when", async () => {
    const made = await server.db.query<{ id: string }>(`insert into programs (name, "programCode", "companyId") select 'Audit Gone', 'AUDIT-2', "companyId" from programs limit 1 returning id`);
    const id = made.rows[0]!.id;
    const { at, who } = await asOpsManager((tx) => tx.query(`delete from programs where id = $1`, [id]));
    await signInAs(server.baseUrl, "admin");
    await renderResources(resources, `/programme/management/${id}/view`);
    expect(await screen.findByText(`This record was deleted by ${who} on ${formatInSingapore(at, "DD/MM/YYYY HH:mm")}.`, {}, wait)).toBeTruthy();
  });

  it("the hand-written student and payment advice pages of a deleted record say who deleted it and when", async () => {
    const { rows } = await server.db.query<{ student: string; pa: string }>(
      `select (select id from users where type = 'student' and status = 'active' order by username desc limit 1) as student,
              (select id from payment_advices where status = 'active' order by "paymentStatus" = 'draft' desc, name desc limit 1) as pa`,
    );
    const { student, pa } = rows[0]!;
    const { at, who } = await asOpsManager(async (tx) => {
      await tx.query(`update users set status = 'deleted' where id = $1`, [student]);
      await tx.query(`update payment_advices set status = 'deleted' where id = $1`, [pa]);
    });
    const notice = `This record was deleted by ${who} on ${formatInSingapore(at, "DD/MM/YYYY HH:mm")}.`;
    await signInAs(server.baseUrl, "admin");
    await renderResources(resources, `/student-management/student/${student}/view`);
    expect(await screen.findByText(notice, {}, wait)).toBeTruthy();
    cleanup();
    await renderResources(resources, `/finance/payment-advice/edit/${pa}`);
    expect(await screen.findByText(notice, {}, wait)).toBeTruthy();
  });

  it("the Audit Log's table picker lists the audited tables, and choosing one shows only its changes", async () => {
    await asOpsManager(async (tx) => {
      await tx.query(`insert into banks (name) values ('Audit Picker Bank')`);
      await tx.query(`update programs set name = name || ' (picked)' where id = (select id from programs where status = 'active' order by name limit 1)`);
    });
    await signInAs(server.baseUrl, "admin");
    await renderResources(resources, "/audit-log");
    const table = await screen.findByLabelText("Table", {}, wait);
    const tablesShown = () => [...document.querySelectorAll(".ant-table-tbody tr.ant-table-row")].map((r) => r.querySelectorAll("td")[2]?.textContent);
    await waitFor(() => expect(tablesShown()).toContain("Programme Management"), wait);
    fireEvent.mouseDown(table);
    const options = () => [...(document.getElementById("table_list")?.closest(".ant-select-dropdown")?.querySelectorAll(".ant-select-item-option") ?? [])] as HTMLElement[];
    // the list is virtual (a screenful rendered): those shown are the first of the audited tables by their labels
    const labels = (await auditedTables(server.db)).map((t) => findResource(t)?.label ?? humanize(t)).sort((a, b) => a.localeCompare(b));
    await waitFor(() => expect(options().length).toBeGreaterThan(0), wait);
    expect(options().map((o) => o.getAttribute("title"))).toEqual(labels.slice(0, options().length));
    await userEvent.setup().type(table, "Banks");
    await waitFor(() => expect(options().map((o) => o.getAttribute("title"))).toEqual(["Banks"]), wait);
    fireEvent.click(options()[0]!);
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    await screen.findByText("Name: Audit Picker Bank", { exact: false }, wait);
    await waitFor(() => expect(new Set(tablesShown())).toEqual(new Set(["Banks"])), wait);
  });
});
