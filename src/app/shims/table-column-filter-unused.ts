/**
 * Stands in for antd Table's column filter dropdown in the browser build (vite.config.ts): no table here filters
 * through its columns (lists filter through their form; no column sets `filters` or `filterDropdown`), and the
 * dropdown brings a tree (rc-tree), radio buttons and a search box into every list. Throws if ever drawn, so a
 * column that starts using it fails loudly. `flattenKeys` as antd's: the table's filter hook reads values with it.
 */
interface FilterItem {
  value: unknown;
  children?: FilterItem[];
}

export function flattenKeys(filters?: readonly FilterItem[]): unknown[] {
  return (filters ?? []).flatMap(({ value, children }) => [value, ...(children ? flattenKeys(children) : [])]);
}

export default function FilterDropdown(): never {
  throw new Error("antd Table's column filters are not in the browser build (see src/app/shims/table-column-filter-unused.ts)");
}
