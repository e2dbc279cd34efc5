/**
 * Menu building and home resolution in the rendered app (jsdom) against the in-process server: sign in as
 * a demo account, open "/", land on the role's home page and see exactly its menu built from the policy.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, act } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router";
import { startUiServer, type UiServer } from "../support/ui-server.ts";
import { installDomGaps, recordRequests, useServer } from "./shell-support.ts";
import { signIn } from "../../src/app/auth.ts";
import { Root } from "../../src/app/Root.tsx";
import { EXPECTED_HOMES, EXPECTED_MENUS, DEMO_PASSWORD } from "../support/spec-menus.ts";

// One react-router for the test, src and @refinedev/react-router (loaded by Node): see framework-harness.tsx.
vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

let server: UiServer;
beforeAll(async () => {
  installDomGaps();
  server = await startUiServer();
});
afterAll(async () => server?.close());

let location = "";
function LocationProbe() {
  const l = useLocation();
  location = l.pathname + l.search;
  return null;
}

async function renderAt(path: string) {
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <Root />
        <LocationProbe />
      </MemoryRouter>,
    );
  });
}

const menuLabels = () => [...document.querySelectorAll("[data-menu-group]")].map((e) => (e.textContent ?? "").trim());

describe("signed in, / goes to the role's home page with the role's menu", () => {
  it.each([
    ["hr", EXPECTED_MENUS.hr],
    ["multi_role", EXPECTED_MENUS.front_desk],
  ])("%s", async (username, expected) => {
    useServer(server.baseUrl);
    await signIn(username, DEMO_PASSWORD);
    await renderAt("/");
    await waitFor(() => expect(location).toBe(EXPECTED_HOMES[username]), { timeout: 20_000 });
    await waitFor(() => expect(menuLabels()).toEqual(expected), { timeout: 20_000 });
    expect(screen.getByTestId("page-title").textContent).toBeTruthy();
  });
});

describe("routing", () => {
  it("a protected route while signed out goes to /login with the origin", async () => {
    useServer(server.baseUrl);
    await renderAt("/finance/refund?page=2");
    await waitFor(() => expect(location).toBe(`/login?to=${encodeURIComponent("/finance/refund?page=2")}`));
  });

  it("an unknown path shows the not-found screen", async () => {
    useServer(server.baseUrl);
    await renderAt("/definitely/not/a/route");
    await screen.findByTestId("not-found");
  });

  it("signed in, /login goes to the role's home page", async () => {
    useServer(server.baseUrl);
    await signIn("ops_manager", DEMO_PASSWORD);
    await renderAt("/login");
    await waitFor(() => expect(location).toBe("/branch"), { timeout: 20_000 });
  });
});

describe("sign-in to the first page", () => {
  it("asks the server for the user and the access policy once each", async () => {
    useServer(server.baseUrl);
    const { calls, restore } = recordRequests(server.baseUrl);
    try {
      await signIn("admin", DEMO_PASSWORD);
      await renderAt("/");
      // "/" goes home once the app is mounted and has the user and the policy
      await waitFor(() => expect(location).toBe("/company"), { timeout: 50_000 });
    } finally {
      restore();
    }
    const paths = calls.map((c) => c.split("?")[0]);
    expect(paths.filter((p) => p === "/api/v2/users/me")).toHaveLength(1);
    expect(paths.filter((p) => p === "/api/v2/access/policy")).toHaveLength(1);
  });
});
