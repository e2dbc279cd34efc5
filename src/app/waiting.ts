/**
 * "Waiting for me" (issue 16 §5): a workflow document waits on whoever holds the right of the step its status
 * is at. The user's rights come from the access policy (api:/actions/<document>/<right>, POST); the count is
 * one GraphQL aggregate. The side menu shows it on the entry, the list offers it as a filter.
 */
import { useCan, useList } from "@refinedev/core";
import { CREDIT_NOTE_RIGHTS, CREDIT_NOTE_WAITING_ON } from "../domain/finance/creditNote.ts";
import { REFUND_RIGHTS, REFUND_WAITING_ON } from "../domain/finance/refund.ts";
import { waitingStatuses } from "../domain/finance/workflow.ts";

export function useGrantedRights<R extends string>(document: "credit-note" | "refund", rights: readonly R[]): ReadonlySet<R> {
  const granted = new Set<R>();
  // `rights` is one of the domain's constant lists: the same hooks run on every render.
  for (const right of rights) {
    // eslint-disable-next-line react-hooks/rules-of-hooks
    if (useCan({ resource: `api:/actions/${document}/${right}`, action: "POST" }).data?.can === true) granted.add(right);
  }
  return granted;
}

/** How many documents of a table wait on the user; null while unknown or when nothing can wait on them. */
export function useWaitingCount(table: string, statusField: string, waiting: readonly string[]): number | null {
  const { result } = useList({
    resource: table,
    pagination: { currentPage: 1, pageSize: 1 },
    filters: [{ field: statusField, operator: "in", value: [...waiting] }, { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id"] },
    queryOptions: { enabled: waiting.length > 0, retry: false },
  });
  return waiting.length > 0 ? (result?.total ?? null) : null;
}

/** The statuses of credit notes waiting on the user. */
export function useCreditNotesWaiting(): string[] {
  return waitingStatuses(CREDIT_NOTE_WAITING_ON, useGrantedRights("credit-note", CREDIT_NOTE_RIGHTS));
}

/** The statuses of refunds waiting on the user. */
export function useRefundsWaiting(): string[] {
  return waitingStatuses(REFUND_WAITING_ON, useGrantedRights("refund", REFUND_RIGHTS));
}
