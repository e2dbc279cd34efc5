/**
 * Rewards (spec part 2 §6: finance_manager, finance_staff, front_desk) and finance set-up (payment
 * discount and setting: finance_manager, finance_staff; pricing: also ops_manager) in a real browser:
 * referrals created, listed, updated; a discount created at /finance/payment-discount/create/{order} with
 * that order, then its amount edited in a dialog on the list; a price edited in place; the waiver period saved; roles outside the lists are refused.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { useBrowser } from "../support/browser.ts";
import { counter, expectNotFound, pick, stamp, total, typeDate, waitForTotal, withRole } from "./catalogue-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

describe("rewards, by front_desk", () => {
  it("referral: create, list, update", async () => {
    await withRole(browser(), baseURL, "front_desk", async (page) => {
      await page.goto("/reward/referral");
      const before = total(await counter(page));
      await page.getByRole("button", { name: "Create" }).click();
      await page.waitForURL("**/reward/referral/create");
      const code = `REF${stamp().toUpperCase()}`;
      await page.locator("#field-referralCode").fill(code);
      await pick(page, "field-referrerId");
      await pick(page, "field-referreeId");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/reward/referral");
      await waitForTotal(page, before + 1);
      await page.locator(".ant-table-row", { hasText: code }).getByLabel("Edit", { exact: true }).click();
      await page.waitForURL(/\/reward\/referral\/[0-9a-f-]+\/update$/);
      await page.waitForFunction((want) => (document.querySelector("#field-referralCode") as HTMLInputElement | null)?.value === want, code);
      await pick(page, "field-referralStattus", "Successful");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/reward/referral");
      await page.locator(".ant-table-row", { hasText: code }).filter({ hasText: "Successful" }).waitFor();
    });
  });

  it("sales cannot reach referrals", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await expectNotFound(page, "/reward/referral");
    });
  });
});

describe("finance set-up, by finance_manager", () => {
  it("payment discount: created with the order of the path, listed", async () => {
    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto("/finance/payment-discount");
      const before = total(await counter(page));
      await page.goto("/finance/payment-discount/create/42");
      expect(await page.locator("#field-order").inputValue()).toBe("42");
      const name = `Loyalty ${stamp()}`;
      await page.locator("#field-name").fill(name);
      await pick(page, "field-type", "Power Pack");
      await page.locator("#field-amount").fill("25");
      await typeDate(page.locator("#field-startDate"), "2026-01-01");
      await typeDate(page.locator("#field-endDate"), "2026-12-31");
      await pick(page, "field-companyId");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/finance/payment-discount");
      await waitForTotal(page, before + 1);

      // edited in a dialog on the list: the amount changes, the name stays read-only
      await page.getByRole("form", { name: "Filters" }).getByPlaceholder("Discount Name").fill(name);
      await page.getByRole("button", { name: "Search" }).click();
      await waitForTotal(page, 1);
      const row = page.locator(".ant-table-row", { hasText: name });
      await row.getByLabel("Edit", { exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Edit Payment Discount").waitFor();
      await page.waitForFunction(() => (document.querySelector(".ant-modal #field-amount") as HTMLInputElement | null)?.value === "25");
      expect(await dialog.locator("#field-name").isDisabled()).toBe(true);
      await dialog.locator("#field-amount").fill("30");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "hidden" });
      // the list shows the new amount at once, by its unit (S$)
      await page.waitForFunction(() => document.querySelectorAll(".ant-table-row td")[5]?.textContent?.trim() === "S$30.00");
      // and it was saved
      await page.reload();
      await waitForTotal(page, 1);
      const amountCell = page.locator(".ant-table-row", { hasText: name }).locator("td").nth(5);
      await page.waitForFunction(() => document.querySelector(".ant-table-row")?.textContent?.includes("Loyalty"));
      expect((await amountCell.textContent())?.trim()).toBe("S$30.00");
    });
  });

  it("pricing: a price per lesson edited in place", async () => {
    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto("/finance/pricing");
      await counter(page);
      const input = page.locator(".ant-table-row input").first();
      await input.fill("77.50");
      const saved = page.waitForResponse((r) => r.url().includes("/v1/graphql") && (r.request().postData() ?? "").includes("update_academic_program_type_pricings"));
      await input.press("Enter");
      await saved;
      await page.getByText("Price saved.").first().waitFor();
      await page.reload();
      await counter(page);
      expect(await page.locator(".ant-table-row input").first().inputValue()).toContain("77.50");
    });
  });

  it("payment setting: the registration-fee waiver period and the deposit are saved", async () => {
    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto("/finance/payment-setting");
      const waiver = page.getByTestId("setting-waivePeriod");
      await waiver.waitFor();
      await typeDate(waiver.getByLabel("Registration Fee Waiver Period end date"), "2026-12-30");
      await waiver.getByRole("button", { name: "Save" }).click();
      await page.getByText("Registration Fee Waiver Period saved.").waitFor();
      const deposit = page.getByTestId("setting-depositSettings");
      await deposit.getByLabel("Deposit Settings amount").fill("250");
      await deposit.getByRole("button", { name: "Save" }).click();
      await page.getByText("Deposit Settings saved.").waitFor();
      await page.reload();
      await page.getByTestId("setting-depositSettings").waitFor();
      expect(await page.getByTestId("setting-depositSettings").textContent()).toContain("S$250.00");
      expect(await page.getByTestId("setting-waivePeriod").textContent()).toMatch(/from \d{2}\/\d{2}\/\d{4} to 30\/12\/2026/);
      // read as a person writes it: the period's start first, labels and sections in words, no internal values
      expect(await page.getByTestId("setting-waivePeriod").locator("label").allTextContents()).toEqual(["Start Date", "End Date"]);
      expect(await page.locator("h3").allTextContents()).toEqual(expect.arrayContaining(["Fees", "Deposit", "GST"]));
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("No GST (0), 7%, 8%, 9%");
      expect(text).not.toMatch(/options|\[0,7,8,9\]|\bGst\b/);
    });
  });

  it("front_desk cannot reach pricing, discounts or settings", async () => {
    await withRole(browser(), baseURL, "front_desk", async (page) => {
      await expectNotFound(page, "/finance/pricing");
      await expectNotFound(page, "/finance/payment-discount");
      await expectNotFound(page, "/finance/payment-setting");
    });
  });
});
