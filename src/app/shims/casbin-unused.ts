/**
 * Stands in, in the browser build only (vite.config.ts), for three packages casbin imports for features our
 * model does not use: `buffer` (ipMatch), `minimatch` (globMatch) and `csv-parse/sync` (reading policy CSV
 * text — the browser adds the rules as arrays, src/app/casbinEnforcer.ts). About 40 kB compressed the list pages no
 * longer download. Each throws if ever called, so a model that starts using one fails loudly, not wrongly.
 */
function unused(what: string): never {
  throw new Error(`${what} is not available in the browser build (see src/app/shims/casbin-unused.ts)`);
}

export class Buffer {
  constructor() {
    unused("casbin ipMatch (buffer)");
  }
}

export function minimatch(): boolean {
  return unused("casbin globMatch (minimatch)");
}

export function parse(): never {
  return unused("casbin CSV policy text (csv-parse)");
}
