/**
 * The History drawer (issue 36) on a generated show page, against the real in-process server: a programme made and
 * renamed by ops_manager shows its creation with the fields it was made with ("Programme Name: …") and the rename as
 * "Programme Name: before → after", by the user's name, at DD/MM/YYYY HH:mm Singapore time.
 */
import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { formatInSingapore } from "../../src/domain/dates.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 20_000 };

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
});
