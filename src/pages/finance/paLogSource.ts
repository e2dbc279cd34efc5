/** The payment advice's log rows (payment_advice_logs) as the Log History shows them. */
import { logActionText } from "../../domain/logActions.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import type { LogRow, LogSource } from "./LogHistory.tsx";

export const PA_LOGS_PATH = "/finance/payment-advice/logs";

type PaValue = { paymentAdvice?: { paymentStatus?: string; name?: string | null }; reminder?: { step: number; recipient: string } } | null;

const statusLabel = (s: string | undefined) => (s ? enumLabel("payment_advices", "paymentStatus", s) : undefined);

/** The PA's name as its log rows show it: its number, or Draft before it has one (FINANCE.md §2). */
export const paDisplayName = (name: string | null | undefined) => name || "Draft";

export function paLogAction(row: LogRow, paName: string | null | undefined): string {
  const before = (row.valueBefore as PaValue)?.paymentAdvice;
  const reminder = (row.valueAfter as PaValue)?.reminder;
  // an overdue reminder (issue 39) is an update row whose valueAfter is the reminder
  if (row.type === "update" && reminder) return `Send Overdue Reminder (${reminder.step} days after due) to ${reminder.recipient}`;
  const after = (row.valueAfter as PaValue)?.paymentAdvice;
  return logActionText({
    type: row.type,
    document: "PA",
    name: paDisplayName(after?.name ?? paName),
    statusBefore: statusLabel(before?.paymentStatus),
    statusAfter: statusLabel(after?.paymentStatus),
    sourceName: before?.name ?? undefined,
  });
}

export function paLogSource(paName: string | null | undefined): LogSource {
  return {
    table: "payment_advice_logs",
    parentField: "paymentAdviceId",
    detailPath: (logId) => `${PA_LOGS_PATH}/${logId}`,
    actionText: (row) => paLogAction(row, paName),
  };
}
