/** The filters every report call takes: a day or a period (Singapore calendar days), a company, a branch. */
export interface ReportFilters {
  from: string;
  to: string;
  companyId: string | null;
  branchId: string | null;
}

/** The start and end instants of a period of Singapore days, as SQL parameters: [from 00:00, day after `to` 00:00). */
export const PERIOD_START = (p: number) => `(($${p})::date)::timestamp at time zone 'Asia/Singapore'`;
export const PERIOD_END = (p: number) => `(($${p})::date + 1)::timestamp at time zone 'Asia/Singapore'`;
