/**
 * Stands in for the virtual table antd's Table imports for `virtual` (vite.config.ts): no table here scrolls
 * virtually, and it brought rc-table's virtual grid and rc-virtual-list (~5 kB compressed) to every list page.
 * Throws if ever drawn, so a table that starts using it fails loudly.
 */
export default function VirtualTable(): never {
  throw new Error("antd Table's virtual mode is not in the browser build (see src/app/shims/table-virtual-unused.ts)");
}
