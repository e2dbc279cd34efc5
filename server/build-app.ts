import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { build } from "vite";
import { distDir } from "./static.ts";

const root = path.resolve(import.meta.dirname, "..");
const sources = ["src", "resources", "access", "index.html", "vite.config.ts", "package-lock.json"];

function newest(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), s.mtimeMs);
}

/** `npm start` builds the browser app when dist/ is missing or older than its sources. */
export async function buildBrowserAppIfStale(log: (msg: string) => void = console.log): Promise<void> {
  const index = path.join(distDir, "index.html");
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const changed = Math.max(...sources.map((s) => path.join(root, s)).filter(existsSync).map(newest));
  if (built >= changed) return;
  log("Building the browser app (first start or sources changed)…");
  await build({ root, logLevel: "warn", configFile: path.join(root, "vite.config.ts") });
}
