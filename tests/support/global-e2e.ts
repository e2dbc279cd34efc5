import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildBrowserAppIfStale } from "../../server/build-app.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** Starts the real server on a fresh embedded database with demo data; resolves when it answers. */
async function startServer(index: number): Promise<{ server: E2eServer; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-e2e-"));
  const port = 9100 + index * 400 + Math.floor(Math.random() * 400); // disjoint ranges: servers never collide
  // The server's outgoing mail lands here as files (one JSON per message), so tests can read codes.
  const mailDir = path.join(dataDir, "mail");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1", DATABASE_URL: "", AUTH_RATE_LIMIT: "1000", MAIL_DROP_DIR: mailDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const r = await fetch(`${baseUrl}/healthz`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const stop = async () => {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server: { baseUrl, mailDir }, stop };
}

/**
 * Builds the app and starts one server per worker: two browser-test files running at the same time never share
 * a database (each file takes its worker's server, tests/support/e2e-server.ts), so the browser lane runs beside
 * the others instead of after them.
 */
export default async function setup(project: TestProject) {
  await buildBrowserAppIfStale(() => undefined);
  const count = Math.max(1, project.globalConfig.maxWorkers);
  const started = await Promise.all(Array.from({ length: count }, (_, index) => startServer(index)));
  project.provide("e2eServers", started.map((s) => s.server));
  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}

export interface E2eServer {
  baseUrl: string;
  /** Where the server drops outgoing mail (MAIL_DROP_DIR). */
  mailDir: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2eServers: E2eServer[];
  }
}
