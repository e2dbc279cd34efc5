/** /finance/refund: the generated list with the status pills and "Waiting for me". */
import type { Resource } from "../../framework/types.ts";
import { useRefundsWaiting } from "../../app/waiting.ts";
import { WaitingList } from "./WaitingList.tsx";

export default function RefundListPage({ resource }: { resource?: Resource }) {
  return <WaitingList resource={resource!} statusField="refundStatus" waiting={useRefundsWaiting()} />;
}
