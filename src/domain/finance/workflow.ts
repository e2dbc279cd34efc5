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

/**
 * Whether a document at `status` offers its screen's actions to a user holding `rights`: a move from that status
 * whose right they hold (the buttons the server offers, before a document's own exceptions such as four eyes).
 * A workflow list opens such a row to act on it; the others only to read (issue 37 item 5).
 */
export function actionableAt<S extends string, R extends string>(moves: ReadonlyArray<{ from: S; right: R }>, status: string, rights: ReadonlySet<R>): boolean {
  return moves.some((m) => m.from === status && rights.has(m.right));
}
