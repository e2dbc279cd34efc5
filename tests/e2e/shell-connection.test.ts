/**
 * The red error banner (spec part 1 §2, §8; issue 19): the server stops under an open page with a
 * half-filled form — the banner says the connection is lost; the server comes back — the banner goes,
 * and what the user typed is still there. This file runs its own server (it has to stop it), on the
 * app the e2e setup built.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";
import { CONNECTION_LOST } from "../../src/app/connection.ts";
import { SLOW, signIn, usePages } from "./shell-support.ts";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-connection-"));
const port = 9000 + Math.floor(Math.random() * 90);
const baseUrl = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

async function startServer(): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1", DATABASE_URL: "", AUTH_RATE_LIMIT: "1000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  server = child;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

afterAll(async () => {
  await stopServer();
  rmSync(dataDir, { recursive: true, force: true });
});

const withPage = usePages(baseUrl);

describe("the red error banner", () => {
  it("appears while the server is down and goes when it is back; the half-filled form keeps what was typed", { timeout: 600_000 }, async () => {
    await startServer();
    await withPage(async (page) => {
      await signIn(page, "admin", DEMO_PASSWORD);
      await page.goto("/company/create");
      const name = page.getByLabel("Company Name");
      await name.fill("Sunrise Learning Pte Ltd");
      await expect(page.getByTestId("error-banner").count()).resolves.toBe(0);

      await stopServer();
      const banner = page.getByTestId("error-banner");
      await banner.waitFor({ timeout: SLOW });
      expect((await banner.textContent())?.trim()).toBe(CONNECTION_LOST);
      const box = await banner.boundingBox();
      const header = await page.getByTestId("app-header").boundingBox();
      expect(box?.height).toBe(48);
      expect(box!.y + box!.height).toBeLessThanOrEqual(header!.y + 1);

      await startServer();
      await banner.waitFor({ state: "detached", timeout: SLOW });
      expect(new URL(page.url()).pathname).toBe("/company/create");
      await expect(name.inputValue()).resolves.toBe("Sunrise Learning Pte Ltd");
    });
  });
});
