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

const OPEN_DROPDOWN = ".ant-select-dropdown:not(.ant-select-dropdown-hidden)";

/**
 * Waits for `item` in an open antd dropdown, opening the select (again) while none is open, as a user clicks again:
 * a click landing as the select mounts (a lazy input) or as its dialog takes the focus may leave it closed.
 */
async function showOption(page: Page, item: Locator, openSelect: () => Promise<void>): Promise<void> {
  const open = page.locator(OPEN_DROPDOWN);
  for (let attempt = 1; ; attempt++) {
    // a second click on an open select would close it: open again only while none is open
    try {
      // a select its list re-renders may be detached mid-click: that attempt fails and the next clicks again
      if (attempt === 1 || !(await open.count())) await openSelect();
      await item.waitFor({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/** Opens the antd select whose input has this id and picks the option with this text (or the first one). */
export async function pick(page: Page, inputId: string, option?: string): Promise<void> {
  const input = page.locator(`#${inputId}`);
  const dropdown = page.locator(OPEN_DROPDOWN).last();
  const item = option ? dropdown.locator(".ant-select-item-option", { hasText: option }).first() : dropdown.locator(".ant-select-item-option").first();
  await showOption(page, item, async () => {
    await input.click({ force: true });
    // Type to search only where the select is searchable (a plain select's input is read-only: fill would wait out its timeout).
    if (option && (await input.isEditable())) await input.fill(option);
  });
  await item.click();
  await page.keyboard.press("Escape");
}

/**
 * Chooses the option with this text in a single antd select, clicked open like a user (`select`: its box, see
 * selectBox); the select closes itself, so nothing presses Escape (which would also close a dialog around it). Not a
 * forced click: in an opening dialog that could land on the mask, which closes the dialog.
 */
export async function chooseOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  const item = page.locator(OPEN_DROPDOWN).locator(".ant-select-item-option", { hasText: option }).first();
  await showOption(page, item, () => select.click({ timeout: 10_000 }));
  await item.click();
}

/** The box of the antd select whose input has this id, inside `scope`: what a user clicks. */
export const selectBox = (scope: Locator, inputId: string): Locator => scope.locator(".ant-select").filter({ has: scope.page().locator(`#${inputId}`) });

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
