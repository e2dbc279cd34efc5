/**
 * `npm run bench -- bundle`: builds the browser app with the project's vite.config.ts into a temporary
 * directory (dist/ is left alone) and prints every chunk's raw and gzipped size, the total, and what
 * the first visit of /login downloads: the entry chunk, the LoginPage chunk and their static imports.
 * Brotli: the .br copies the build writes (vite.config.ts), i.e. what the server sends.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Manifest } from "vite";
import { table } from "./stats.ts";

const LOGIN_PAGE = "src/pages/auth/LoginPage.tsx";

interface Sized {
  file: string;
  raw: number;
  gz: number;
  /** The pre-compressed .br copy the server sends (raw size when the build wrote none). */
  br: number;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === ".vite" ? [] : filesUnder(full, base);
    return [path.relative(base, full)];
  });
}

/** The manifest keys a page needs up front: the chunk, its static imports (transitively). */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) visit(k);
  };
  keys.forEach(visit);
  return seen;
}

export async function benchBundle(): Promise<void> {
  const root = process.cwd();
  const outDir = mkdtempSync(path.join(os.tmpdir(), "bench-bundle-"));
  try {
    const started = Date.now();
    await build({
      root,
      configFile: path.join(root, "vite.config.ts"),
      logLevel: "warn",
      build: { outDir, emptyOutDir: true, manifest: true, reportCompressedSize: false },
    });
    console.log(`vite build (project's vite.config.ts, outDir ${outDir}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const sized = new Map<string, Sized>();
    for (const file of filesUnder(outDir)) {
      if (/\.(br|gz)$/.test(file)) continue;
      const buf = readFileSync(path.join(outDir, file));
      const brFile = path.join(outDir, `${file}.br`);
      sized.set(file, { file, raw: buf.length, gz: gzipSync(buf).length, br: existsSync(brFile) ? statSync(brFile).size : buf.length });
    }
    const all = [...sized.values()].sort((a, b) => b.raw - a.raw);
    const sum = (list: Sized[]) => list.reduce((t, s) => ({ raw: t.raw + s.raw, gz: t.gz + s.gz, br: t.br + s.br }), { raw: 0, gz: 0, br: 0 });
    const total = sum(all);
    const js = sum(all.filter((s) => s.file.endsWith(".js")));
    console.log(table([["file", "raw", "gzip", "brotli (sent)"], ...all.map((s) => [s.file, kb(s.raw), kb(s.gz), kb(s.br)]), ["total", kb(total.raw), kb(total.gz), kb(total.br)], ["  of which .js", kb(js.raw), kb(js.gz), kb(js.br)]]));

    const manifest = JSON.parse(readFileSync(path.join(outDir, ".vite", "manifest.json"), "utf8")) as Manifest;
    const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
    if (!entryKey) throw new Error("no entry chunk in the manifest");
    if (!manifest[LOGIN_PAGE]) console.log(`\nNOTE: ${LOGIN_PAGE} is not a chunk of its own in this build.`);
    const loginKeys = closure(manifest, [entryKey, LOGIN_PAGE]);
    const loginFiles = new Set<string>(["index.html"]);
    for (const k of loginKeys) {
      loginFiles.add(manifest[k].file);
      for (const css of manifest[k].css ?? []) loginFiles.add(css);
    }
    const login = [...loginFiles].map((f) => sized.get(f)).filter((s): s is Sized => !!s);
    const entry = sized.get(manifest[entryKey].file)!;
    const loginTotal = sum(login);
    console.log(`\nentry chunk: ${entry.file} — ${kb(entry.raw)} raw, ${kb(entry.gz)} gzip, ${kb(entry.br)} brotli`);
    console.log(`/login needs (index.html, entry, ${LOGIN_PAGE} and their static imports, CSS):`);
    console.log(table([["file", "raw", "gzip", "brotli (sent)"], ...login.map((s) => [s.file, kb(s.raw), kb(s.gz), kb(s.br)]), ["total for /login", kb(loginTotal.raw), kb(loginTotal.gz), kb(loginTotal.br)]]));
    console.log("(gzip: node:zlib gzipSync, default level; brotli: the .br file the build wrote, as the server sends it)");
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
