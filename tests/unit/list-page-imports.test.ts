/**
 * The generated list page loads no form code (issue 20): from ListPage.tsx, our modules imported statically
 * (lazy `import()` aside) use neither antd's Form nor @refinedev/antd (whose table hook brings the Form), nor
 * rc-field-form, and the field kinds ' editors (kindInputs.tsx) stay with the forms.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)([\s\S]*?)\s+from\s+"([^"]+)";?/gm;

/** Our files reached from `start` by static imports, with what each imports from packages. */
function staticGraph(start: string): Map<string, { source: string; names: string }[]> {
  const seen = new Map<string, { source: string; names: string }[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const imports = [...readFileSync(file, "utf8").matchAll(STATIC_IMPORT)].map((m) => ({ names: m[1], source: m[2] }));
    seen.set(file, imports);
    for (const { source } of imports) {
      if (!source.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), source);
      if (existsSync(target)) visit(target);
    }
  };
  visit(path.join(root, start));
  return seen;
}

describe("the generated list page's static imports", () => {
  const graph = staticGraph("src/framework/pages/ListPage.tsx");
  const rel = (f: string) => path.relative(root, f);

  it("reach the list, the table and the field kinds' cells and filters", () => {
    const files = [...graph.keys()].map(rel);
    expect(files).toEqual(expect.arrayContaining(["src/framework/pages/ListView.tsx", "src/framework/pages/FilterBar.tsx", "src/framework/kinds.tsx"]));
  });

  it("use no antd Select or rc-select (filters draw a stand-in until reached)", () => {
    const offending = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(({ source, names }) => source.startsWith("rc-select") || /^antd\/es\/select\/(?!style)/.test(source) || (source === "antd" && /\bSelect\b/.test(names)))
        .map(({ source }) => `${rel(file)} → ${source}`),
    );
    expect(offending).toEqual([]);
  });

  it("use no antd Form, @refinedev/antd or rc-field-form, and not the field kinds' editors", () => {
    const offending = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(
          ({ source, names }) =>
            source.startsWith("@refinedev/antd") ||
            source.startsWith("rc-field-form") ||
            // the variant hook (outlined, filled…) is the one antd's Input imports on every list anyway
            /^antd\/es\/form\/(?!context|style|hooks\/useVariants)/.test(source) ||
            (source === "antd" && /\bForm\b/.test(names)) ||
            source.endsWith("kindInputs.tsx"),
        )
        .map(({ source }) => `${rel(file)} → ${source}`),
    );
    expect(offending).toEqual([]);
  });
});
