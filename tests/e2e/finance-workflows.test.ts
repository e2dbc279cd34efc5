/**
 * The suspension and withdrawal workflows across roles in a real browser (issue 16):
 *  - front_desk suspends a student for two lessons and sends the credit note on; finance_staff fills the fees
 *    and submits it; finance_manager approves: issued with its number; it then pays a new PA (used);
 *  - front_desk withdraws a student; sales records the feedback and rating; finance_manager fills the payee
 *    and approves: refunded, with its voucher.
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";
import { paFields } from "../support/finance.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT, todayInSingapore } from "../../src/domain/dates.ts";
import { pick, typeDate, withRole } from "./catalogue-support.ts";
import { apiClient } from "./api-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();
const { tokenOf, gql, rest } = apiClient(baseURL);

interface Enrolment { studentId: string; classId: string; className: string; companyId: string; branchId: string; termId: string; lessons: string[] }

/** Students enrolled in an open regular BME class with lessons ahead not yet attended, one per class, from the end of the list (other tests take the first). */
async function enrolments(count: number): Promise<Enrolment[]> {
  const token = await tokenOf("admin");
  const { rows } = await gql<{ rows: { studentId: string; lesson: { date: string; termId: string; classId: string; class: { name: string; companyId: string; branchId: string } } }[] }>(
    token,
    `query($today: date!) { rows: lessons_students(where: {type: {_eq: "enrolled"}, status: {_eq: "not_attended"}, studentClass: {status: {_eq: "enrolled"}},
        lesson: {date: {_gt: $today}, lessonStatus: {_eq: "active"}, status: {_eq: "active"}, termId: {_is_null: false},
          class: {classType: {_eq: "regular"}, classStatus: {_eq: "open"}, status: {_eq: "active"}, company: {shortName: {_eq: "BME"}}}}},
        order_by: [{lesson: {date: asc}}], limit: 1000) { studentId lesson { date termId classId class { name companyId branchId } } } }`,
    { today: todayInSingapore() },
  );
  const groups = new Map<string, Enrolment>();
  for (const r of rows) {
    const key = `${r.studentId}/${r.lesson.classId}/${r.lesson.termId}`;
    const g = groups.get(key) ?? { studentId: r.studentId, classId: r.lesson.classId, className: r.lesson.class.name, companyId: r.lesson.class.companyId, branchId: r.lesson.class.branchId, termId: r.lesson.termId, lessons: [] };
    g.lessons.push(r.lesson.date);
    groups.set(key, g);
  }
  const picked: Enrolment[] = [];
  const students = new Set<string>();
  const classes = new Set<string>();
  for (const g of [...groups.values()].reverse()) {
    if (g.lessons.length < 3 || students.has(g.studentId) || classes.has(g.classId)) continue;
    students.add(g.studentId);
    classes.add(g.classId);
    picked.push(g);
    if (picked.length === count) break;
  }
  expect(picked).toHaveLength(count);
  return picked;
}

/** A PA of the enrolment's class from its first lesson ahead, issued and paid in full in cash. */
async function paidPa(e: Enrolment): Promise<void> {
  const token = await tokenOf("front_desk");
  const fields = paFields({ id: e.classId, companyId: e.companyId, branchId: e.branchId, termId: e.termId, start: e.lessons[0]!, programId: "" }, e.studentId);
  const draft = await rest<{ id: string; updatedAt: string }>(token, "POST", "/finances/payment-advices/init", fields);
  const issued = await rest<{ id: string; summary: { total: string } }>(token, "PUT", `/finances/payment-advices/${draft.id}`, { ...fields, action: "issue", updatedAt: draft.updatedAt });
  await rest(token, "POST", "/finances/invoices", { paymentAdviceId: issued.id, payment: { amount: issued.summary.total, paymentMethod: "cash" } });
}

