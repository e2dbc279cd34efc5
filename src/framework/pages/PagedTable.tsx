/**
 * The spec's list table, for generated and hand-written lists alike: the counter 'Viewing from X - Y (out of
 * N records)', an index column continuing across pages, pagination with quick jump and no page-size selector.
 */
import { Table, type TableProps } from "antd";
import { Text } from "../typography.tsx";
import type { TableColumnsType as ColumnsType } from "antd";
import { isCappedTotal, recordCounter, shownEstimate } from "./recordCounter.ts";

export interface PagedTableProps<T> extends Omit<TableProps<T>, "columns"> {
  /** useTable's tableProps (data, loading, pagination, onChange). */
  tableProps: TableProps<T>;
  currentPage: number;
  pageSize: number;
  total: number;
  columns: ColumnsType<T>;
  counterTestId?: string;
  /** The total is a capped count (recordCounter.ts): one over the cap is shown as "about N" or "1,000+". */
  cappedCount?: boolean;
  /** Past the cap, the planner's estimate of the rows (the data provider's `countEstimate`). */
  countEstimate?: number;
}

export function PagedTable<T extends object>({ tableProps, currentPage, pageSize, total, columns, counterTestId = "record-counter", cappedCount = false, countEstimate, ...table }: PagedTableProps<T>) {
  const shown = tableProps.dataSource?.length ?? 0;
  // past the cap the pager spans the estimate (a page beyond the real end is empty) rather than the cap's pages
  const estimate = cappedCount && isCappedTotal(total) ? shownEstimate(countEstimate) : undefined;
  // Refine turns on antd's "simple" pager on narrow screens, which has no quick jump: always the full pager.
  const pagination =
    tableProps.pagination === false ? false : { ...tableProps.pagination, ...(estimate ? { total: estimate } : {}), simple: false, showQuickJumper: true, showSizeChanger: false, position: ["bottomRight" as const] };
  return (
    <>
      {/* No count before the rows arrive (never "0 records" for a moment, nor a total from before a save). */}
      <Text className="record-counter" data-testid={counterTestId} style={tableProps.loading && shown === 0 ? { visibility: "hidden" } : undefined}>
        {recordCounter(currentPage, pageSize, shown, total, cappedCount, countEstimate)}
      </Text>
      <Table<T>
        {...tableProps}
        rowKey="id"
        {...table}
        pagination={pagination}
        columns={[{ title: "Index", key: "__index", width: 72, render: (_v, _r, i) => (currentPage - 1) * pageSize + i + 1 }, ...columns]}
      />
    </>
  );
}
