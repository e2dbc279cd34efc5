/** Helpers of the app-shell browser tests. */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { useBrowser } from "../support/browser.ts";

/** Generous waits: the machine running the suite may be busy (argon2 hashing, a cold PGlite). */
export const SLOW = 60_000;

let ipCounter = Math.floor(Math.random() * 50_000);

/**
 * A fresh browser context (own storage). Each sends its own X-Forwarded-For address, which spreads the
 * per-address sign-in limit when the server trusts its proxy (TRUST_PROXY=true); otherwise submitSignIn
 * waits out the limit.
 */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  ipCounter += 1;
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1366, height: 800 },
    extraHTTPHeaders: { "X-Forwarded-For": `10.${Math.floor(ipCounter / 62_500) % 250}.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}` },
  });
  context.on("page", (page) =>
    page.on("dialog", (dialog) => {
      dialogsSeen.push(`${dialog.type()}: ${dialog.message()}`);
      console.warn(`[e2e] dialog on ${page.url()}: ${dialog.message()}`);
      void dialog.accept();
    }),
  );
  return context;
}

/** `withPage` for a test file's own Chromium (see useBrowser): each call runs on a page of a fresh context. */
export function usePages(baseURL: string): <T>(fn: (page: Page) => Promise<T>) => Promise<T> {
  const browser = useBrowser();
  return (fn) => withPage(browser(), baseURL, fn);
}

/** Runs `fn` on a page of a fresh context (own storage and address), closing the context afterwards. */
export async function withPage<T>(browser: Browser, baseURL: string, fn: (page: Page) => Promise<T>): Promise<T> {
  const context = await newContext(browser, baseURL);
  const page = await context.newPage();
  try {
    return await fn(page);
  } finally {
    await context.close();
  }
}

/** Browser dialogs seen (e.g. an unsaved-changes prompt); accepted so they cannot stall a navigation. */
export const dialogsSeen: string[] = [];

export async function fillSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.locator("#username").fill(username);
  await page.locator("#password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Submits the sign-in form and returns the refusal text, or undefined when the app opened. The server
 * limits sign-ins per address (10 a minute by default; all test traffic comes from 127.0.0.1), so a
 * "Too many attempts. Please try again in N seconds." answer waits N seconds and submits again.
 */
export async function submitSignIn(page: Page, username: string, password: string): Promise<string | undefined> {
  for (let attempt = 0; ; attempt++) {
    const answered = page.waitForResponse((r) => r.url().endsWith("/auth/sign-in"), { timeout: SLOW });
    await fillSignIn(page, username, password);
    const response = await answered;
    if (response.ok()) return undefined;
    const error = page.getByTestId("login-error");
    await error.waitFor({ timeout: SLOW });
    const text = ((await error.textContent()) ?? "").trim();
    const wait = /Too many attempts.*?(\d+)\s*second/i.exec(text);
    if (!wait || attempt >= 5) return text;
    await page.waitForTimeout((Number(wait[1]) + 1) * 1000);
  }
}

/** Signs in on /login and waits until the app has left the sign-in page and drawn its menu. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  if (!page.url().includes("/login")) await page.goto("/login");
  const refused = await submitSignIn(page, username, password);
  if (refused) throw new Error(`sign-in as ${username} refused: ${refused}`);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"), { timeout: SLOW });
  await page.getByTestId("side-menu").waitFor({ timeout: SLOW });
}

export async function menuLabels(page: Page): Promise<string[]> {
  await page.locator("[data-menu-group]").first().waitFor({ timeout: SLOW });
  return page.$$eval("[data-menu-group]", (els) => els.map((e) => (e.textContent ?? "").trim()));
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}
