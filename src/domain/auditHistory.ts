/**
 * The audit trail's entries as people read them (issue 36): "field label: before → after", the time as
 * DD/MM/YYYY HH:mm in Singapore, the CSV of the audit log screen. Shared by the History drawer, the audit log
 * screen and the server's CSV export.
 */
import { formatInSingapore, type DateInput } from "./dates.ts";
import { humanize, storedValueLabel } from "./enumLabels.ts";
import { roleLabel } from "./roleLabels.ts";

export const AUDIT_TIME_FORMAT = "DD/MM/YYYY HH:mm";
export const AUDIT_ACTIONS = { insert: "Created", update: "Updated", delete: "Deleted", purge: "Purged" } as const;
export type AuditOp = keyof typeof AUDIT_ACTIONS;

/** Columns every row carries that say nothing a reader needs in a history. */
export const AUDIT_BOOKKEEPING = new Set(["id", "createdAt", "updatedAt", "createdBy", "updatedBy"]);

export interface AuditChange {
  readonly column: string;
  readonly before: unknown;
  readonly after: unknown;
}

export function auditTime(at: DateInput): string {
  return formatInSingapore(at, AUDIT_TIME_FORMAT);
}

/** The changed columns of an entry (before/after hold only the changed ones for an update; a whole row otherwise). */
export function auditChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChange[] {
  const columns = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((c) => !AUDIT_BOOKKEEPING.has(c)).sort();
  return columns
    .map((column) => ({ column, before: before?.[column] ?? null, after: after?.[column] ?? null }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
}

/** One value as text: empty is "--", structured values as JSON. */
export function auditValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "--";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * One line of an entry, with the label of the column when one is known: an update's "First Name: Ann → Anne"; a
 * creation's (or a purge's) "First Name: Ann", the value it was made with; a deletion's, the last value it had.
 */
export function auditChangeText(op: AuditOp, change: AuditChange, label: (column: string) => string = (c) => c, valueLabel: (column: string, value: unknown) => string | undefined = () => undefined): string {
  // an enum's stored token reads as its label ("Status: Draft → UnPaid"), the rest as stored
  const shown = (v: unknown) => valueLabel(change.column, v) ?? auditValue(v);
  if (op === "update") return `${label(change.column)}: ${shown(change.before)} → ${shown(change.after)}`;
  return `${label(change.column)}: ${shown(op === "delete" ? change.before : change.after)}`;
}

export const AUDIT_CSV_HEADER = ["Time", "User", "Role", "Table", "Record", "Action", "Changes", "Request"] as const;

/**
 * One row of the audit log's CSV (the server writes it): names in words and every enum value through the one label
 * table, as the screens show them — never a stored token ("pending", "awaiting_finance_approval").
 */
export function auditCsvCells(e: { at: DateInput; userName: string | null; role: string | null; tableName: string; rowId: string; op: AuditOp; changes: readonly AuditChange[]; requestId: string | null }): string[] {
  const changes = e.changes.map((c) => auditChangeText(e.op, c, humanize, (column, v) => storedValueLabel(e.tableName, column, v))).join("; ");
  return [auditTime(e.at), e.userName ?? "System", roleLabel(e.role ?? undefined), humanize(e.tableName), e.rowId, AUDIT_ACTIONS[e.op], changes, e.requestId ?? ""];
}
