/** Helpers of the catalogue-screen browser tests (issue 7): a signed-in page per role, antd selects, lists. */
import type { Browser, Locator, Page } from "playwright-core";
import { DEMO_PASSWORD } from "../support/spec-menus.ts";
import { newContext, signIn } from "./shell-support.ts";

export async function withRole<T>(browser: Browser, baseURL: string, username: string, fn: (page: Page) => Promise<T>): Promise<T> {
  const context = await newContext(browser, baseURL);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  try {
    await signIn(page, username, DEMO_PASSWORD);
    return await fn(page);
  } finally {
    await context.close();
  }
}

/** Opens the antd select whose input has this id and picks the option with this text (or the first one). */
export async function pick(page: Page, inputId: string, option?: string): Promise<void> {
  const input = page.locator(`#${inputId}`);
  await input.click({ force: true });
  // Type to search only where the select is searchable (a plain select's input is read-only: fill would wait out its timeout).
  if (option && (await input.isEditable())) await input.fill(option);
  const dropdown = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").last();
  const item = option ? dropdown.locator(".ant-select-item-option", { hasText: option }).first() : dropdown.locator(".ant-select-item-option").first();
  await item.waitFor();
  await item.click();
  await page.keyboard.press("Escape");
}

/**
 * Picks an option of the antd select inside `scope` (a dialog) without pressing Escape, which would close the
 * dialog. The select is a lazy input: a click landing as it mounts may not open it, so, like a user, click again
 * while its options are not shown.
 */
export async function pickInDialog(page: Page, scope: Locator, inputId: string, option: string | RegExp): Promise<void> {
  const open = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)");
  const item = open.locator(".ant-select-item-option", { hasText: option }).first();
  for (let attempt = 1; ; attempt++) {
    // a second click on an open select would close it: click only while none is open
    if (!(await open.count())) await scope.locator(`#${inputId}`).click({ force: true });
    try {
      await item.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  await item.click();
}

/**
 * The counter of the list on the page, e.g. 'Viewing from 1 - 10 (out of 23 records)', once rows are shown
 * (every list these tests open has demo rows; "out of 0" is the counter before the data arrives).
 */
export async function counter(page: Page): Promise<string> {
  const c = page.getByTestId("record-counter").first();
  await page.waitForFunction(() => /out of [1-9]\d* records/.test(document.querySelector('[data-testid="record-counter"]')?.textContent ?? ""));
  return (await c.textContent()) ?? "";
}

/** Waits until the list's counter reads n records in all. */
export async function waitForTotal(page: Page, n: number): Promise<void> {
  await page.waitForFunction((want) => new RegExp(`out of ${want} records`).test(document.querySelector('[data-testid="record-counter"]')?.textContent ?? ""), n);
}

export const total = (text: string) => Number(/out of (\d+) records/.exec(text)?.[1] ?? NaN);

/** A role that may not open the route sees "You do not have access to this page" (not the not-found screen). */
export async function expectForbidden(page: Page, path: string): Promise<void> {
  await page.goto(path);
  const screen = page.getByTestId("forbidden");
  await screen.waitFor();
  if (!(await screen.textContent())?.includes("You do not have access to this page")) throw new Error(`${path}: the no-access screen lacks its message`);
}

/** The name the catalogue tests used before issue 19 split "no access" from "not found". */
export const expectNotFound = expectForbidden;

/** Fills a generated form input by its field name (the framework gives inputs the id field-<name>). */
export async function fill(page: Page, name: string, value: string): Promise<void> {
  await page.locator(`#field-${name}`).fill(value);
}

export async function save(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Save" }).click();
}

export const stamp = () => Date.now().toString(36).slice(-5);

/**
 * Types a date into an antd date picker and leaves the field (Tab), which commits it. Not Enter: in a form
 * whose required fields are all filled, Enter also submits the form.
 */
export async function typeDate(input: Locator, value: string): Promise<void> {
  await input.fill(value);
  await input.press("Tab");
}
