/**
 * Issue 5 §2 and issue 7 §1 in a real browser: the password screens.
 * - /forgot-password: request a code, read it from the mail the outbox delivered, confirm it with a new
 *   password, sign in with that password.
 * - First sign-in of a new user: the temporary password mailed on creation sends the user to
 *   /change-password/{account}; after changing it the user signs in with the new one.
 * Each test works on a throwaway account created through POST /api/v2/users as admin, so the demo
 * accounts are never changed.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD } from "../support/spec-menus.ts";
import { SLOW, pathOf, submitSignIn, usePages } from "./shell-support.ts";

const { baseUrl: baseURL, mailDir } = e2eServer();
/** The home page of the throwaway accounts' role (sales), spec part 1 §2. */
const SALES_HOME = "/communication/broadcast";
const NEW_PASSWORD = "Fresh-Start#2026";
const withPage = usePages(baseURL);

interface DroppedMail {
  to: string;
  subject: string | null;
  body: string | null;
  /** The plain-text alternative, as a mail reader shows it (every e-mail has one: server/mail/template.ts). */
  text?: string;
  sentAt: string;
}

/** Waits until the server has delivered a mail to `to` with `subject` (the newest one) and returns it. */
async function mailTo(to: string, subject: string): Promise<DroppedMail> {
  return vi.waitFor(
    () => {
      const mails = readdirSync(mailDir, { withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith(".json"))
        .map((e) => JSON.parse(readFileSync(path.join(mailDir, e.name), "utf8")) as DroppedMail)
        .filter((m) => m.to === to && m.subject === subject)
        .sort((a, b) => b.sentAt.localeCompare(a.sentAt));
      if (!mails[0]) throw new Error(`no mail "${subject}" to ${to} yet`);
      return mails[0];
    },
    { timeout: SLOW, interval: 250 },
  );
}

/** An active sales account created by admin through POST /api/v2/users; it gets a temporary password by mail. */
async function createThrowawayAccount(prefix: string): Promise<{ username: string; email: string }> {
  const headers = { "content-type": "application/json", "x-forwarded-for": "10.98.0.1" };
  const body = JSON.stringify({ username: "admin", password: DEMO_PASSWORD });
  let signIn = await fetch(`${baseURL}/auth/sign-in`, { method: "POST", headers, body });
  for (let i = 0; signIn.status === 429 && i < 5; i++) {
    const retryAfter = Number(signIn.headers.get("retry-after") ?? 15);
    await new Promise((r) => setTimeout(r, (retryAfter + 1) * 1000)); // the per-address sign-in limit asks us to wait
    signIn = await fetch(`${baseURL}/auth/sign-in`, { method: "POST", headers, body });
  }
  const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
  const username = `${prefix}${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const res = await fetch(`${baseURL}/api/v2/users`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ username, email, firstName: "Password", lastName: "Check", multipleRoles: ["sales"] }),
  });
  if (res.status !== 201) throw new Error(`could not create the throwaway account: ${res.status} ${await res.text()}`);
  return { username, email };
}

/** Signs in on /login and waits for the role's home page. */
async function signInLandsHome(page: Page, username: string, password: string): Promise<void> {
  if (pathOf(page) !== "/login") await page.goto("/login");
  expect(await submitSignIn(page, username, password)).toBeUndefined();
  await page.waitForURL((u) => u.pathname === SALES_HOME, { timeout: SLOW });
}

describe("forgot password", () => {
  it("request a code, confirm it with a new password from the mailed code, then sign in with it", async () => {
    const { username, email } = await createThrowawayAccount("pwreset");
    await withPage(async (page) => {
      await page.goto("/login");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.waitForURL((u) => u.pathname === "/forgot-password", { timeout: SLOW });
      // The page is a lazy chunk: the sign-in form (with its own #username) may still show until it loads.
      const sendCode = page.getByRole("button", { name: "Send code" });
      await sendCode.waitFor({ timeout: SLOW });
      await page.locator("#username").fill(username);
      await sendCode.click();
      await page.getByText(`A verification code was sent for ${username}. Enter it with your new password.`).waitFor({ timeout: SLOW });

      const mail = await mailTo(email, "Your password reset code");
      const code = /reset your password is (\d{6})\./.exec(mail.text ?? "")?.[1];
      expect(code).toMatch(/^\d{6}$/);

      await page.locator("#code").fill(code!);
      await page.locator("#newPassword").fill(NEW_PASSWORD);
      await page.locator("#confirm").fill(`${NEW_PASSWORD}x`);
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByText("The two passwords do not match!").waitFor({ timeout: SLOW });
      await page.locator("#confirm").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Your password has been reset. You can sign in with the new password.").waitFor({ timeout: SLOW });

      await page.getByRole("link", { name: "Back to sign in" }).click();
      await page.waitForURL((u) => u.pathname === "/login", { timeout: SLOW });
      await signInLandsHome(page, username, NEW_PASSWORD);
    });
  });
});

describe("change password at first sign-in", () => {
  it("a new user's temporary password leads to /change-password; after the change the new password signs in", async () => {
    const { username, email } = await createThrowawayAccount("pwfirst");
    const mail = await mailTo(email, "Your back-office account");
    const temporary = /Temporary password: (\S+)/.exec(mail.text ?? "")?.[1];
    expect(temporary).toBeTruthy();
    await withPage(async (page) => {
      await page.goto("/login");
      await page.locator("#username").fill(username);
      await page.locator("#password").fill(temporary!);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((u) => u.pathname === `/change-password/${username}`, { timeout: SLOW });
      await page.getByTestId("change-password-account").waitFor({ timeout: SLOW });
      expect(await page.getByTestId("change-password-account").textContent()).toBe(username);

      await page.locator("#oldPassword").fill(temporary!);
      await page.locator("#newPassword").fill("short");
      await page.locator("#confirm").fill("short");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("At_least_8_characters").waitFor({ timeout: SLOW });
      await page.locator("#newPassword").fill(NEW_PASSWORD);
      await page.locator("#confirm").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("Your password has been changed.").waitFor({ timeout: SLOW });

      await page.getByRole("link", { name: "Back to sign in" }).click();
      await page.waitForURL((u) => u.pathname === "/login", { timeout: SLOW });
      expect(await submitSignIn(page, username, temporary!)).toBe("Incorrect username or password.");
      await signInLandsHome(page, username, NEW_PASSWORD);
    });
  });
});
