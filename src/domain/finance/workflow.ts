/**
 * What the suspension and withdrawal workflows share: the request statuses of a suspension or withdrawal
 * (pending until its credit note or refund is decided), and the "waiting for me" rule — a document waits on
 * whoever holds the right of the step its status is at.
 */
export const REQUEST_STATUS_LABELS = { pending: "Pending", completed: "Completed", rejected: "Rejected", cancelled: "Cancelled" } as const;

/** The statuses waiting on a user holding `rights` (status → the right its step needs). */
export function waitingStatuses<S extends string, R extends string>(waitingOn: Partial<Record<S, R>>, rights: ReadonlySet<R>): S[] {
  return (Object.entries(waitingOn) as [S, R][]).filter(([, right]) => rights.has(right)).map(([status]) => status);
}
