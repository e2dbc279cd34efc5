/** /finance/refund/{id}: the refund, worked at the user's step. */
import { useParams } from "react-router";
import { RefundView } from "./RefundView.tsx";

export default function RefundPage() {
  const { id } = useParams();
  return id ? <RefundView key={id} id={id} /> : null;
}
