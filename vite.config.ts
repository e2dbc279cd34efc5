import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

const server = `http://localhost:${process.env.PORT ?? 9000}`;

const MARKDOWN_PACKAGES = /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|hast-[^/]+|unist-[^/]+|unified|vfile[^/]*|property-information|space-separated-tokens|comma-separated-tokens|decode-named-character-reference|character-entities[^/]*|markdown-table|ccount|trim-lines|devlop|bail|is-plain-obj|trough|zwitch|longest-streak|html-url-attributes|estree-util-[^/]+|style-to-[^/]+|inline-style-parser)\//;

// Kept only because they might have side effects on import, which they do not: @refinedev/devtools-internal reads
// stacks with the first two in development only; antd's Table takes a few helpers from rc-tree, whose tree
// component came along with them.
const SIDE_EFFECT_FREE = /node_modules\/(error-stack-parser|stackframe|rc-tree)\//;

/** Third-party modules other than React and the router, which the entry (the sign-in page) needs. */
const SHARED_UI = /node_modules[\\/](?!(react|react-dom|react-router|scheduler)[\\/])/;

/** Shared by many pages but not drawn by a list page: left out of the "ui" chunk the lists load. */
const NOT_ON_LISTS = /node_modules[\\/](antd[\\/]es[\\/](card[\\/](?!style)|typography[\\/](?!Typography\.js|style)|modal[\\/](?!locale)|input[\\/](OTP|Search|Password|Group|index)|(tabs|skeleton|descriptions|alert|progress|image|notification)[\\/])|rc-tabs|rc-progress|rc-image|rc-dialog|graphql[\\/])/;

/** Our own modules (not a package's src/ folder). */
const OUR_CODE = /^(?!.*node_modules).*[\\/](src|resources)[\\/]/;

/** The modules the generated list page imports (filled during the build). */
const listPage = new Set<string>();

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a .br and a .gz copy beside every text file of the build, at the highest levels (done once,
 * not per request); the server's static plugin sends the copy the browser accepts (issue 20).
 */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "backoffice:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const full = path.join(dir, name);
          if (name.startsWith(".")) return []; // .vite/manifest.json is for tools, not browsers
          return statSync(full).isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Imports a package makes for features the browser app does not use, or needs lighter (browser build only):
 * see each stub's comment.
 */
const REPLACED_IMPORTS = [
  { importer: /antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]index\.js$/, source: "./FilterDropdown", by: "src/app/shims/table-column-filter-unused.ts" },
  { importer: /antd[\\/]es[\\/]table[\\/]hooks[\\/]useSelection\.js$/, source: "../../radio", by: "src/app/shims/table-radio-selection-unused.ts" },
];

export function replacedImports(): Plugin {
  return {
    name: "backoffice:replaced-imports",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      const hit = importer ? REPLACED_IMPORTS.find((r) => r.source === source && r.importer.test(importer)) : undefined;
      return hit ? path.resolve(import.meta.dirname, hit.by) : null;
    },
  };
}

/**
 * Fills `into` with the modules `file` imports statically, directly or not (known once the build has read every
 * module, before chunks are made).
 */
export function staticImportsOf(file: string, into: Set<string>): Plugin {
  return {
    name: "backoffice:static-imports",
    apply: "build",
    buildEnd() {
      const visit = (id: string) => {
        if (into.has(id)) return;
        into.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) visit(next);
      };
      visit(path.resolve(import.meta.dirname, file));
    },
  };
}

// In development Vite serves the app and proxies the three interfaces to the Node server.
// Browser build only (tests and the server use the real packages): see each shim's comment.
const CASBIN_UNUSED = path.resolve(import.meta.dirname, "src/app/shims/casbin-unused.ts");
const BROWSER_ALIASES = [
  { find: /^buffer$/, replacement: CASBIN_UNUSED },
  { find: /^minimatch$/, replacement: CASBIN_UNUSED },
  { find: /^csv-parse\/sync$/, replacement: CASBIN_UNUSED },
  { find: /^side-channel$/, replacement: path.resolve(import.meta.dirname, "src/app/shims/side-channel.cjs") },
  { find: /^resize-observer-polyfill$/, replacement: path.resolve(import.meta.dirname, "src/app/shims/resize-observer.ts") },
  { find: /^papaparse$/, replacement: path.resolve(import.meta.dirname, "src/app/shims/papaparse-unused.ts") },
];

export default defineConfig({
  plugins: [react(), precompress(), replacedImports(), staticImportsOf("src/framework/pages/ListPage.tsx", listPage)],
  resolve: { alias: BROWSER_ALIASES },
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // @refinedev/antd's MarkdownField pulls react-markdown and its parsers into every page that uses
      // the package (useTable, useForm); nothing here renders markdown, and these packages have no side
      // effects on import, so declaring that lets the build drop them (about 25 kB compressed).
      treeshake: { moduleSideEffects: (id: string) => !MARKDOWN_PACKAGES.test(id) && !SIDE_EFFECT_FREE.test(id) },
      // ~60 lazy pages share antd, Refine and the rc-* components in as many different combinations, so
      // automatic splitting made dozens of small chunks (the first list page fetched 75 files, ~0.3 kB of headers
      // each, and brotli compresses small files worse). The third-party modules used by 20 or more pages go into
      // one "ui" chunk instead (20 measured best: fewer pulls in modules a list does not need, more leaves small
      // chunks); the sign-in page uses none of them. Without their dependencies (react stays in the entry), so the
      // order of execution across chunks is kept explicitly.
      preserveEntrySignatures: false,
      output: {
        strictExecutionOrder: true,
        codeSplitting: {
          groups: [
            { name: "ui", test: (id: string) => SHARED_UI.test(id) && !NOT_ON_LISTS.test(id), minShareCount: 20, includeDependenciesRecursively: false },
            // our code of the generated list page (the framework's list, field kinds, formats) in one file too
            { name: "list", test: (id: string) => OUR_CODE.test(id) && listPage.has(id), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      "/v1/graphql": { target: server, ws: true },
      "/api": server,
      "/auth": server,
      "/media": server,
    },
  },
});
