import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { distDir } from "./static.ts";

const root = path.resolve(import.meta.dirname, "..");
const sources = ["src", "resources", "access", "index.html", "vite.config.ts", "package-lock.json"];

function newest(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), s.mtimeMs);
}

/**
 * `npm start` builds the browser app when dist/ is missing or older than its sources. The build runs
 * in its own process with NODE_ENV=production, so a caller running under a test runner still ships
 * React's production build.
 */
export async function buildBrowserAppIfStale(log: (msg: string) => void = console.log): Promise<void> {
  const index = path.join(distDir, "index.html");
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const changed = Math.max(...sources.map((s) => path.join(root, s)).filter(existsSync).map(newest));
  if (built >= changed) return;
  log("Building the browser app (first start or sources changed)…");
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, "build", "--logLevel", "warn"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed with exit code ${code}`))));
  });
}
