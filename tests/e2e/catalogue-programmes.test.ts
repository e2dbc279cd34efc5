/**
 * Programmes (spec part 1 §2 "Programme", §6: ops_manager; issue 7 §3) in a real browser: curriculums
 * with their levels, categories and programme types (a type created and edited in a dialog), academic terms with their terms, programmes —
 * create, list, edit or view; sales cannot reach them.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { useBrowser } from "../support/browser.ts";
import { chooseOption, counter, expectNotFound, pick, selectBox, stamp, total, typeDate, waitForTotal, withRole } from "./catalogue-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

describe("programmes, by ops_manager", () => {
  it("curriculum & level: lists the curriculums with their levels and creates one", async () => {
    await withRole(browser(), baseURL, "ops_manager", async (page) => {
      await page.goto("/programme/curriculum-level");
      const before = total(await counter(page));
      expect(await page.locator(".ant-table-tbody").textContent()).toMatch(/S1|J1/);
      await page.getByRole("button", { name: "Create" }).click();
      await page.waitForURL("**/programme/curriculum-level/create");
      const s = stamp();
      await page.locator("#field-name").fill(`Normal Academic ${s}`);
      await page.locator("#field-abbreviation").fill(`NA${s}`);
      await pick(page, "field-companyId");
      await pick(page, "field-levelIds", "S1");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/programme/curriculum-level");
      await page.getByText(`Normal Academic ${s}`).waitFor();
      await waitForTotal(page, before + 1);
    });
  });

  it("categories & type: both lists; a programme type created and edited in a dialog", async () => {
    await withRole(browser(), baseURL, "ops_manager", async (page) => {
      await page.goto("/programme/categories-type");
      await page.getByText("Programme Categories").waitFor();
      await page.getByText("Programme Types").waitFor();
      await page.getByText("Double Lesson Weekday").first().waitFor();
      const s = stamp();
      await page.getByRole("button", { name: "Create" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Create Programme Type").waitFor();
      await dialog.locator("#field-name").fill(`Camp ${s}`);
      await chooseOption(page, selectBox(dialog, "field-categoryId"), "Special");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "hidden" });
      const row = page.locator(".ant-table-row", { hasText: `Camp ${s}` });
      await row.waitFor();
      await row.getByLabel("Edit", { exact: true }).click();
      await page.waitForFunction((want) => (document.querySelector(".ant-modal #field-name") as HTMLInputElement | null)?.value === want, `Camp ${s}`);
      await page.getByRole("dialog").locator("#field-name").fill(`Camp ${s} June`);
      await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
      await page.locator(".ant-table-row", { hasText: `Camp ${s} June` }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/programme/categories-type");
    });
  });

  it("academic term: creates a calendar with a term, edits it", async () => {
    await withRole(browser(), baseURL, "ops_manager", async (page) => {
      await page.goto("/programme/academic-term");
      const before = total(await counter(page));
      await page.getByRole("button", { name: "Create" }).click();
      await page.waitForURL("**/programme/academic-term/create");
      const s = stamp();
      await page.locator("#field-name").fill(`Calendar ${s}`);
      await pick(page, "field-companyId");
      await page.getByRole("button", { name: "Add term" }).click();
      await typeDate(page.getByLabel("Term 1 start date"), "2026-01-05");
      await typeDate(page.getByLabel("Term 1 end date"), "2026-03-20");
      await page.getByLabel("Term 1 number of lessons").fill("11");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/programme/academic-term");
      await waitForTotal(page, before + 1);
      const row = page.locator(".ant-table-row", { hasText: `Calendar ${s}` });
      await row.getByLabel("Edit", { exact: true }).click();
      await page.waitForURL(/\/programme\/academic-term\/[0-9a-f-]+\/edit$/);
      expect(await page.getByLabel("Term 1 number of lessons").inputValue()).toBe("11");
      await page.locator("#field-name").fill(`Calendar ${s} renamed`);
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/programme/academic-term");
      await page.getByText(`Calendar ${s} renamed`).waitFor();
    });
  });

  it("programme management: creates a programme and views it", async () => {
    await withRole(browser(), baseURL, "ops_manager", async (page) => {
      await page.goto("/programme/management");
      const before = total(await counter(page));
      await page.getByRole("button", { name: "Create" }).click();
      await page.waitForURL("**/programme/management/create");
      const s = stamp();
      await page.locator("#field-name").fill(`Geography Weekly ${s}`);
      await pick(page, "field-companyId");
      await pick(page, "field-subjectId");
      // a curriculum file through the presigned upload, from the browser's own address (127.0.0.1)
      await page.locator("#field-curriculumFiles").setInputFiles({ name: "syllabus.txt", mimeType: "text/plain", buffer: Buffer.from("Week 1: maps") });
      await page.getByText("syllabus.txt").first().waitFor();
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/programme/management");
      await waitForTotal(page, before + 1);
      await page.locator(".ant-table-row", { hasText: `Geography Weekly ${s}` }).getByLabel("View", { exact: true }).click();
      await page.waitForURL(/\/programme\/management\/[0-9a-f-]+\/view$/);
      await page.getByText("Enrolled Students").first().waitFor();
      await page.getByText("WLWD").first().waitFor();
      await page.getByText("Curriculum Files").first().waitFor();
      const link = page.getByRole("link", { name: "syllabus.txt" });
      const href = await link.getAttribute("href");
      expect(href).toMatch(/\/media\/download\?key=curriculum-files%2F/);
      const download = await page.request.get(href!);
      expect(await download.text()).toBe("Week 1: maps");
    });
  });

  it("sales cannot reach the programme pages", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await expectNotFound(page, "/programme/management");
      await expectNotFound(page, "/programme/academic-term/create");
      await expectNotFound(page, "/programme/curriculum-level");
    });
  });
});
