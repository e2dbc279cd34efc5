/**
 * Money received in a real browser (issue 15): from an issued payment advice a front desk opens its
 * invoice, records a part payment in cash and the rest by NETS, opens and downloads the receipt; a
 * finance_staff voids the wrong payment with a reason and the invoice is partly paid again. Issue 35: finance_staff
 * imports a bank statement whose PayNow credits name two PAs, confirms both, and the PAs show paid with receipts.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";
import { paFields } from "../support/finance.ts";
import { centsToNumeric, numericToCents, formatMoney } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { chooseOption, selectBox, withRole } from "./catalogue-support.ts";
import { apiClient } from "./api-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();
const { tokenOf, gql, rest } = apiClient(baseURL);

/** An issued PA of a BME student for an open regular class, made through the calls the builder uses. */
async function issuedPaymentAdvice(): Promise<{ id: string; name: string; total: number }> {
  const token = await tokenOf("front_desk");
  const { classes } = await gql<{ classes: { id: string; companyId: string; branchId: string; lessons: { termId: string; date: string }[] }[] }>(
    token,
    `{ classes(where: {classType: {_eq: "regular"}, classStatus: {_eq: "open"}, status: {_eq: "active"}, company: {shortName: {_eq: "BME"}},
         lessons: {lessonStatus: {_eq: "active"}, termId: {_is_null: false}}}, order_by: {name: asc}, limit: 1) {
         id companyId branchId lessons(where: {lessonStatus: {_eq: "active"}, status: {_eq: "active"}, termId: {_is_null: false}}, order_by: {date: asc}, limit: 1) { termId date } } }`,
  );
  const c = classes[0]!;
  const { users } = await gql<{ users: { id: string }[] }>(token, `query($c: uuid!) { users(where: {type: {_eq: "student"}, status: {_eq: "active"}, companyId: {_eq: $c}}, order_by: {username: desc}, limit: 1) { id } }`, { c: c.companyId });
  const fields = paFields({ id: c.id, companyId: c.companyId, branchId: c.branchId, termId: c.lessons[0]!.termId, start: c.lessons[0]!.date, programId: "" }, users[0]!.id);
  const draft = await rest<{ id: string; updatedAt: string }>(token, "POST", "/finances/payment-advices/init", fields);
  const issued = await rest<{ id: string; name: string; summary: { total: string } }>(token, "PUT", `/finances/payment-advices/${draft.id}`, { ...fields, action: "issue", updatedAt: draft.updatedAt });
  return { id: issued.id, name: issued.name, total: numericToCents(issued.summary.total)! };
}

async function recordPayment(page: Page, amount: string | null, method: string): Promise<void> {
  await page.getByRole("button", { name: "Record payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Record payment" });
  if (amount !== null) await dialog.getByLabel("Amount").fill(amount);
  // the dialog may still be opening: chooseOption's click waits for it to settle, and clicks again if the options do not show
  await chooseOption(page, selectBox(dialog, "paymentMethod"), new RegExp(`^${method}$`));
  await dialog.getByRole("button", { name: "Record" }).click();
  await dialog.waitFor({ state: "hidden" });
}

