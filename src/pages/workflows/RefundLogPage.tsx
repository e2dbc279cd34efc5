/** /finance/refund/logs/{id}: one refund log row. */
import { LogDetailPage } from "./LogDetailPage.tsx";
import { refundLogAction } from "./logSources.ts";

export default function RefundLogPage() {
  return <LogDetailPage table="refund_logs" actionText={(row) => refundLogAction(row, null)} />;
}
