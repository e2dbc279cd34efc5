/**
 * The browser app uses its packages as they are published (issue 33): no import of a package's private
 * modules (antd/es/..., rc-table/es/..., a package's lib, dist or src files), and a Vite config without aliases
 * or rewritten imports, so `npm update` within a major is safe.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;
/** A package's build folders (its stylesheets aside, which packages document by path, e.g. react-quill-new's). */
const PRIVATE = /^(?:@[^/]+\/)?[^./][^/]*\/(?:es|lib|dist|src|esm|cjs)(?:\/(?!.*\.css$)|$)/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : SOURCE.test(name) ? [full] : [];
  });
}

describe("imports of published packages", () => {
  it("src/ and resources/ import no package's private modules", () => {
    const offending = ["src", "resources"].flatMap((dir) =>
      files(path.join(root, dir)).flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1]!).filter((source) => PRIVATE.test(source)).map((source) => `${path.relative(root, file)} → ${source}`),
      ),
    );
    expect(offending).toEqual([]);
  });

  it("vite.config.ts neither aliases packages nor rewrites their imports", () => {
    const config = readFileSync(path.join(root, "vite.config.ts"), "utf8");
    expect(config).not.toMatch(/\balias\b/);
    expect(config).not.toMatch(/\bresolveId\b/);
    expect(config).not.toMatch(/node_modules/);
  });
});