const shown = (d: string) => formatCalendarDay(d, DISPLAY_DATE_FORMAT);
const statusOf = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();
/** Presses a workflow step's button and confirms it in its dialog (issue 37: a confirmation first). */
async function press(page: Page, name: string, status: { testId: string; is: string }): Promise<void> {
  await page.getByRole("button", { name, exact: true }).first().click();
  await page.locator(".ant-modal-confirm-btns").getByRole("button", { name, exact: true }).click();
  await expect.poll(() => statusOf(page, status.testId), { timeout: 15_000 }).toBe(status.is);
}

describe("suspension and withdrawal workflows", () => {
  it("front_desk suspends a student → finance_staff fills the fees → finance_manager approves → the credit note pays a new PA", async () => {
    const [e] = await enrolments(2).then((all) => [all[0]!]);
    await paidPa(e!);
    const [first, second] = e!.lessons;

    const suspensionUrl = await withRole(browser(), baseURL, "front_desk", async (page) => {
      await page.goto("/suspension");
      await page.getByRole("button", { name: "New Suspension" }).waitFor();
      await page.goto(`/suspension/${e!.studentId}`);
      await pick(page, "classId", e!.className);
      await typeDate(page.getByPlaceholder("Start date"), shown(first!));
      await typeDate(page.getByPlaceholder("End date"), shown(second!));
      await expect.poll(() => page.getByTestId("suspension-lessons").locator(".ant-table-tbody tr.ant-table-row").count()).toBe(2);
      await page.locator("#reason").fill("Family trip");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/suspension\/detail\/[0-9a-f-]{36}\/view$/);
      await expect.poll(() => statusOf(page, "credit-note-status")).toBe("Awaiting Front Desk Action");
      await press(page, "Send to Finance", { testId: "credit-note-status", is: "Awaiting Finance Action" });
      return page.url();
    });
    const suspensionId = /\/suspension\/detail\/([0-9a-f-]{36})\/view$/.exec(suspensionUrl)![1]!;

    await withRole(browser(), baseURL, "finance_staff", async (page) => {
      await page.goto("/finance/credit-note");
      await expect.poll(async () => Number(await page.getByTestId("waiting-count").first().textContent())).toBeGreaterThan(0);
      await page.goto(`/finance/credit-note/update/sus/${suspensionId}`);
      await expect.poll(() => statusOf(page, "credit-note-status")).toBe("Awaiting Finance Action");
      await expect.poll(() => page.locator("#numberOfLesson").inputValue()).toBe("2");
      await page.locator("#reason").fill("");
      // the step's fields are checked before the confirmation: no dialog, the reason's message at once
      await page.getByRole("button", { name: "Submit for Approval" }).click();
      await page.getByText("Please fill in reason!").first().waitFor();
      expect(await page.locator(".ant-modal-confirm-btns").count()).toBe(0);
      await page.locator("#reason").fill("Family trip, two lessons");
      await press(page, "Submit for Approval", { testId: "credit-note-status", is: "Awaiting Finance Approval" });
      // finance staff may not approve: no Approve button
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    });

    const total = await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto(`/finance/credit-note/update/sus/${suspensionId}`);
      await press(page, "Approve", { testId: "credit-note-status", is: "Issued" });
      expect(await page.getByTestId("credit-note-number").textContent()).toMatch(/^CN-BME-\d{4}-\d{5}$/);
      return (await page.getByTestId("credit-note-total").textContent())!;
    });
    expect(total).toMatch(/^S\$\d/);

    // the issued credit note pays a new PA of the student, and shows Used
    const token = await tokenOf("front_desk");
    const { cn } = await gql<{ cn: { id: string; summary: { total: string } }[] }>(token, `query($s: uuid!) { cn: credit_notes(where: {suspensionId: {_eq: $s}}) { id summary } }`, { s: suspensionId });
    const fields = paFields({ id: e!.classId, companyId: e!.companyId, branchId: e!.branchId, termId: e!.termId, start: e!.lessons.at(-1)!, programId: "" }, e!.studentId);
    const draft = await rest<{ id: string; updatedAt: string }>(token, "POST", "/finances/payment-advices/init", fields);
    const issued = await rest<{ id: string }>(token, "PUT", `/finances/payment-advices/${draft.id}`, { ...fields, action: "issue", updatedAt: draft.updatedAt });
    await rest(token, "POST", "/finances/invoices", { paymentAdviceId: issued.id, payment: { amount: cn[0]!.summary.total, paymentMethod: "credit_note", creditNoteId: cn[0]!.id } });
    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto(`/finance/credit-note/detail/${cn[0]!.id}`);
      await expect.poll(() => statusOf(page, "credit-note-status")).toBe("Used");
    });
  });

  it("front_desk withdraws a student → sales records the feedback → finance_manager approves → refunded, with its voucher", async () => {
    const [, e] = await enrolments(2);
    await paidPa(e!);

    const refundId = await withRole(browser(), baseURL, "front_desk", async (page) => {
      await page.goto(`/withdrawal/${e!.studentId}`);
      await pick(page, "classId", e!.className);
      await typeDate(page.locator("#lastLessonDate"), shown(e!.lessons[0]!));
      await page.getByTestId("withdrawal-refund-preview").waitFor();
      await page.locator("#reason").fill("Moving to another school");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/withdrawal\/view-withdrawal\/[0-9a-f-]{36}\/detail$/);
      await expect.poll(() => statusOf(page, "refund-status")).toBe("Awaiting Front Desk Action");
      await press(page, "Send to Sales", { testId: "refund-status", is: "Awaiting Sale Action" });
      const withdrawalId = /view-withdrawal\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
      const { refunds } = await gql<{ refunds: { id: string }[] }>(await tokenOf("front_desk"), `query($w: uuid!) { refunds(where: {withdrawalId: {_eq: $w}}) { id } }`, { w: withdrawalId });
      return refunds[0]!.id;
    });

    await withRole(browser(), baseURL, "sales", async (page) => {
      await page.goto("/finance/refund");
      await expect.poll(async () => Number(await page.getByTestId("waiting-count").first().textContent())).toBeGreaterThan(0);
      // the hand-off shows on sales' menu entry too
      await expect.poll(async () => Number(await page.getByTestId("menu-waiting-refunds").first().textContent())).toBeGreaterThan(0);
      await page.goto(`/finance/refund/${refundId}`);
      await expect.poll(() => statusOf(page, "refund-status")).toBe("Awaiting Sale Action");
      await page.locator("#feedback").fill("The family is moving; happy with the tutors.");
      await pick(page, "rating", "Good");
      await press(page, "Send to Finance", { testId: "refund-status", is: "Awaiting Finance Approval" });
      expect(await page.getByRole("button", { name: "Approve & Refund" }).count()).toBe(0);
    });

    await withRole(browser(), baseURL, "finance_manager", async (page) => {
      await page.goto(`/finance/refund/${refundId}`);
      await expect.poll(() => statusOf(page, "refund-status")).toBe("Awaiting Finance Approval");
      await page.getByRole("button", { name: "Approve & Refund", exact: true }).click();
      await page.getByText("Please fill in the payee details and the refund method.").first().waitFor();
      await page.locator("#payeeName").fill("Parent of the student");
      await pick(page, "refundMethod", "interbank transfer");
      await press(page, "Approve & Refund", { testId: "refund-status", is: "Refunded" });
      expect(await page.getByTestId("refund-number").textContent()).toMatch(/^RF-BME-\d{4}-\d{5}$/);
      const total = await page.getByTestId("refund-total").textContent();
      await page.getByRole("link", { name: "Refund Voucher" }).click();
      await page.getByTestId("refund-voucher").waitFor();
      expect(await page.getByTestId("voucher-total").textContent()).toBe(total);
    });
  });
});
