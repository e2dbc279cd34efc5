/**
 * Refine's table hook with antd Table props: what @refinedev/antd's useTable gives a list (rows, loading,
 * sorting by header, pagination whose pages are links), without its search form, which brings antd's whole
 * Form (rc-field-form and the validator) to every list (issue 20). The filter bar is FilterBar.tsx.
 */
import { Children, Fragment, createElement, type ReactNode } from "react";
import { getDefaultSortOrder as coreSortOrder, useLink, useLiveMode, useTable, type BaseRecord, type CrudSort, type useTableProps } from "@refinedev/core";
import type { TablePaginationConfig, TableProps } from "antd/es/table/index.js";
import type { SorterResult } from "antd/es/table/interface.js";

/** A column's antd sort order from Refine's sorters ("ascend" / "descend"). */
export function getDefaultSortOrder(column: string, sorters: readonly CrudSort[]): "ascend" | "descend" | undefined {
  const order = coreSortOrder(column, sorters as CrudSort[]);
  return order ? `${order}end` : undefined;
}

/** antd's sorter (one column or several) → Refine's sorters, in the columns' `multiple` order. */
export function sortersFromAntd(sorter: SorterResult<BaseRecord> | SorterResult<BaseRecord>[]): CrudSort[] {
  const one = (s: SorterResult<BaseRecord>): CrudSort[] => {
    if (!s.field || !s.order) return [];
    const field = Array.isArray(s.field) ? s.field.join(".") : `${s.field}`;
    return [{ field: `${s.columnKey ?? field}`, order: s.order.replace("end", "") as "asc" | "desc" }];
  };
  if (!Array.isArray(sorter)) return one(sorter);
  const multiple = (s: SorterResult<BaseRecord>) => ((s.column?.sorter as { multiple?: number } | undefined)?.multiple ?? 0);
  return [...sorter].sort((a, b) => (multiple(a) < multiple(b) ? -1 : 0)).flatMap(one);
}

function PaginationLink({ to, element }: { to: string; element: ReactNode }) {
  const Link = useLink();
  return (
    <Link to={to} replace={false} onClick={(e: { preventDefault(): void }) => e.preventDefault()}>
      {element}
    </Link>
  );
}

export function useListTable(props: useTableProps<BaseRecord, never, BaseRecord>) {
  const table = useTable<BaseRecord, never, BaseRecord>(props);
  const { tableQuery, currentPage, setCurrentPage, pageSize, setPageSize, sorters, setSorters, filters, createLinkForSyncWithLocation } = table;
  const liveMode = useLiveMode(props.liveMode);
  const paginated = props.pagination?.mode !== "off";
  const { data, isFetched, isLoading } = tableQuery;

  const onChange: TableProps<BaseRecord>["onChange"] = (pagination, _columnFilters, sorter) => {
    // No list filters by column (the filter bar does), so antd's column filters are not read.
    if (sorter && Object.keys(sorter).length > 0) setSorters(sortersFromAntd(sorter));
    if (paginated) {
      setCurrentPage(pagination.current || 1);
      setPageSize(pagination.pageSize || 10);
    }
  };

  const pagination: TablePaginationConfig | false = paginated
    ? {
        itemRender: (page, type, element) => {
          const to = createLinkForSyncWithLocation({ pagination: { pageSize, currentPage: page }, sorters, filters });
          if (type === "page") return createElement(PaginationLink, { to, element: `${page}` });
          if (type === "next" || type === "prev") return createElement(PaginationLink, { to, element });
          if (type === "jump-next" || type === "jump-prev") {
            const children = (element as { props?: { children?: ReactNode } } | null)?.props?.children;
            return createElement(PaginationLink, { to, element: Children.count(children) > 1 ? createElement(Fragment, {}, children) : children });
          }
          return element;
        },
        pageSize,
        current: currentPage,
        total: data?.total,
      }
    : false;

  return {
    ...table,
    tableProps: { dataSource: data?.data, loading: liveMode === "auto" ? isLoading : !isFetched, onChange, pagination, scroll: { x: true } } satisfies TableProps<BaseRecord>,
  };
}
