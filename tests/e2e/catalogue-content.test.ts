/**
 * Content management (spec part 2 §2, §6: intern; issue 7 §4) in a real browser: categories, resource
 * categories, posts, resource details and surveys — create, list, update; sales cannot reach them.
 */
import { describe, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";
import { counter, expectNotFound, pick, stamp, total, waitForTotal, withRole } from "./catalogue-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

async function createAndUpdate(page: Page, list: string, fillForm: (name: string) => Promise<void>, labelField = "title") {
  await page.goto(list);
  const before = total(await counter(page));
  await page.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(`**${list}/create`);
  const name = `Item ${stamp()}`;
  await fillForm(name);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL((u) => u.pathname === list);
  await waitForTotal(page, before + 1);
  await page.locator(".ant-table-row", { hasText: name }).getByLabel("Edit", { exact: true }).click();
  await page.waitForURL(new RegExp(`${list}/[0-9a-f-]+/update$`));
  // the form is filled from the record before it is changed
  await page.waitForFunction(([id, want]) => (document.querySelector(`#${id}`) as HTMLInputElement | null)?.value === want, [`field-${labelField}`, name] as const);
  await page.locator(`#field-${labelField}`).fill(`${name} updated`);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL((u) => u.pathname === list);
  await page.getByText(`${name} updated`).waitFor();
}

describe("content management, by intern", () => {
  it("category", async () => {
    await withRole(browser(), baseURL, "intern", (page) =>
      createAndUpdate(page, "/content-management/category", async (name) => {
        await page.locator("#field-name").fill(name);
      }, "name"),
    );
  });

  it("resource category (second level under a first-level one)", async () => {
    await withRole(browser(), baseURL, "intern", (page) =>
      createAndUpdate(page, "/content-management/resource/category", async (name) => {
        await page.locator("#field-name").fill(name);
        await page.locator("#field-level").fill("2");
        await pick(page, "field-parentId", "Worksheets");
      }, "name"),
    );
  });

  it("post with rich text content", async () => {
    await withRole(browser(), baseURL, "intern", (page) =>
      createAndUpdate(page, "/content-management/post", async (name) => {
        await page.locator("#field-title").fill(name);
        await pick(page, "field-contentCategoryId", "Events");
        await page.locator(".ql-editor").first().click();
        await page.keyboard.type("A short post.");
      }),
    );
  });

  it("resource detail", async () => {
    await withRole(browser(), baseURL, "intern", (page) =>
      createAndUpdate(page, "/content-management/resource/detail", async (name) => {
        await page.locator("#field-title").fill(name);
        await pick(page, "field-resourceCategoryId", "Science");
        await page.locator("#field-link").fill("https://example.com/r.pdf");
      }),
    );
  });

  it("survey", async () => {
    await withRole(browser(), baseURL, "intern", (page) =>
      createAndUpdate(page, "/content-management/survey", async (name) => {
        await page.locator("#field-title").fill(name);
        await page.locator("#field-link").fill("https://example.com/s");
      }),
    );
  });

  it("sales cannot reach content management", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await expectNotFound(page, "/content-management/post");
      await expectNotFound(page, "/content-management/category/create");
    });
  });
});
