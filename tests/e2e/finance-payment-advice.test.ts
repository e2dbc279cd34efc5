/**
 * The payment advice end to end in Chromium (issue 14 §7): front_desk builds a PA for a student with two
 * regular classes — one starting mid-term —, a % discount, a deduction, the registration fee inside the
 * waiver period; issues it; opens the paper (its lines the PDF's, its notes inside the page) and downloads its PDF; sees its log. finance_manager voids it
 * with a reason. The preview's Total Payable is the figure the server stored.
 * And the term billing run (issue 39): finance_staff previews a class's term, unticks one student, issues the rest,
 * reads the summary, then opens a billed student's family statement with the new PA and its balance.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Locator, Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";
import { chooseOption, pick, withRole } from "./catalogue-support.ts";
import { dayjs, todayInSingapore } from "../../src/domain/dates.ts";
import { apiClient } from "./api-support.ts";
import { formatMoney, numericToCents } from "../../src/domain/money.ts";
import { paperClassLines } from "../../src/domain/finance/paperLines.ts";
import type { PaymentAdvicePaper } from "../../src/domain/finance/paymentAdviceApi.ts";
import type { BillingPreview, BillingRunSelection } from "../../src/domain/finance/billingRun.ts";
import type { StatementPaper } from "../../src/domain/finance/statement.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();
const D = "DD/MM/YYYY";

/** Types a DD/MM/YYYY day into an antd date picker and commits it. */
async function typeDay(input: Locator, day: dayjs.Dayjs): Promise<void> {
  await input.click();
  await input.fill(day.format(D));
  await input.press("Enter");
  await input.press("Tab");
}

/** Ticks regular classes (weekday or weekend lessons) of the class picker, page by page, until two of different programmes are chosen. */
async function pickTwoClasses(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog").filter({ hasText: "Select a Programme & Class" });
  const table = dialog.getByTestId("picker-classes");
  await table.locator("tr.ant-table-row").first().waitFor();
  // the page-size changer: antd's Select, which the build loads only when a changer draws (lists show none)
  const sizeChanger = dialog.locator(".ant-pagination-options-size-changer");
  await chooseOption(page, sizeChanger, "10 / page");
  await sizeChanger.locator(".ant-select-selection-item", { hasText: "10 / page" }).waitFor();
  for (let p = 0; p < 12; p++) {
    const rows = table.locator("tr.ant-table-row").filter({ hasText: /Weekday Lesson|Weekend Lesson/ });
    await table.locator("tr.ant-table-row").first().waitFor();
    const n = await rows.count();
    for (let i = 0; i < n; i++) {
      await rows.nth(i).locator(".ant-checkbox-input").check({ force: true }).catch(() => undefined);
      if ((await dialog.getByTestId("total-selected").textContent()) === "Total Selected Class (2)") return;
    }
    await dialog.locator(".ant-pagination-next button, li.ant-pagination-next").first().click();
  }
  throw new Error("no two regular classes of different programmes");
}

