/** /finance/credit-note: the generated list with the seven status pills and "Waiting for me". */
import type { Resource } from "../../framework/types.ts";
import { useGrantedRights } from "../../app/waiting.ts";
import { CREDIT_NOTE_RIGHTS, CREDIT_NOTE_WAITING_ON, creditNoteActionable } from "../../domain/finance/creditNote.ts";
import { waitingStatuses } from "../../domain/finance/workflow.ts";
import { WaitingList } from "./WaitingList.tsx";

export default function CreditNoteListPage({ resource }: { resource?: Resource }) {
  const rights = useGrantedRights("credit-note", CREDIT_NOTE_RIGHTS);
  return (
    <WaitingList
      resource={resource!}
      statusField="creditNoteStatus"
      waiting={waitingStatuses(CREDIT_NOTE_WAITING_ON, rights)}
      actionable={(status) => creditNoteActionable(status, rights)}
    />
  );
}
