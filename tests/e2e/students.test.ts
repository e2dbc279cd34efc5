/**
 * Issue 12 in a real browser against the built app and the real server with demo data: front desk and an
 * intern each create a student with two parents and a sibling through the three steps, find them in the
 * list by a partial name, open the view and edit the phone; the four roles whose home is the students
 * list land on it.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";
import { counter, pick, stamp, withRole } from "./catalogue-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

async function createStudent(page: Page, lastName: string) {
  await page.goto("/student-management/create-account");
  // step 1: account
  await page.locator("#student-firstName").fill("Browser");
  await page.locator("#student-lastName").fill(lastName);
  await page.locator("#student-username").fill(`browser.${lastName.toLowerCase()}`);
  await pick(page, "student-branch");
  await page.getByRole("button", { name: "Next" }).click();
  // step 2: two parents and a sibling
  await page.locator("#parent-0-firstName").waitFor();
  await page.locator("#parent-0-firstName").fill("Kok Wah");
  await page.getByTestId("parent-0-phone").getByLabel("Phone number").fill("91234567");
  await page.getByRole("button", { name: /Add Parent/ }).click();
  await pick(page, "parent-1-relationship", "Mother");
  await page.locator("#parent-1-firstName").fill("Mei");
  await page.getByTestId("parent-1-phone").getByLabel("Phone number").fill("87654321");
  await pick(page, "student-siblings");
  await page.getByRole("button", { name: "Next" }).click();
  // step 3: student information
  await page.getByRole("button", { name: "Finish" }).waitFor();
  await pick(page, "student-school");
  await pick(page, "student-curriculum");
  await pick(page, "student-level");
  await page.getByRole("button", { name: "Finish" }).click();
  await page.waitForURL(/\/student-management\/student\/[0-9a-f-]+\/view$/);
  await page.getByRole("tab", { name: "Profile & Family" }).waitFor();
  const parents = (await page.locator("table[aria-label='Parents'], [aria-label='Parents'] table").first().textContent()) ?? "";
  expect(parents).toContain("Kok Wah");
  expect(parents).toContain("Mei");
  expect(await page.textContent("body")).toMatch(/Siblings.*\(/);
}

async function findAndEditPhone(page: Page, lastName: string) {
  await page.goto("/student-management");
  await counter(page);
  await page.locator("#students-search").fill(lastName.slice(2).toLowerCase());
  await page.getByRole("button", { name: /Search/ }).click();
  const link = page.getByRole("link", { name: `Browser ${lastName}` });
  await link.waitFor();
  await expect.poll(() => page.getByTestId("record-counter").textContent(), { timeout: 15_000 }).toContain("out of 1 records");
  expect(page.url()).toContain("filters");
  await link.click();
  await page.waitForURL(/\/view$/);
  const card = page.getByLabel("Student card");
  expect(await card.textContent()).toContain(`browser.${lastName.toLowerCase()}`);
  expect(await page.textContent("body")).toContain("Kok Wah");
  await page.getByRole("button", { name: "Edit Account" }).click();
  await page.waitForURL(/\/student-management\/edit-account\/[0-9a-f-]+$/);
  const phone = page.getByLabel("Phone number");
  await phone.fill("");
  await phone.fill("81112222");
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(/\/view$/);
  await page.waitForFunction(() => document.querySelector('[aria-label="Student card"]')?.textContent?.includes("+65 81112222"));
  // the student's History (issue 36): the phone before → after, by whom and when
  await page.getByRole("button", { name: "History", exact: true }).click();
  const history = page.locator(".ant-drawer").filter({ hasText: "History" });
  await history.getByText(/^Phone: .+ → .*81112222/).waitFor();
  await history.getByText(/^Updated by .+, \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/).first().waitFor();
}

describe("Students: create through the three steps, find, view, edit the phone", () => {
  it.each(["front_desk", "intern"])("%s", async (role) => {
    const lastName = `Pupil${stamp()}${role === "intern" ? "i" : "f"}`;
    await withRole(browser(), baseURL, role, async (page) => {
      await createStudent(page, lastName);
      await findAndEditPhone(page, lastName);
    });
  });
});

describe("the students list is the home page of front desk, finance staff, finance manager and intern", () => {
  it.each(["front_desk", "finance_staff", "finance_manager", "intern"])("%s", async (role) => {
    await withRole(browser(), baseURL, role, async (page) => {
      await page.waitForURL((u) => u.pathname === "/student-management");
      expect(await counter(page)).toMatch(/^Viewing from 1 - 10 \(out of \d+ records\)$/);
      expect(await page.getByPlaceholder("Search by student name or username").count()).toBe(1);
    });
  });
});
