export const PAGE_SIZE = 10;

/**
 * The cheap count (issue 38): a list over a table that grows without bound asks its aggregate for at most
 * COUNT_CAP + 1 rows (`x_aggregate(where: $where, limit: COUNT_CAP + 1)`, Hasura's own argument, so the aggregate
 * itself stays exact) and passes `countCap` to PagedTable; a count over the cap is shown as "10,000+".
 */
export const COUNT_CAP = 10_000;

/** 'Viewing from X - Y (out of N records)'; N over `countCap` reads "10,000+" (a capped count). */
export function recordCounter(currentPage: number, pageSize: number, shown: number, total: number, countCap?: number): string {
  const from = total === 0 || shown === 0 ? 0 : (currentPage - 1) * pageSize + 1;
  const to = total === 0 || shown === 0 ? 0 : from + shown - 1;
  const n = countCap !== undefined && total > countCap ? `${countCap.toLocaleString("en-SG")}+` : String(total);
  return `Viewing from ${from} - ${to} (out of ${n} records)`;
}
