/**
 * Row-heavy reports (issue 38 §2: PA Listing, Student Attendance, both Enrollment Lists — up to 8 MB of JSON a year
 * at scale 20000) are paged on the server and their CSV streamed: a page is one `limit … offset` statement, the
 * totals, chart and count one aggregate statement over the same rows, and the CSV export reads the rows through a
 * cursor a batch at a time, so the server never holds the whole report.
 */
import type { Writable } from "node:stream";
import type { Db, Queryable } from "../db/index.ts";
import { CSV_BOM, csvLine } from "../../src/domain/csv.ts";
import { reportCsvCells, type ReportColumn, type ReportResult, type ReportRow } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

/** A report's rows as SQL: `select` (no order, no limit) and the order they are listed in. */
export interface ReportSource {
  select: string;
  orderBy: string;
  params: unknown[];
  /** The same rows without the joins that only name them, for the totals (a year is tens of thousands of rows); else `select`. */
  tally?: string;
}

export type ReportWhole = Pick<ReportResult, "totals" | "chart" | "summary"> & { count: number };

export interface PagedReport<R = Record<string, unknown>> {
  columns: ReportColumn[];
  source(f: ReportFilters): ReportSource;
  /** How a row is shown; a new function per run (it may keep what it worked out for the run, e.g. today's overdue rule). */
  lines(): (row: R) => ReportRow;
  /** The whole report's totals row, chart, summary and row count, aggregated in SQL over `select` (as `r`). */
  whole(db: Queryable, source: ReportSource): Promise<ReportWhole>;
}

export interface Paging {
  page: number;
  pageSize: number;
}

/** One page of the report with the whole report's totals. */
export async function reportPage<R>(db: Queryable, report: PagedReport<R>, f: ReportFilters, paging: Paging): Promise<ReportResult> {
  const source = report.source(f);
  const n = source.params.length;
  const [{ rows }, whole] = await Promise.all([
    db.query<R>(`${source.select} order by ${source.orderBy} limit $${n + 1} offset $${n + 2}`, [...source.params, paging.pageSize, (paging.page - 1) * paging.pageSize]),
    report.whole(db, source),
  ]);
  const { count, ...figures } = whole;
  return { columns: report.columns, rows: rows.map(report.lines()), ...figures, page: { current: paging.page, pageSize: paging.pageSize, total: count } };
}

/** Rows fetched from the cursor at a time when a report's CSV is streamed. */
export const CSV_BATCH = 1000;

/**
 * Writes the report as CSV (header, every row, the totals row) to `out`, reading the rows through a cursor `batch`
 * at a time and waiting for `out` to drain before the next batch. Ends `out`; a closed `out` ends the read.
 */
export async function streamReportCsv<R>(db: Db, report: PagedReport<R>, f: ReportFilters, out: Writable, batch = CSV_BATCH): Promise<void> {
  const source = report.source(f);
  const line = report.lines();
  try {
    await send(out, CSV_BOM + csvLine(report.columns.map((c) => c.title)));
    await db.transaction(async (tx) => {
      await tx.query(`declare report_rows no scroll cursor for ${source.select} order by ${source.orderBy}`, source.params);
      for (;;) {
        const { rows } = await tx.query<R>(`fetch ${batch} from report_rows`);
        if (rows.length) await send(out, rows.map((r) => csvLine(reportCsvCells(report.columns, line(r)))).join(""));
        if (rows.length < batch) return;
      }
    });
    const { totals } = await report.whole(db, source);
    if (totals) await send(out, csvLine(reportCsvCells(report.columns, totals)));
    out.end();
  } catch (e) {
    out.destroy(e as Error);
  }
}

/** Writes a chunk; when `out` is full, waits until it drains (or is closed: then the read stops). */
async function send(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed) throw new Error("The download was closed.");
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const drained = () => {
      out.off("close", closed);
      resolve();
    };
    const closed = () => {
      out.off("drain", drained);
      reject(new Error("The download was closed."));
    };
    out.once("drain", drained);
    out.once("close", closed);
  });
}
