/**
 * The generated pages in Chromium against the real server on demo data: the admin creates, finds (filter),
 * edits, views and deletes a company; the ops manager creates a branch and a classroom in it; the counter
 * text and the continuing index on page 2 of a list.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";
import { newContext, signIn, SLOW } from "./shell-support.ts";
import { typeDate } from "./catalogue-support.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";

const browser = useBrowser();

async function asUser(username: string): Promise<Page> {
  const context = await newContext(browser(), e2eServer().baseUrl);
  const page = await context.newPage();
  await signIn(page, username, DEMO_PASSWORD);
  return page;
}

const counter = (page: Page) => page.getByTestId("record-counter");
const filters = (page: Page) => page.locator('form[aria-label="Filters"]');
const firstRow = (page: Page) => page.locator(".ant-table-tbody tr.ant-table-row").first();

async function pickOption(page: Page, inputId: string, search: string, option: string) {
  await page.locator(`#${inputId}`).click();
  await page.locator(`#${inputId}`).fill(search);
  await page.locator(`.ant-select-item-option[title="${option}"]`).click({ timeout: SLOW });
}

describe("admin: a company from creation to deletion", () => {
  it("creates, filters, edits, views and deletes a company", async () => {
    const page = await asUser("admin");
    const name = `E2E Tuition ${Date.now()}`;
    await page.goto("/company");
    await counter(page).waitFor({ timeout: SLOW });

    // create
    await page.getByRole("button", { name: /Create/ }).click();
    await page.waitForURL("**/company/create", { timeout: SLOW });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please input Company Name!").waitFor({ timeout: SLOW });
    await page.locator("#field-name").fill(name);
    await page.locator("#field-shortName").fill("E2E");
    await page.locator("#field-uen").fill("12345");
    await page.locator("#field-telNo").fill("+65 6123 4567");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please enter a valid UEN (e.g. 201912345K).").waitFor({ timeout: SLOW });
    await page.locator("#field-uen").fill("202612345Z");
    // the server's rule (POST /companies): a GST-registered company needs its GST number, shown on the field
    await page.locator("#field-hasGstNo").click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator(".ant-form-item-explain-error", { hasText: "Please input GST Reg. No.!" }).waitFor({ timeout: SLOW });
    await page.locator("#field-gstRefNo").fill("202612345Z");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL((u) => u.pathname === "/company", { timeout: SLOW });

    // find it with the filter (kept in the URL)
    await filters(page).getByLabel("Company Name").fill(name);
    await filters(page).getByRole("button", { name: /Search/ }).click();
    await expect.poll(() => counter(page).textContent(), { timeout: SLOW }).toBe("Viewing from 1 - 1 (out of 1 records)");
    expect(decodeURIComponent(page.url()).replace(/\+/g, " ")).toContain(`filters[0][value]=${name}`);
    expect(await firstRow(page).textContent()).toContain("202612345Z");

    // edit
    await firstRow(page).getByLabel("Edit", { exact: true }).click();
    await page.waitForURL(/\/company\/[0-9a-f-]{36}\/update$/, { timeout: SLOW });
    await expect.poll(() => page.locator("#field-name").inputValue(), { timeout: SLOW }).toBe(name);
    await page.locator("#field-shortName").fill("E2E-X");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL((u) => u.pathname === "/company", { timeout: SLOW });

    // back where the user was: the list keeps its filter and shows the saved values
    expect(decodeURIComponent(page.url()).replace(/\+/g, " ")).toContain(`filters[0][value]=${name}`);
    await expect.poll(() => counter(page).textContent(), { timeout: SLOW }).toBe("Viewing from 1 - 1 (out of 1 records)");
    await expect.poll(() => firstRow(page).textContent(), { timeout: SLOW }).toContain("E2E-X");

    // delete (soft), after a confirmation
    await firstRow(page).getByLabel("Delete", { exact: true }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect.poll(() => counter(page).textContent(), { timeout: SLOW }).toBe("Viewing from 0 - 0 (out of 0 records)");
    await page.context().close();
  });
});

