/**
 * The PA list's filters (spec part 2 §2, issue 14): company, branch, status, issue and due date ranges,
 * student. Overdue is never stored: it is an unpaid PA whose due day ended (FINANCE.md §4), so the status
 * filter asks for unpaid PAs due on or before the last overdue due day (and the demo's stored 'overdue').
 */
import type { CrudFilter } from "@refinedev/core";
import { dayjs, DATE_FORMAT, todayInSingapore } from "../../domain/dates.ts";
import { displayPaStatus } from "../../domain/finance/paymentAdviceStatus.ts";

export interface PaListFilterValues {
  companyId?: string | null;
  branchId?: string | null;
  status?: string | null;
  studentId?: string | null;
  issueDate?: [string | null, string | null] | null;
  dueDate?: [string | null, string | null] | null;
}

/** The latest due day whose PAs are overdue now (today once 23:59:59 has passed, else yesterday). */
export function lastOverdueDueDay(now: Date = new Date()): string {
  const today = todayInSingapore(now);
  return displayPaStatus("unpaid", today, now) === "overdue" ? today : dayjs(today, DATE_FORMAT).subtract(1, "day").format(DATE_FORMAT);
}

const keyed = (key: string, value: CrudFilter[]): CrudFilter => ({ key, operator: "and", value });

export function statusFilter(status: string | null | undefined, now: Date = new Date()): CrudFilter[] {
  if (!status) return [keyed("status", [])];
  const cutoff = lastOverdueDueDay(now);
  if (status === "overdue")
    return [
      keyed("status", [
        {
          operator: "or",
          value: [
            { field: "paymentStatus", operator: "eq", value: "overdue" },
            { operator: "and", value: [{ field: "paymentStatus", operator: "eq", value: "unpaid" }, { field: "dueDate", operator: "lte", value: cutoff }] },
          ],
        },
      ]),
    ];
  if (status === "unpaid")
    return [
      keyed("status", [
        { field: "paymentStatus", operator: "eq", value: "unpaid" },
        { operator: "or", value: [{ field: "dueDate", operator: "gt", value: cutoff }, { field: "dueDate", operator: "null", value: true }] },
      ]),
    ];
  return [keyed("status", [{ field: "paymentStatus", operator: "eq", value: status }])];
}

/** The status chosen in the filters read back from the URL's filters. */
export function statusFromFilters(filters: readonly CrudFilter[]): string | undefined {
  const group = filters.find((f) => "key" in f && f.key === "status") as { value?: CrudFilter[] } | undefined;
  const inner = group?.value ?? [];
  if (inner.some((f) => f.operator === "or" && !("field" in f && f.field))) return "overdue";
  const eq = inner.find((f) => "field" in f && f.field === "paymentStatus") as { value?: string } | undefined;
  return eq?.value;
}

const eqFilter = (field: string, value: unknown): CrudFilter => ({ field, operator: "eq", value: value || undefined });

function rangeFilters(field: string, range: PaListFilterValues["issueDate"]): CrudFilter[] {
  return [
    { field, operator: "gte", value: range?.[0] || undefined },
    { field, operator: "lte", value: range?.[1] || undefined },
  ];
}

export function paListFilters(v: PaListFilterValues, now: Date = new Date()): CrudFilter[] {
  return [
    eqFilter("companyId", v.companyId),
    eqFilter("branchId", v.branchId),
    eqFilter("studentId", v.studentId),
    ...statusFilter(v.status, now),
    ...rangeFilters("issueDate", v.issueDate),
    ...rangeFilters("dueDate", v.dueDate),
  ];
}

function valueOf(filters: readonly CrudFilter[], field: string, operator: string): string | undefined {
  const f = filters.find((x) => "field" in x && x.field === field && x.operator === operator) as { value?: string } | undefined;
  return f?.value ?? undefined;
}

export function paListFilterValues(filters: readonly CrudFilter[]): PaListFilterValues {
  const range = (field: string): [string | null, string | null] | null => {
    const from = valueOf(filters, field, "gte") ?? null;
    const to = valueOf(filters, field, "lte") ?? null;
    return from || to ? [from, to] : null;
  };
  return {
    companyId: valueOf(filters, "companyId", "eq"),
    branchId: valueOf(filters, "branchId", "eq"),
    studentId: valueOf(filters, "studentId", "eq"),
    status: statusFromFilters(filters),
    issueDate: range("issueDate"),
    dueDate: range("dueDate"),
  };
}
