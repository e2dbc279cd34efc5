import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

const server = `http://localhost:${process.env.PORT ?? 9000}`;

const MARKDOWN_PACKAGES = /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|hast-[^/]+|unist-[^/]+|unified|vfile[^/]*|property-information|space-separated-tokens|comma-separated-tokens|decode-named-character-reference|character-entities[^/]*|markdown-table|ccount|trim-lines|devlop|bail|is-plain-obj|trough|zwitch|longest-streak|html-url-attributes|estree-util-[^/]+|style-to-[^/]+|inline-style-parser)\//;

// Kept only because they might have side effects on import, which they do not: @refinedev/devtools-internal reads
// stacks with the first two in development only; antd's Table takes a few helpers from rc-tree, whose tree
// component came along with them; every antd input takes FormProvider from rc-field-form's index, which brought
// the whole form store, fields and validator (@rc-component/async-validator) to pages without a form; every
// button's style takes antd's colour class, which imports the colour picker's index and with it the picker.
const SIDE_EFFECT_FREE = /node_modules\/(error-stack-parser|stackframe|rc-tree|rc-virtual-list|rc-table\/es\/VirtualTable|rc-field-form|@rc-component\/async-validator|@rc-component\/color-picker)\//;

/** Third-party modules other than React and the router (those come with the entry). */
const SHARED_UI = /node_modules[\\/](?!(react|react-dom|react-router|scheduler)[\\/])/;

/** Shared by many pages but not drawn by a list page: left out of the "ui" chunk the lists load. */
const NOT_ON_LISTS =
  /node_modules[\\/](antd[\\/]es[\\/](card[\\/](?!style)|typography[\\/](?!Typography\.js|style)|modal[\\/](?!locale)|input[\\/](OTP|Search|Password|Group|index|TextArea)|form[\\/](?!context|style)|grid[\\/](?!style)|select[\\/](?!style)|(tabs|skeleton|descriptions|alert|progress|image|notification|message)[\\/])|rc-select|rc-virtual-list|rc-notification|rc-tabs|rc-progress|rc-image|rc-dialog|rc-field-form|@rc-component[\\/]async-validator|rc-textarea|sunflower-antd|@refinedev[\\/]antd|compute-scroll-into-view|scroll-into-view-if-needed|copy-to-clipboard|toggle-selection|graphql[\\/])/;

/** Our own modules (not a package's src/ folder). */
const OUR_CODE = /^(?!.*node_modules).*[\\/](src|resources)[\\/]/;

/** The modules the generated list page imports (filled during the build). */
const listPage = new Set<string>();
/** The modules the entry (the shell up to the sign-in page) imports statically (filled during the build). */
const entryModules = new Set<string>();

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
 * see each stub's comment. `by` is one of our files or a package's module.
 */
const REPLACED_IMPORTS = [
  { importer: /antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]index\.js$/, source: "./FilterDropdown", by: "src/app/shims/table-column-filter-unused.ts" },
  { importer: /antd[\\/]es[\\/]table[\\/]hooks[\\/]useSelection\.js$/, source: "../../radio", by: "src/app/shims/table-radio-selection-unused.ts" },
  { importer: /antd[\\/]es[\\/]table[\\/]InternalTable\.js$/, source: "./RcTable/VirtualTable", by: "src/app/shims/table-virtual-unused.ts" },
  // antd's form context (which every input reads) takes FormProvider from rc-field-form's index, whose other
  // exports (the form store, fields, the validator) then count as imported by every page: the module itself.
  { importer: /antd[\\/]es[\\/]form[\\/]context\.js$/, source: "rc-field-form", by: "rc-field-form/es/FormContext.js" },
  // Pagination's page-size changer, which lists never show: antd's Select loaded when a changer draws.
  { importer: /antd[\\/]es[\\/]pagination[\\/]Pagination\.js$/, source: "../select", by: "src/app/shims/pagination-size-select.tsx" },
];

export function replacedImports(): Plugin {
  return {
    name: "backoffice:replaced-imports",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      const hit = importer ? REPLACED_IMPORTS.find((r) => r.source === source && r.importer.test(importer)) : undefined;
      if (!hit) return null;
      // a package's own module resolves as the package's other imports do (one copy of it)
      return hit.by.startsWith("src/") ? path.resolve(import.meta.dirname, hit.by) : this.resolve(hit.by, importer, { skipSelf: true });
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
  plugins: [react(), precompress(), replacedImports(), staticImportsOf("src/framework/pages/ListPage.tsx", listPage), staticImportsOf("src/main.tsx", entryModules)],
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
      // each, and brotli compresses small files worse). Three groups instead, each with its dependencies (so the
      // build keeps the order of execution itself): "entry", what the shell imports up to the sign-in page; "ui",
      // the third-party modules used by 20 or more pages (20–30 measured best); "list", our code of the generated
      // list page. Until session 12 the groups left out their dependencies and strictExecutionOrder wrapped every
      // module in an init function to keep the order: ~22 kB compressed of glue on the first list page.
      preserveEntrySignatures: false,
      output: {
        strictExecutionOrder: false,
        codeSplitting: {
          groups: [
            { name: "entry", test: (id: string) => entryModules.has(id), priority: 30 },
            { name: "ui", test: (id: string) => SHARED_UI.test(id) && !NOT_ON_LISTS.test(id), minShareCount: 20, priority: 20 },
            // our code of the generated list page (the framework's list, field kinds, formats) in one file too
            { name: "list", test: (id: string) => OUR_CODE.test(id) && listPage.has(id), priority: 10 },
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
