/**
 * Communication (spec part 1 §6: front_desk, intern, ops_manager, sales; issue 7 §7) in a real browser:
 * a broadcast created and sent (detail shows the per-recipient status), a draft updated, news with
 * recipients uploaded from a file (delivered by the outbox: the detail then shows them sent), the three-times-absent list and the unsubscribers; hr is refused.
 */
import { describe, expect, it, vi } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { useBrowser } from "../support/browser.ts";
import { counter, expectNotFound, stamp, total, waitForTotal, withRole } from "./catalogue-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

describe("communication, by sales", () => {
  it("broadcast: save a draft, update it, send it; the detail lists the recipients' status", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await page.goto("/communication/broadcast");
      const before = total(await counter(page));
      await page.getByRole("button", { name: "Create" }).click();
      await page.waitForURL("**/communication/broadcast/create");
      const title = `Notice ${stamp()}`;
      await page.locator("#field-title").fill(title);
      await page.locator(".ql-editor").first().click();
      await page.keyboard.type("Classes resume on Monday.");
      await page.getByRole("button", { name: "Save as draft" }).click();
      await page.waitForURL((u) => u.pathname === "/communication/broadcast");
      await waitForTotal(page, before + 1);
      await page.locator(".ant-table-row", { hasText: title }).getByLabel("Edit", { exact: true }).click();
      await page.waitForURL(/\/communication\/broadcast\/update\/[0-9a-f-]+$/);
      await page.getByLabel("SMS").check();
      await page.getByRole("button", { name: "Send" }).click();
      await page.waitForURL(/\/communication\/broadcast\/broadcast-detail\/[0-9a-f-]+$/);
      await page.getByTestId("sent-logs").waitFor();
      await page.waitForFunction(() => /out of [1-9]\d* records/.test(document.querySelector('[data-testid="logs-counter"]')?.textContent ?? ""));
      // queued until the outbox delivers, then sent; failed where a recipient has no address for a channel.
      expect(await page.getByTestId("sent-logs").textContent()).toMatch(/Queued|Sent|Failed/);
    });
  });

  it("news: recipients uploaded from a file, sent, shown on the detail", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await page.goto("/communication/news/create");
      const title = `News ${stamp()}`;
      await page.locator("#field-title").fill(title);
      await page.locator(".ql-editor").first().click();
      await page.keyboard.type("Our open house is on Saturday.");
      await page.locator('input[type="file"][accept*="csv"]').setInputFiles({
        name: "recipients.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("name,email\nGuest Alpha,alpha@example.com\nGuest Beta,beta@example.com\nbroken line\n"),
      });
      await page.getByText("2 uploaded recipient(s)").waitFor();
      await page.getByText("1 line(s) skipped").waitFor();
      await page.getByText("Send only to the uploaded recipients").click();
      await page.getByRole("button", { name: "Send" }).click();
      await page.waitForURL(/\/communication\/news\/news-detail\/[0-9a-f-]+$/);
      await page.getByText("Uploaded recipients (2)").waitFor();
      await page.waitForFunction(() => /out of 2 records/.test(document.querySelector('[data-testid="logs-counter"]')?.textContent ?? ""));
      expect(await page.getByTestId("sent-logs").textContent()).toContain("alpha@example.com");
      // The outbox delivers the mails; the detail then shows each recipient's log as sent.
      await vi.waitFor(
        async () => {
          await page.reload();
          await page.waitForFunction(() => /out of 2 records/.test(document.querySelector('[data-testid="logs-counter"]')?.textContent ?? ""));
          const sent = await page.getByTestId("sent-logs").locator(".ant-table-row").filter({ has: page.locator(".ant-tag", { hasText: /^Sent$/ }) }).count();
          if (sent !== 2) throw new Error(`${sent} of 2 recipients sent so far`);
        },
        { timeout: 60_000, interval: 1000 },
      );
    });
  });

  it("three-times-absent and unsubscribers lists", async () => {
    await withRole(browser(), baseURL, "sales", async (page) => {
      await page.goto("/communication/three-times-absent");
      expect(total(await counter(page))).toBeGreaterThan(0);
      await page.goto("/communication/unsubscribers");
      expect(total(await counter(page))).toBeGreaterThan(0);
    });
  });

  it("hr cannot reach communication", async () => {
    await withRole(browser(), baseURL, "hr", async (page) => {
      await expectNotFound(page, "/communication/broadcast");
      await expectNotFound(page, "/communication/news/create");
      await expectNotFound(page, "/communication/unsubscribers");
    });
  });
});

describe("roles, by admin", () => {
  it("lists the roles with their users' count and shows the policy editor", async () => {
    await withRole(browser(), baseURL, "admin", async (page) => {
      await page.goto("/roles");
      await page.getByTestId("users-count-sales").waitFor();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="users-count-sales"]')?.textContent) >= 1);
      await page.getByTestId("policy-editor").waitFor();
      await page.getByRole("tab", { name: "Data tables" }).click();
      await page.getByText("broadcasts").first().waitFor();
    });
  });
});
