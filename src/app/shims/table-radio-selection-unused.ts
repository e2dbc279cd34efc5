/**
 * Stands in for the radio buttons antd's Table imports for `rowSelection.type: "radio"` (vite.config.ts): tables
 * here select rows with check boxes or not at all. Throws if ever drawn, so a table that starts using it fails loudly.
 */
export default function Radio(): never {
  throw new Error("antd Table's radio selection is not in the browser build (see src/app/shims/table-radio-selection-unused.ts)");
}