describe("money received", () => {
  it("front_desk records a part payment in cash and the rest by NETS, prints the receipt; finance_staff voids a wrong payment with a reason", async () => {
    const pa = await issuedPaymentAdvice();
    const balance = (page: Page) => page.getByTestId("balance-due");
    const invoiceUrl = await withRole(browser(), baseURL, "front_desk", async (page) => {
      await page.goto(`/finance/payment-advice/edit/${pa.id}`);
      await page.getByRole("button", { name: "Invoice & Payments" }).click();
      await page.waitForURL(new RegExp(`/finance/invoice/${pa.id}/[0-9a-f-]{36}$`));
      await expect.poll(() => page.getByTestId("invoice-status").textContent()).toBe("Active");
      expect(await balance(page).textContent()).toBe(formatMoney(pa.total));

      await recordPayment(page, "50.00", "Cash");
      await expect.poll(() => balance(page).textContent()).toBe(formatMoney(pa.total - 5000));
      expect(await page.getByTestId("invoice-status").textContent()).toBe("Partial Payment");
      // the dialog offers what is left to pay
      await recordPayment(page, null, "NETS");
      await expect.poll(() => page.getByTestId("invoice-status").textContent()).toBe("Paid");
      expect(await balance(page).textContent()).toBe("S$0.00");
      const rows = page.locator(".ant-table-tbody tr");
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(1).textContent()).toContain("NETS");

      // the receipt of the cash payment: printable, with its PDF
      const url = page.url();
      await rows.nth(0).getByRole("link", { name: /^RC-BME-/ }).click();
      await page.getByTestId("receipt-paper").waitFor();
      expect(await page.getByTestId("receipt-paper").textContent()).toContain("S$50.00");
      expect(await page.getByTestId("receipt-paper").textContent()).toContain("Cash");
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download PDF" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^RC-BME-\d{4}-\d{5}\.pdf$/);
      // front desk has no right to void payments: no Void button
      await page.goto(url);
      await page.getByTestId("invoice-status").waitFor();
      expect(await page.getByRole("button", { name: "Void" }).count()).toBe(0);
      return url;
    });

    await withRole(browser(), baseURL, "finance_staff", async (page) => {
      await page.goto(new URL(invoiceUrl).pathname);
      const netsRow = page.locator(".ant-table-tbody tr", { hasText: "NETS" });
      await netsRow.getByRole("button", { name: "Void" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Void" }).click();
      await dialog.getByText("Please enter the reason.").waitFor();
      await dialog.getByLabel("Reason").fill("NETS terminal charged the wrong card");
      await dialog.getByRole("button", { name: "Void" }).click();
      await expect.poll(() => page.getByTestId("invoice-status").textContent()).toBe("Partial Payment");
      expect(await balance(page).textContent()).toBe(formatMoney(pa.total - 5000));
      expect(await netsRow.textContent()).toContain("Voided");
    });
  });

  // Issue 31: the dialog's button is busy from the first click (antd's confirmLoading; a form resolves only the
  // last of overlapping validations), so the second click of a double click sends nothing
  it("a double click on Record records the payment once", async () => {
    const pa = await issuedPaymentAdvice();
    const invoiceId = await withRole(browser(), baseURL, "front_desk", async (page) => {
      await page.goto(`/finance/payment-advice/edit/${pa.id}`);
      await page.getByRole("button", { name: "Invoice & Payments" }).click();
      await page.waitForURL(new RegExp(`/finance/invoice/${pa.id}/[0-9a-f-]{36}$`));
      await expect.poll(() => page.getByTestId("invoice-status").textContent()).toBe("Active");
      await page.getByRole("button", { name: "Record payment" }).click();
      const dialog = page.getByRole("dialog", { name: "Record payment" });
      await dialog.getByLabel("Amount").fill("20.00");
      await dialog.getByRole("button", { name: "Record" }).dblclick();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(() => page.getByTestId("balance-due").textContent()).toBe(formatMoney(pa.total - 2000));
      await page.waitForLoadState("networkidle");
      return page.url().split("/").pop()!;
    });
    const invoice = await rest<{ payments: { amount: string }[] }>(await tokenOf("front_desk"), "GET", `/finances/invoices/${invoiceId}`);
    expect(invoice.payments.map((p) => p.amount)).toEqual(["20.00"]);
  });

  it("finance_staff imports a bank statement, confirms the PayNow credits in bulk, and the PAs show paid with their receipts", async () => {
    const pas = [await issuedPaymentAdvice(), await issuedPaymentAdvice()];
    const today = todayInSingapore().split("-").reverse().join("/");
    // "Amount In" is no heading the screen guesses: the credit column is chosen by hand, and remembered for the bank
    const csv = [
      "Date,Description,Reference,Amount In,Amount Out",
      `${today},PAYNOW OTHR,${pas[0]!.name},${centsToNumeric(pas[0]!.total)},`,
      `${today},PAYNOW TRANSFER ${pas[1]!.name.replace(/-/g, "")},,${centsToNumeric(pas[1]!.total)},`,
      `${today},GIRO RENT,,,1200.00`,
    ].join("\n");
    await withRole(browser(), baseURL, "finance_staff", async (page) => {
      await page.goto("/finance/bank-reconciliation");
      const bank = `E2E Bank ${Date.now()}`;
      const statement = { name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(csv) };
      await page.getByLabel("Bank").fill(bank);
      await page.locator('input[type="file"]').setInputFiles(statement);
      // date, description and reference are guessed from the headings; the credit amount is chosen
      await chooseOption(page, selectBox(page.locator("form"), "creditColumn"), "Amount In");
      await page.getByRole("button", { name: "Import" }).click();
      await page.getByText("Imported 2 credit lines; 0 already imported; 1 debit or blank lines skipped.").waitFor();
      // the same file again, the bank typed after choosing it: the bank's mapping applies, and nothing is imported twice
      await page.reload();
      await page.locator('input[type="file"]').setInputFiles(statement);
      await page.getByLabel("Bank").fill(bank);
      await page.getByLabel("Bank").blur();
      await expect.poll(() => selectBox(page.locator("form"), "creditColumn").textContent()).toBe("Amount In");
      await page.getByRole("button", { name: "Import" }).click();
      await page.getByText("Imported 0 credit lines; 2 already imported; 1 debit or blank lines skipped.").waitFor();
      for (const pa of pas) {
        const row = page.locator(".ant-table-tbody tr", { hasText: pa.name });
        await expect.poll(() => row.textContent()).toContain("Exact");
        await row.getByRole("checkbox").check();
      }
      await page.getByRole("button", { name: "Confirm 2 payments" }).click();
      await page.getByText("2 payments recorded.").waitFor();
      await page.getByRole("tab", { name: "Recorded" }).click();
      for (const pa of pas) await expect.poll(() => page.locator(".ant-table-tbody tr", { hasText: pa.name }).textContent()).toMatch(/RC-BME-\d{4}-\d{5}/);
      await page.locator(".ant-table-tbody tr", { hasText: pas[0]!.name }).getByRole("link", { name: /^RC-BME-/ }).click();
      await page.getByTestId("receipt-paper").waitFor();
      expect(await page.getByTestId("receipt-paper").textContent()).toContain("QR Code (PayNow)");
      expect(await page.getByTestId("receipt-paper").textContent()).toContain(formatMoney(pas[0]!.total));
      for (const pa of pas) {
        await page.goto(`/finance/payment-advice/paper/${pa.id}`);
        await page.getByTestId("pa-paper").waitFor();
        expect(await page.getByTestId("pa-paper").textContent()).toContain("Status: Paid");
        // a paid PA has nothing left to pay by QR: the reference alone
        expect(await page.getByTestId("paper-paynow").count()).toBe(0);
        expect(await page.getByTestId("paper-reference").textContent()).toBe(`Reference: ${pa.name}`);
      }
    });
  });
});
