/**
 * Stands in for `resize-observer-polyfill` in the browser build (vite.config.ts): the package exports the
 * browser's own ResizeObserver whenever there is one, as in every browser we support; its polyfill is dead
 * weight (~3 kB compressed) on every page.
 */
export default globalThis.ResizeObserver;
