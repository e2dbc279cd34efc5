/**
 * Issue 5 §8: sign-out; a protected deep link while signed out returns there after sign-in; unknown path
 * shows not-found; the menu collapses to 80 px; five wrong passwords then a wait (issue 32 §6)
 * (on a throwaway account created through the API as admin, so no demo account is left waiting).
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { DEMO_PASSWORD } from "../support/spec-menus.ts";
import { SLOW, dialogsSeen, pathOf, signIn, submitSignIn, usePages } from "./shell-support.ts";

const { baseUrl: baseURL } = e2eServer();
const WAIT = "Too many failed attempts. Please try again in 1 minute.";
const withPage = usePages(baseURL);

describe("session", () => {
  it("sign-out asks 'Do you want to Log out?'; No keeps the session, Yes clears it and goes to /login", async () => {
    await withPage(async (page) => {
      await signIn(page, "hr", DEMO_PASSWORD);
      await page.getByTestId("logout-button").click();
      await page.getByText("Do you want to Log out?").waitFor();
      await page.getByRole("button", { name: "No" }).click();
      await page.getByText("Do you want to Log out?").waitFor({ state: "hidden" });
      expect(pathOf(page)).toBe("/user");
      await page.getByTestId("logout-button").click();
      await page.getByRole("button", { name: "Yes" }).click();
      await page.waitForURL("**/login", { timeout: SLOW });
      expect(dialogsSeen).toEqual([]); // log-out asks only its own question
      expect(await page.evaluate(() => localStorage.getItem("backoffice.session"))).toBeNull();
      await page.goto("/user");
      await page.waitForURL((u) => u.pathname === "/login", { timeout: SLOW });
    });
  });

  it("a protected deep link while signed out goes to /login and returns there after sign-in", async () => {
    await withPage(async (page) => {
      await page.goto("/attendance/monitor?page=2");
      await page.waitForURL((u) => u.pathname === "/login", { timeout: SLOW });
      expect(new URL(page.url()).searchParams.get("to")).toBe("/attendance/monitor?page=2");
      expect(await submitSignIn(page, "ops_manager", DEMO_PASSWORD)).toBeUndefined();
      await page.waitForURL((u) => u.pathname === "/attendance/monitor", { timeout: SLOW });
      expect(new URL(page.url()).searchParams.get("page")).toBe("2");
      await page.getByTestId("side-menu").waitFor();
    });
  });

  it("signed in, /login and / go to the role's home page", async () => {
    await withPage(async (page) => {
      await signIn(page, "ops_manager", DEMO_PASSWORD);
      await page.goto("/login");
      await page.waitForURL((u) => u.pathname === "/branch", { timeout: SLOW });
      await page.goto("/");
      await page.waitForURL((u) => u.pathname === "/branch", { timeout: SLOW });
    });
  });

  it("an unknown path shows the not-found screen", async () => {
    await withPage(async (page) => {
      await page.goto("/no/such/page");
      await page.getByTestId("not-found").waitFor();
      expect(pathOf(page)).toBe("/no/such/page");
      await signIn(page, "admin", DEMO_PASSWORD);
      await page.goto("/no/such/page");
      await page.getByTestId("not-found").waitFor();
    });
  });

  it("a route the user's roles may not open shows 'You do not have access to this page', not the not-found screen", async () => {
    await withPage(async (page) => {
      await signIn(page, "hod", DEMO_PASSWORD);
      await page.goto("/company");
      const screen = page.getByTestId("forbidden");
      await screen.waitFor();
      expect(await screen.textContent()).toContain("You do not have access to this page");
      expect(await page.getByTestId("not-found").count()).toBe(0);
    });
  });

  it("the menu is 210 px wide and collapses to 80 px", async () => {
    await withPage(async (page) => {
      await signIn(page, "admin", DEMO_PASSWORD);
      const menu = page.getByTestId("side-menu");
      expect(Math.round((await menu.boundingBox())!.width)).toBe(210);
      await page.getByTestId("menu-collapse").click();
      await page.waitForFunction(() => Math.round(document.querySelector('[data-testid="side-menu"]')!.getBoundingClientRect().width) === 80);
      expect(Math.round((await menu.boundingBox())!.width)).toBe(80);
    });
  });
});

/** Creates an active staff account through POST /api/v2/users, signed in as admin. */
async function createThrowawayAccount(): Promise<string> {
  const headers = { "content-type": "application/json", "x-forwarded-for": "10.99.0.1" };
  let signIn = await fetch(`${baseURL}/auth/sign-in`, { method: "POST", headers, body: JSON.stringify({ username: "admin", password: DEMO_PASSWORD }) });
  for (let i = 0; signIn.status === 429 && i < 5; i++) {
    await new Promise((r) => setTimeout(r, 15_000)); // the per-address sign-in limit
    signIn = await fetch(`${baseURL}/auth/sign-in`, { method: "POST", headers, body: JSON.stringify({ username: "admin", password: DEMO_PASSWORD }) });
  }
  const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
  const username = `lockcheck${Date.now().toString(36)}`;
  const res = await fetch(`${baseURL}/api/v2/users`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ username, email: `${username}@example.com`, firstName: "Lock", lastName: "Check", multipleRoles: ["sales"] }),
  });
  if (res.status !== 201) throw new Error(`could not create the throwaway account: ${res.status} ${await res.text()}`);
  return username;
}

// Issue 32 §6: failed sign-ins make the address wait, longer each time, instead of locking the account (the spec's
// locked message shows for long waits and for an administrator's lock: tests/server/auth-throttle.test.ts).
describe("failed sign-ins", () => {
  it("five wrong passwords, then a wait, not a lock", async () => {
    const username = await createThrowawayAccount();
    await withPage(async (page) => {
      await page.goto("/login");
      for (let i = 1; i <= 5; i++) {
        const refused = await submitSignIn(page, username, `Wrong@${i}xyz`);
        if (i < 5) expect(refused).toBe("Incorrect username or password.");
        else expect(refused).toBe(WAIT);
      }
      expect(await submitSignIn(page, username, "Wrong@6xyz")).toBe(WAIT);
      await page.getByText(WAIT).waitFor();
      expect(pathOf(page)).toBe("/login");
    });
  });
});
