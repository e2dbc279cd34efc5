/** /finance/refund: the generated list with the status pills and "Waiting for me". */
import type { Resource } from "../../framework/types.ts";
import { useGrantedRights } from "../../app/waiting.ts";
import { REFUND_MOVES, REFUND_RIGHTS, REFUND_WAITING_ON } from "../../domain/finance/refund.ts";
import { actionableAt, waitingStatuses } from "../../domain/finance/workflow.ts";
import { WaitingList } from "./WaitingList.tsx";

export default function RefundListPage({ resource }: { resource?: Resource }) {
  const rights = useGrantedRights("refund", REFUND_RIGHTS);
  return (
    <WaitingList
      resource={resource!}
      statusField="refundStatus"
      waiting={waitingStatuses(REFUND_WAITING_ON, rights)}
      actionable={(status) => actionableAt(REFUND_MOVES, status, rights)}
    />
  );
}
