/**
 * Stands in for antd's Tree where antd's Table imports it (vite.config.ts): the column filter draws a tree only
 * for `filterMode: "tree"`, which no list uses (lists filter through their form), and the tree brings rc-tree
 * (~8 kB compressed) into every list. Throws if ever drawn, so a column that starts using it fails loudly.
 */
export default function Tree(): never {
  throw new Error("antd Table's tree filter is not in the browser build (see src/app/shims/table-filter-tree-unused.ts)");
}
