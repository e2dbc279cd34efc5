export const PAGE_SIZE = 10;

/** 'Viewing from X - Y (out of N records)' */
export function recordCounter(currentPage: number, pageSize: number, shown: number, total: number): string {
  const from = total === 0 || shown === 0 ? 0 : (currentPage - 1) * pageSize + 1;
  const to = total === 0 || shown === 0 ? 0 : from + shown - 1;
  return `Viewing from ${from} - ${to} (out of ${total} records)`;
}
