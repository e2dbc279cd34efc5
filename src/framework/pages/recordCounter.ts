import { config } from "../../app/config.ts";

export const PAGE_SIZE = 10;

/**
 * The cheap count (issue 38): a list over a table that grows without bound counts at most config.listCountCap + 1
 * rows — its query takes `$countLimit: Int` and asks `x_aggregate(where: $where, limit: $countLimit)` (the engine's
 * Hasura argument: the count of the first countLimit matching rows), with these variables — and shows a count
 * over the cap as "about N" (the engine's planner estimate, `countEstimateMeta`) or, without one, "1,000+"
 * (PagedTable's `cappedCount`).
 */
export const cappedCountVariables = (): { countLimit: number } => ({ countLimit: config.listCountCap + 1 });

/**
 * In a capped list's meta: past the cap, the data provider asks the engine's `x_count_estimate(where)` with the
 * list's where and returns it as `countEstimate` beside the total (undefined where the engine has none).
 */
export const countEstimateMeta = { countEstimate: true } as const;

/** A total from a capped count that stopped at the cap: the real count is larger. */
export const isCappedTotal = (total: number): boolean => total > config.listCountCap;

/** An estimate as shown: two significant digits; undefined when unknown or not over the cap (the rows counted say more). */
export function shownEstimate(estimate: number | undefined): number | undefined {
  if (estimate === undefined || !Number.isFinite(estimate)) return undefined;
  const rounded = Number(estimate.toPrecision(2));
  return rounded > config.listCountCap ? rounded : undefined;
}

/**
 * 'Viewing from X - Y (out of N records)'; with `capped`, a total over the cap reads "about 20,000" given the
 * planner's `estimate`, else "1,000+".
 */
export function recordCounter(currentPage: number, pageSize: number, shown: number, total: number, capped = false, estimate?: number): string {
  const from = total === 0 || shown === 0 ? 0 : (currentPage - 1) * pageSize + 1;
  const to = total === 0 || shown === 0 ? 0 : from + shown - 1;
  const about = shownEstimate(estimate);
  const over = about !== undefined ? `about ${about.toLocaleString("en-SG")}` : `${config.listCountCap.toLocaleString("en-SG")}+`;
  const n = capped && isCappedTotal(total) ? over : String(total);
  return `Viewing from ${from} - ${to} (out of ${n} records)`;
}
