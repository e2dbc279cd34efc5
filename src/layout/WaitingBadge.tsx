/** The count of documents waiting on the user, beside a workflow's menu entry (issue 16 §5). */
import type { ReactNode } from "react";
import { Badge } from "antd";
import { useCreditNotesWaiting, useRefundsWaiting, useWaitingCount } from "../app/waiting.ts";

function Count({ table, statusField, waiting, testId }: { table: string; statusField: string; waiting: string[]; testId: string }) {
  const count = useWaitingCount(table, statusField, waiting);
  return count ? <Badge count={count} size="small" offset={[6, -2]} data-testid={testId} /> : null;
}

function CreditNotesWaiting() {
  return <Count table="credit_notes" statusField="creditNoteStatus" waiting={useCreditNotesWaiting()} testId="menu-waiting-credit-notes" />;
}

function RefundsWaiting() {
  return <Count table="refunds" statusField="refundStatus" waiting={useRefundsWaiting()} testId="menu-waiting-refunds" />;
}

/** Front desk's own step (issue 37 item 8): a suspension's credit note or a withdrawal's refund waiting on them. */
const FRONT_DESK_STEP = "awaiting_front_desk_action";

function SuspensionsWaiting() {
  const waiting = useCreditNotesWaiting().filter((s) => s === FRONT_DESK_STEP);
  return <Count table="credit_notes" statusField="creditNoteStatus" waiting={waiting} testId="menu-waiting-suspensions" />;
}

function WithdrawalsWaiting() {
  const waiting = useRefundsWaiting().filter((s) => s === FRONT_DESK_STEP);
  return <Count table="refunds" statusField="refundStatus" waiting={waiting} testId="menu-waiting-withdrawals" />;
}

/** Menu paths that carry a waiting count. */
export const WAITING_BADGES: Readonly<Record<string, () => ReactNode>> = {
  "/finance/credit-note": CreditNotesWaiting,
  "/finance/refund": RefundsWaiting,
  "/suspension": SuspensionsWaiting,
  "/withdrawal": WithdrawalsWaiting,
};
