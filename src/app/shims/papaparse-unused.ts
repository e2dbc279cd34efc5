/**
 * Stands in for `papaparse` in the browser build (vite.config.ts): @refinedev/core imports it for its CSV
 * export and import hooks, which nothing here uses (lists export through src/framework/csv.ts). Throws if
 * ever called, so a page that starts using them fails loudly.
 */
function unused(): never {
  throw new Error("papaparse is not in the browser build (see src/app/shims/papaparse-unused.ts)");
}

export default { parse: unused, unparse: unused };
