/**
 * Issue 5 §8, in a real browser against the built app and the real server with demo data: each demo
 * account signs in, lands on its home page and sees exactly its menu; multi_role gets the merged menu
 * and the precedence home. Screenshots of each home page go to tests/e2e/artifacts/.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { artifactsDir, useBrowser } from "../support/browser.ts";
import { DEMO_PASSWORD, EXPECTED_HOMES, EXPECTED_MENUS } from "../support/spec-menus.ts";
import { SLOW, menuLabels, newContext, pathOf, signIn } from "./shell-support.ts";


const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

const MERGED_FRONT_DESK_HOD = EXPECTED_MENUS.front_desk; // front_desk's menu already holds Attendance

describe("each demo account lands on its home page and sees exactly its menu", () => {
  const accounts: [string, string[]][] = [
    ...Object.entries(EXPECTED_MENUS),
    ["multi_role", MERGED_FRONT_DESK_HOD],
  ];

  it.each(accounts)("%s", async (username, expectedMenu) => {
    const context = await newContext(browser(), baseURL);
    const page = await context.newPage();
    try {
      await page.goto("/");
      await page.waitForURL("**/login", { timeout: SLOW });
      await signIn(page, username, DEMO_PASSWORD);
      await page.waitForURL((u) => u.pathname === EXPECTED_HOMES[username], { timeout: SLOW });
      expect(pathOf(page)).toBe(EXPECTED_HOMES[username]);
      expect(await menuLabels(page)).toEqual(expectedMenu);
      await expect(page.getByTestId("role-badge").textContent()).resolves.toBeTruthy();
      const year = String(new Date().getFullYear());
      expect(await page.getByTestId("app-footer").textContent()).toContain(year);
      // every group label is whole and ends clear of its arrow in the 210 px menu
      const overlaps = await page.locator("[data-menu-group]").evaluateAll((spans) =>
        spans
          .map((e) => ({ label: e.textContent, cut: e.scrollWidth > e.clientWidth, gap: e.closest(".ant-menu-submenu-title")!.querySelector(".ant-menu-submenu-arrow")!.getBoundingClientRect().left - e.getBoundingClientRect().right }))
          .filter((g) => g.cut || g.gap < 4),
      );
      expect(overlaps).toEqual([]);
      const header = await page.getByTestId("app-header").boundingBox();
      expect(Math.round(header!.height)).toBe(60);
      // Let the home page finish loading before the screenshot (the live query keeps a socket open, so no networkidle).
      await page.waitForFunction(() => !document.querySelector(".ant-spin-spinning"), null, { timeout: 15_000 }).catch(() => undefined);
      await page.screenshot({ path: path.join(artifactsDir, `home-${username}.png`), fullPage: true });
    } finally {
      await context.close();
    }
  });
});

describe("profile block", () => {
  it("links to /user/{id}/view and shows the label of the last role (multi_role: front_desk then hod)", async () => {
    const context = await newContext(browser(), baseURL);
    const page = await context.newPage();
    try {
      await signIn(page, "multi_role", DEMO_PASSWORD);
      const href = await page.getByTestId("profile-block").getAttribute("href");
      expect(href).toMatch(/^\/user\/[^/]+\/view$/);
      expect((await page.getByTestId("role-badge").textContent())?.trim()).toBe("Head of Department");
    } finally {
      await context.close();
    }
  });
});
