/** /finance/credit-note/logs/{id}: one credit-note log row. */
import { LogDetailPage } from "./LogDetailPage.tsx";
import { creditNoteLogAction } from "./logSources.ts";

export default function CreditNoteLogPage() {
  return <LogDetailPage table="credit_note_logs" actionText={(row) => creditNoteLogAction(row, null)} />;
}
