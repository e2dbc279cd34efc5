/**
 * Generated list buttons follow the access policy (Refine CanAccess through the shell's casbin provider),
 * against the real in-process server: ops_manager may create and edit branches but not delete them;
 * front_desk only views them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { startFrameworkUiServer, type FrameworkUiServer } from "../support/ui-server-framework.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { branches } from "../../resources/branches.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

let server: FrameworkUiServer;
beforeAll(async () => {
  server = await startFrameworkUiServer();
}, 120_000);
afterAll(async () => server?.close());

const counter = () => screen.getByTestId("record-counter").textContent;
const firstRow = async () => {
  await waitFor(() => expect(document.querySelector(".ant-table-tbody tr.ant-table-row")).not.toBeNull(), { timeout: 20_000 });
  return document.querySelector(".ant-table-tbody tr.ant-table-row") as HTMLElement;
};

describe("buttons follow the access policy", () => {
  it("ops_manager may create and edit branches but not delete them", async () => {
    cleanup();
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, "/branch");
    await waitFor(() => expect(counter()).toMatch(/out of \d+ records/), { timeout: 20_000 });
    await waitFor(() => expect(screen.getByRole("button", { name: /Create/ })).toBeTruthy(), { timeout: 20_000 });
    const row = await firstRow();
    await waitFor(() => expect(within(row).getByLabelText("Edit")).toBeTruthy(), { timeout: 20_000 });
    expect(within(row).queryByLabelText("Delete")).toBeNull();
  });

  it("front_desk sees branches read-only", async () => {
    cleanup();
    await signInAs(server.baseUrl, "front_desk");
    await renderResources([branches, ...resources.filter((r) => r !== branches)], "/branch");
    await waitFor(() => expect(counter()).toMatch(/out of \d+ records/), { timeout: 20_000 });
    const row = await firstRow();
    await waitFor(() => expect(within(row).getByLabelText("View")).toBeTruthy(), { timeout: 20_000 });
    expect(screen.queryByRole("button", { name: /Create/ })).toBeNull();
    expect(within(row).queryByLabelText("Edit")).toBeNull();
    expect(within(row).queryByLabelText("Delete")).toBeNull();
  });
});
