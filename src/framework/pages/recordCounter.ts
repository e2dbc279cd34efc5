import { config } from "../../app/config.ts";

export const PAGE_SIZE = 10;

/**
 * The cheap count (issue 38): a list over a table that grows without bound counts at most config.listCountCap + 1
 * rows — its query takes `$countLimit: Int` and asks `x_aggregate(where: $where, limit: $countLimit)` (the engine's
 * Hasura argument: the count of the first countLimit matching rows), with these variables — and shows a count
 * over the cap as "10,000+" (PagedTable's `cappedCount`).
 */
export const cappedCountVariables = (): { countLimit: number } => ({ countLimit: config.listCountCap + 1 });

/** A total from a capped count that stopped at the cap: the real count is larger. */
export const isCappedTotal = (total: number): boolean => total > config.listCountCap;

/** 'Viewing from X - Y (out of N records)'; with `capped`, a total over the cap reads "10,000+". */
export function recordCounter(currentPage: number, pageSize: number, shown: number, total: number, capped = false): string {
  const from = total === 0 || shown === 0 ? 0 : (currentPage - 1) * pageSize + 1;
  const to = total === 0 || shown === 0 ? 0 : from + shown - 1;
  const n = capped && isCappedTotal(total) ? `${config.listCountCap.toLocaleString("en-SG")}+` : String(total);
  return `Viewing from ${from} - ${to} (out of ${n} records)`;
}