describe("payment advice, end to end", () => {
  it("front_desk builds and issues a PA, opens its paper and PDF and its log; finance_manager voids it", async () => {
    const today = dayjs(todayInSingapore(), "YYYY-MM-DD");
    // An issue day inside the demo's waiver period (15 Nov – 31 Dec of this year) and inside the discounts' validity.
    const waiverStart = dayjs(`${today.year()}-11-15`, "YYYY-MM-DD");
    const issue = today.isBefore(waiverStart) ? dayjs(`${today.year()}-12-01`, "YYYY-MM-DD") : today;
    const due = issue.add(14, "day");
    const qrExpiry = due.add(30, "day");

    const paId = await withRole(browser(), baseURL, "front_desk", async (page) => {
      page.setDefaultTimeout(45_000);
      await page.goto("/finance/payment-advice/create");
      await page.getByTestId("class-fee-empty").getByText("Click “Add Class\" to start creating the Payment Advice. You have to add 1 Regular class before adding any Double Lesson class.").waitFor();

      // Add Class asks for the company first, then the student
      await page.getByRole("button", { name: "Add Class" }).click();
      await page.getByText("Please select company!").first().waitFor();
      await pick(page, "companyId", "Bright Minds");
      await page.getByRole("button", { name: "Add Class" }).click();
      await page.getByText("Please select student!").first().waitFor();

      // the student picker: a partial name, the card on selection
      const student = page.locator("#studentId");
      await student.click({ force: true });
      await student.fill("an");
      const option = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").filter({ has: page.locator("#studentId_list") }).locator(".ant-select-item-option").first();
      await option.waitFor();
      await option.click();
      await page.getByTestId("student-card").waitFor();

      await pick(page, "branchId");
      await typeDay(page.locator("#issueDate"), issue);
      await typeDay(page.locator("#dueDate"), due);
      await typeDay(page.locator("#qrExpiryDate"), qrExpiry);

      // Add Class asks, then creates the draft (POST …/init) and opens the picker on its edit page
      await page.getByRole("button", { name: "Add Class" }).click();
      await page.locator(".ant-modal-confirm-btns").getByRole("button", { name: "Save Draft", exact: true }).click();
      await Promise.race([
        page.waitForURL(/\/finance\/payment-advice\/edit\/[0-9a-f-]{36}$/),
        page.locator(".ant-message-error").waitFor().then(async () => Promise.reject(new Error(`refused: ${await page.locator(".ant-message-error").textContent()}`))),
      ]);
      const id = /edit\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
      const picker = page.getByRole("dialog").filter({ hasText: "Select a Programme & Class" });
      await picker.waitFor();
      await picker.getByRole("button", { name: "Apply" }).click();
      await picker.getByRole("button", { name: "Applied" }).waitFor();
      await pickTwoClasses(page);
      await picker.getByRole("button", { name: "Add to Payment" }).click();
      await picker.waitFor({ state: "hidden" });
      const cards = page.getByTestId("class-card");
      await cards.nth(1).getByTestId("term-table").waitFor();

      // the registration fee: inside the waiver period the switch is off and disabled, and 'Waived' shows
      await page.getByText("Waiver period: 15/11/").waitFor();
      await page.locator(".ant-tag", { hasText: "Waived" }).waitFor();
      expect(await page.getByRole("switch", { name: "Apply" }).isDisabled()).toBe(true);

      // card 1: from the start of its first term, the first term that has lessons (an issued card bills at least one), with a % discount and a deduction
      const first = cards.nth(0);
      const termRows = (card: Locator) => card.locator('[data-testid="term-table"] tr.ant-table-row');
      const startOf = async (card: Locator) => dayjs((await termRows(card).first().locator("td").nth(2).textContent())!, D);
      const lessonsOf = async (card: Locator) => Number(await termRows(card).first().locator("td").nth(4).textContent());
      await typeDay(first.locator('input[id$="lessonStartDate"]'), await startOf(first));
      const lessonsPerTerm = (await termRows(first).locator("td:nth-child(5)").allTextContents()).map(Number);
      expect(lessonsPerTerm.some((n) => n > 0)).toBe(true);
      await termRows(first).nth(lessonsPerTerm.findIndex((n) => n > 0)).getByLabel(/^Term /).check();
      await first.getByTestId("class-totals").waitFor();
      await pick(page, (await first.locator('input[id$="discountIds"]').getAttribute("id"))!, "Referral Discount");
      await first.getByText("Referral Discount").last().waitFor();
      await first.getByRole("button", { name: "Add Deduction" }).click();
      await first.getByLabel("Deduction name").fill("Sibling rebate");
      await first.getByLabel("Deduction amount").fill("10");

      // card 2: starting mid-term pays only the lessons left
      const second = cards.nth(1);
      const termStart = await startOf(second);
      await typeDay(second.locator('input[id$="lessonStartDate"]'), termStart);
      // the term table counts the lessons from the typed start date once it has taken it (slower on a busy runner)
      await expect.poll(() => lessonsOf(second), { timeout: 45_000 }).toBeGreaterThan(0);
      const fullTerm = await lessonsOf(second);
      await typeDay(second.locator('input[id$="lessonStartDate"]'), termStart.add(15, "day"));
      // a new lesson start date resets the chosen terms
      expect(await second.getByLabel(/^Term /).first().isChecked()).toBe(false);
      await second.getByLabel(/^Term /).first().check();
      await second.getByTestId("class-totals").waitFor();
      await expect.poll(() => lessonsOf(second), { timeout: 45_000 }).toBeLessThan(fullTerm);
      const midTerm = await lessonsOf(second);
      expect(midTerm).toBeLessThan(fullTerm);
      expect(midTerm).toBeGreaterThan(0);

      // the preview: two class totals, the deduction shown negative, the registration fee waived
      const summary = page.getByTestId("payment-summary");
      await page.waitForFunction(() => document.querySelector('[data-figure="deduction"]')?.textContent === "-S$10.00");
      expect(await summary.locator('[data-figure="registrationFee"]').textContent()).toBe("S$0.00");
      const previewTotal = await summary.locator('[data-figure="totalPayable"]').textContent();
      expect(previewTotal).toMatch(/^S\$[\d,]+\.\d{2}$/);

      // notes with an unbroken run the paper must wrap (item 17: notes ran off the page edge)
      await page.locator(".ant-card").filter({ has: page.getByText("Notes", { exact: true }) }).locator(".ql-editor").fill(`Bring this note: ${"x".repeat(240)} and a long link https://example.com/${"path/".repeat(40)}`);

      await page.getByRole("button", { name: "Issue" }).click();
      await page.locator(".ant-modal-confirm-btns").getByRole("button", { name: "Issue" }).click();
      await page.getByText("Payment advice issued.").waitFor();
      await page.getByTestId("pa-status").filter({ hasText: "UnPaid" }).waitFor();
      expect(await page.getByTestId("pa-reference").textContent()).toMatch(/^PA-BME-\d{4}-\d{5}$/);

      // its log
      await page.getByRole("button", { name: "Log history" }).click();
      const log = page.getByRole("dialog").filter({ hasText: "Log History" });
      await log.getByText("Change Status from Draft to UnPaid").waitFor();
      await log.getByText(/Create New PA PA-BME-/).waitFor();
      await log.getByText("Front Desk").first().waitFor();
      await log.getByRole("button", { name: "Close" }).first().click();
      await log.waitFor({ state: "hidden" });

      // its History (issue 36): the audit trail's changes, field by field, by the front desk user
      await page.getByRole("button", { name: "History", exact: true }).click();
      const history = page.locator(".ant-drawer").filter({ hasText: "History" });
      // each change under the field's form label
      await history.getByText("Status: draft → unpaid").first().waitFor();
      await history.getByText(/^PA No\.: -- → PA-BME-\d{4}-\d{5}$/).first().waitFor();
      await history.getByText(/^Updated by .+, \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/).first().waitFor();
      await history.getByRole("button", { name: "Close" }).click();
      await history.waitFor({ state: "hidden" });

      // the paper and its PDF
      await page.getByRole("link", { name: "Paper" }).click();
      await page.waitForURL(`**/finance/payment-advice/paper/${id}`);
      await page.getByTestId("pa-paper").waitFor();
      expect(await page.getByTestId("paper-summary").textContent()).toContain(previewTotal!);
      // issue 37 item 17: the on-screen paper lists the item lines the PDF's builder prints (server/finance/paper.ts
      // reads the same paperClassLines), the discount and the deduction among them …
      const api = apiClient(baseURL);
      const stored = await api.rest<PaymentAdvicePaper>(await api.tokenOf("front_desk"), "GET", `/finances/payment-advices/${id}/paper`);
      const pdfLines = paperClassLines(stored.paymentAdvice.classInformations).map((l) => [l.className, l.label, l.lessons === null ? "" : String(l.lessons), l.unitPrice === null ? "" : formatMoney(l.unitPrice), formatMoney(l.amount)]);
      const shownLines = await page.getByTestId("paper-lines").locator("tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
      expect(shownLines).toEqual(pdfLines);
      expect(shownLines.map((l) => l[1])).toEqual(expect.arrayContaining(["Discount: Referral Discount", "Deduction: Sibling rebate"]));
      // … and its notes and lines stay inside the page box (no element wider than the paper, none overflowing its own box)
      expect(await page.getByTestId("pa-paper").locator(".pa-notes").textContent()).toMatch(/Bring\sthis\snote/); // the editor may keep typed spaces as no-break spaces
      const outside = await page.getByTestId("pa-paper").evaluate((paper) => {
        const box = paper.getBoundingClientRect();
        return [...paper.querySelectorAll(".pa-notes, .pa-notes *, .pa-lines, .pa-lines tr, .pa-lines td, .pa-figures")]
          .filter((el) => { const r = el.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5 || el.scrollWidth > el.clientWidth + 1; })
          .map((el) => `${el.tagName}.${el.className}`);
      });
      expect(outside).toEqual([]);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download PDF" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^PA-BME-\d{4}-\d{5}\.pdf$/);
      const path = await download.path();
      const { readFileSync } = await import("node:fs");
      expect(readFileSync(path!).subarray(0, 5).toString()).toBe("%PDF-");
      return id;
    });

    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      page.setDefaultTimeout(45_000);
      await page.goto(`/finance/payment-advice/edit/${paId}`);
      await page.getByTestId("pa-status").filter({ hasText: "UnPaid" }).waitFor();
      await page.getByRole("button", { name: "Void" }).click();
      const dialog = page.getByRole("dialog").filter({ hasText: "Void Payment Advice" });
      await dialog.getByRole("button", { name: "Void" }).click();
      await dialog.getByText("Please fill in reason!").waitFor();
      await dialog.getByLabel("Reason").fill("Issued to the wrong family");
      await dialog.getByRole("button", { name: "Void" }).click();
      await page.getByTestId("pa-status").filter({ hasText: "Voided" }).waitFor();
      await page.getByRole("button", { name: "Log history" }).click();
      await page.getByRole("dialog").filter({ hasText: "Log History" }).getByText("Change Status from UnPaid to Voided").waitFor();
    });
  }, 300_000);
  it("finance_staff previews a class's term, unticks one student, issues the rest; a billed student's family statement shows the new PA and its balance", async () => {
    const api = apiClient(baseURL);
    const token = await api.tokenOf("finance_staff");
    // a small open regular BME class whose Term 4 has at least three students to bill (the other test bills Bright Minds)
    const { classes } = await api.gql<{ classes: Array<{ id: string; name: string; companyId: string; branchId: string; branch: { name: string }; company: { name: string }; academicCalendar: { year: number }; studentClasses: unknown[] }> }>(
      await api.tokenOf("admin"),
      `{ classes(where: {classType: {_eq: "regular"}, classStatus: {_eq: "open"}, status: {_eq: "active"}, company: {shortName: {_eq: "BME"}}}, order_by: {id: desc}) {
          id name companyId branchId branch { name } company { name } academicCalendar { year } studentClasses(where: {status: {_eq: "enrolled"}}) { id } } }`,
    );
    const due = dayjs(todayInSingapore(), "YYYY-MM-DD").add(14, "day").format("YYYY-MM-DD");
    let scene: { cls: (typeof classes)[number]; billable: string[] } | null = null;
    for (const cls of classes.filter((c) => c.studentClasses.length >= 3 && c.studentClasses.length <= 8 && classes.filter((o) => o.name === c.name).length === 1)) {
      const sel: BillingRunSelection = { companyId: cls.companyId, branchId: cls.branchId, year: cls.academicCalendar.year, termNames: ["Term 4"], classIds: [cls.id], programIds: [], dueDate: due };
      const { rows } = await api.rest<BillingPreview>(token, "POST", "/finances/billing-runs/preview", sel);
      const billable = rows.filter((r) => !r.skipReason).map((r) => r.studentId);
      if (billable.length >= 3) {
        scene = { cls, billable };
        break;
      }
    }
    expect(scene).not.toBeNull();
    const { cls, billable } = scene!;
    const statementOf = (studentId: string) => api.rest<StatementPaper>(token, "GET", `/finances/statements/${studentId}?family=1&companyId=${cls.companyId}`);
    const balancesBefore = new Map(await Promise.all(billable.map(async (id) => [id, numericToCents((await statementOf(id)).balance)!] as const)));

    await withRole(browser(), baseURL, "finance_staff", async (page) => {
      page.setDefaultTimeout(45_000);
      await page.goto("/finance/billing-run");
      await pick(page, "billing-company", cls.company.name);
      await pick(page, "branchId", cls.branch.name);
      await pick(page, "year", String(cls.academicCalendar.year));
      await pick(page, "termNames", "Term 4");
      await pick(page, "classIds", cls.name);
      await page.getByRole("button", { name: "Preview" }).click();

      // the preview: one row per student, the billable ones ticked; one unticked
      const boxes = page.getByRole("checkbox", { name: /^Bill /, checked: true });
      await page.getByRole("button", { name: `Issue ${billable.length} payment advices` }).waitFor();
      const left = (await boxes.first().getAttribute("aria-label"))!.replace(/^Bill /, "");
      await boxes.first().uncheck();
      await page.getByRole("button", { name: `Issue ${billable.length - 1} payment advice${billable.length - 1 === 1 ? "" : "s"}` }).click();

      // the summary: issued and skipped counts, the total billed = the sum of the PAs listed
      await page.getByText(`${billable.length - 1} of ${billable.length - 1} students done`).waitFor({ timeout: 90_000 });
      const statistic = (title: string) => page.locator(".ant-statistic").filter({ has: page.locator(".ant-statistic-title", { hasText: new RegExp(`^${title}$`) }) }).locator(".ant-statistic-content");
      expect(await statistic("Issued").textContent()).toBe(String(billable.length - 1));
      const issuedRows = page.locator(".ant-table-row").filter({ has: page.getByRole("link", { name: /^PA-BME-\d{4}-\d{5}$/ }) });
      await expect.poll(() => issuedRows.count()).toBe(billable.length - 1);
      const listed = await issuedRows.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
      expect(listed.map((r) => r[1])).not.toContain(left);
      const sum = listed.reduce((a, r) => a + numericToCents(r[2]!.replace(/[^\d.]/g, ""))!, 0);
      expect(await statistic("Total billed").textContent()).toBe(formatMoney(sum));

      // a billed student's family statement: the new PA charged, the balance due risen by it
      const [paName, studentName, total] = listed[0]!;
      const { rows: pas } = await api.gql<{ rows: Array<{ studentId: string }> }>(token, `query($n: String!) { rows: payment_advices(where: {name: {_eq: $n}}) { studentId } }`, { n: paName });
      const studentId = pas[0]!.studentId;
      await page.goto(`/finance/statement/${studentId}?family=1&companyId=${cls.companyId}`);
      await page.getByRole("heading", { name: "FAMILY STATEMENT" }).waitFor();
      const paRow = page.getByTestId("statement-paper").locator("tr").filter({ hasText: paName! });
      await paRow.first().waitFor();
      expect(await paRow.first().textContent()).toContain(total!);
      expect(await page.getByTestId("statement-paper").textContent()).toContain(studentName!);
      expect(await page.getByTestId("statement-balance").textContent()).toBe(`Balance due: ${formatMoney(balancesBefore.get(studentId)! + numericToCents(total!.replace(/[^\d.]/g, ""))!)}`);
    });
  }, 300_000);
});