describe("ops_manager: a branch and a classroom in it", () => {
  it("creates a branch, opens its detail and adds a classroom", async () => {
    const page = await asUser("ops_manager");
    const name = `E2E Branch ${Date.now()}`;
    await page.goto("/branch/create");
    await page.locator("#field-name").fill(name);
    await page.locator("#field-abbreviation").fill("E2E");
    await pickOption(page, "field-companyId", "Bright", "Bright Minds Education Pte Ltd");
    await page.locator("#field-address").fill("1 Test Road");
    await page.locator("#field-postalCode").fill("123456");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL((u) => u.pathname === "/branch", { timeout: SLOW });

    await filters(page).getByLabel("Branch Name").fill(name);
    await filters(page).getByRole("button", { name: /Search/ }).click();
    await expect.poll(() => counter(page).textContent(), { timeout: SLOW }).toBe("Viewing from 1 - 1 (out of 1 records)");
    await expect.poll(() => firstRow(page).textContent(), { timeout: SLOW }).toContain("Bright Minds Education Pte Ltd");
    await firstRow(page).getByLabel("View", { exact: true }).click();
    await page.waitForURL(/\/branch\/[0-9a-f-]{36}\/detail$/, { timeout: SLOW });
    const branchPath = new URL(page.url()).pathname;
    await page.locator(".ant-descriptions").getByText(name).waitFor({ timeout: SLOW });

    // the classroom list on the detail page: empty, then one classroom
    const classrooms = page.locator(".ant-card").filter({ hasText: "Classrooms" });
    await expect.poll(() => classrooms.getByTestId("record-counter").textContent(), { timeout: SLOW }).toBe("Viewing from 0 - 0 (out of 0 records)");
    await classrooms.getByRole("button", { name: /Create/ }).click();
    await page.waitForURL(`**${branchPath}/class-room/add-new`, { timeout: SLOW });
    expect(await page.locator("#field-capacity").inputValue()).toBe("20");
    await page.locator("#field-name").fill("Room E2E");
    await page.locator("#field-capacity").fill("16");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`**${branchPath}`, { timeout: SLOW });
    await expect.poll(() => classrooms.getByTestId("record-counter").textContent(), { timeout: SLOW }).toBe("Viewing from 1 - 1 (out of 1 records)");
    expect(await classrooms.locator(".ant-table-tbody").textContent()).toContain("Room E2E");
    await page.context().close();
  });
});

describe("lists: the counter and the index on page 2", () => {
  it("continues the index on page 2 of the holidays", async () => {
    const page = await asUser("admin");
    // ten demo holidays; one more makes a second page
    await page.goto("/programme/holiday/create");
    await page.locator("#field-name").fill("E2E Centre Day");
    await typeDate(page.locator("#field-date"), "2026-12-26");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL((u) => u.pathname === "/programme/holiday", { timeout: SLOW });
    await expect.poll(() => counter(page).textContent(), { timeout: SLOW }).toMatch(/^Viewing from 1 - 10 \(out of (\d+) records\)$/);
    const total = Number(/out of (\d+)/.exec((await counter(page).textContent())!)![1]);
    expect(total).toBeGreaterThan(10);
    await page.locator(".ant-pagination-item-2").click();
    await expect.poll(() => counter(page).textContent(), { timeout: SLOW }).toBe(`Viewing from 11 - ${Math.min(20, total)} (out of ${total} records)`);
    // the page is written to the URL once the table has switched (an effect after the render that shows it)
    await page.waitForURL(/currentPage=2/, { timeout: SLOW });
    await expect.poll(() => firstRow(page).locator("td").first().textContent(), { timeout: SLOW }).toBe("11");
    expect(await page.locator(".ant-pagination-options-quick-jumper").count()).toBe(1);
    expect(await page.locator(".ant-pagination-options-size-changer").count()).toBe(0);
    await page.context().close();
  });
});
