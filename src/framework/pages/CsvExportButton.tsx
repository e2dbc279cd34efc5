/** CSV export of every row matching the list's filters, fetched page by page with a progress bar. */
import { Button } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { useDataProvider, type BaseRecord, type CrudFilter, type CrudSort } from "@refinedev/core";
import { Suspense, lazy, useState } from "react";
import type { Resource } from "../types.ts";
import { listFields } from "../defineResource.ts";
import { listSelection } from "../selection.ts";
import { KINDS } from "../kinds.tsx";
import { fetchRelationLabels } from "../useRelationLabels.ts";
import { csvFileName, toCsv } from "../csv.ts";
import { todayInSingapore } from "../../domain/dates.ts";
import { errorMessage } from "../notifications.ts";
import { toast } from "../toast.ts";
import { saveCsv } from "../download.ts";
import { isCappedTotal } from "./recordCounter.ts";

export const EXPORT_PAGE_SIZE = 100;

const ExportProgress = lazy(() => import("./ExportProgress.tsx"));

/** Fetches all matching rows page by page, reporting progress (0–100). */
export async function fetchAllRows(
  getDataProvider: ReturnType<typeof useDataProvider>,
  resource: Resource,
  filters: CrudFilter[],
  sorters: CrudSort[],
  onProgress: (percent: number) => void,
  /** The query of the rows (default: the resource's list columns); a hand-written list passes its own. */
  meta: Record<string, unknown> = { fields: listSelection(resource) },
): Promise<BaseRecord[]> {
  const rows: BaseRecord[] = [];
  for (let page = 1; ; page++) {
    const { data, total } = await getDataProvider().getList({
      resource: resource.table,
      filters,
      sorters: [...sorters, { field: "id", order: "asc" }],
      pagination: { currentPage: page, pageSize: EXPORT_PAGE_SIZE, mode: "server" },
      meta: { ...meta, countEstimate: false }, // the export reads to a short page: no estimate of its size
    });
    rows.push(...data);
    onProgress(total ? Math.min(100, Math.round((rows.length / total) * 100)) : 100);
    // a capped count (recordCounter.ts) is no end: a short page is
    if (data.length < EXPORT_PAGE_SIZE || (rows.length >= total && !isCappedTotal(total))) return rows;
  }
}

export function CsvExportButton({ resource, filters, sorters }: { resource: Resource; filters: CrudFilter[]; sorters: CrudSort[] }) {
  const getDataProvider = useDataProvider();
  const [percent, setPercent] = useState<number | null>(null);
  // mounted from the first export on, so the dialog closes with antd's animation as before
  const [exported, setExported] = useState(false);
  const run = async () => {
    setExported(true);
    setPercent(0);
    try {
      const fields = listFields(resource);
      const rows = await fetchAllRows(getDataProvider, resource, filters, sorters, setPercent);
      const labels = await fetchRelationLabels(getDataProvider, fields, rows);
      const csv = toCsv(
        ["Index", ...fields.map((f) => f.label)],
        rows.map((row, i) => [String(i + 1), ...fields.map((f) => KINDS[f.kind].toText(row[f.name], f, labels[f.name], row))]),
      );
      saveCsv(csv, csvFileName(resource.table, todayInSingapore()));
    } catch (error) {
      // GraphQL errors were already shown by the data provider; anything else is shown here.
      if (!(error as { errors?: unknown })?.errors) void toast.error(errorMessage(error));
    } finally {
      setPercent(null);
    }
  };
  return (
    <>
      <Button icon={<DownloadOutlined />} onClick={() => void run()} loading={percent !== null}>
        Export CSV
      </Button>
      {exported && (
        <Suspense fallback={null}>
          <ExportProgress percent={percent} />
        </Suspense>
      )}
    </>
  );
}
