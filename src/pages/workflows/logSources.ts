/** The credit-note and refund log rows as the Log History shows them (spec part 2 §2: the four action texts). */
import { logActionText } from "../../domain/logActions.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import type { LogRow, LogSource } from "../finance/LogHistory.tsx";

type Logged = { name?: string | null; creditNoteStatus?: string; refundStatus?: string } | null;

export function creditNoteLogAction(row: LogRow, name: string | null | undefined): string {
  const before = row.valueBefore as Logged;
  const after = row.valueAfter as Logged;
  const label = (s: string | undefined) => (s ? enumLabel("credit_notes", "creditNoteStatus", s) : undefined);
  return logActionText({ type: row.type, document: "CN", name: after?.name ?? name ?? "Draft", statusBefore: label(before?.creditNoteStatus), statusAfter: label(after?.creditNoteStatus), sourceName: before?.name ?? undefined });
}

export function refundLogAction(row: LogRow, name: string | null | undefined): string {
  const before = row.valueBefore as Logged;
  const after = row.valueAfter as Logged;
  const label = (s: string | undefined) => (s ? enumLabel("refunds", "refundStatus", s) : undefined);
  return logActionText({ type: row.type, document: "RF", name: after?.name ?? name ?? "Draft", statusBefore: label(before?.refundStatus), statusAfter: label(after?.refundStatus) });
}

export const creditNoteLogSource = (name: string | null | undefined): LogSource => ({
  table: "credit_note_logs",
  parentField: "creditNoteId",
  detailPath: (logId) => `/finance/credit-note/logs/${logId}`,
  actionText: (row) => creditNoteLogAction(row, name),
});

export const refundLogSource = (name: string | null | undefined): LogSource => ({
  table: "refund_logs",
  parentField: "refundId",
  detailPath: (logId) => `/finance/refund/logs/${logId}`,
  actionText: (row) => refundLogAction(row, name),
});
