/**
 * Users (spec part 1 §2 "Users", §6; issue 7 §1) in a real browser against the built app and the real
 * server with demo data: hr lists users, creates one (username suggested from the first and last name),
 * views it (lock state), updates it; a locked account shows as locked and hr unlocks it; sales, who may
 * view a user but not list them, cannot open /user or /user/create.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { useBrowser } from "../support/browser.ts";
import { counter, expectNotFound, pick, stamp, total, waitForTotal, withRole } from "./catalogue-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

async function failSignIns(username: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await fetch(`${baseURL}/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.98.0.7" },
      body: JSON.stringify({ username, password: `Wrong@${i}abc` }),
    });
  }
}

describe("users, by hr", () => {
  it("lists, creates (username suggested), views, updates; locks show and unlock", async () => {
    await withRole(browser(), baseURL, "hr", async (page) => {
      await page.goto("/user");
      const before = total(await counter(page));
      expect(before).toBeGreaterThan(5);

      await page.getByRole("button", { name: "Create" }).click();
      await page.waitForURL("**/user/create");
      const s = stamp();
      await page.locator("#field-firstName").fill("Nora");
      await page.locator("#field-lastName").fill(`Tan${s}`);
      await page.waitForFunction((want) => (document.querySelector("#field-username") as HTMLInputElement | null)?.value === want, `noratan${s}`);
      await page.locator("#field-email").fill(`nora.${s}@example.com`);
      await pick(page, "field-roles", "Sales");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/user\/[0-9a-f-]+\/view$/);
      await page.getByTestId("lock-state").waitFor();
      expect(await page.getByTestId("lock-state").textContent()).toContain("Not locked");
      expect(await page.textContent("body")).toContain(`noratan${s}`);
      const viewUrl = new URL(page.url()).pathname;

      await page.getByRole("button", { name: "Edit" }).click();
      await page.waitForURL(/\/update$/);
      await page.locator("#field-lastName").fill(`Lim${s}`);
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === viewUrl);
      await page.getByText(`Nora Lim${s}`).first().waitFor();

      await page.goto("/user");
      await waitForTotal(page, before + 1);

      await failSignIns(`noratan${s}`, 5);
      await page.goto(viewUrl);
      await page.getByTestId("lock-state").filter({ hasText: "Locked" }).waitFor();
      await page.getByRole("button", { name: "Unlock" }).click();
      await page.getByTestId("lock-state").filter({ hasText: "Not locked" }).waitFor();
    });
  });

  it("sales may view a user but not open the user list or create", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await expectNotFound(page, "/user");
      await expectNotFound(page, "/user/create");
      await expectNotFound(page, "/roles");
      await page.getByTestId("profile-block").click();
      await page.waitForURL(/\/user\/[0-9a-f-]+\/view$/);
      await page.getByTestId("lock-state").waitFor();
      expect(await page.getByRole("button", { name: "Edit" }).count()).toBe(0);
    });
  });
});
