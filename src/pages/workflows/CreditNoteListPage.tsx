/** /finance/credit-note: the generated list with the seven status pills and "Waiting for me". */
import type { Resource } from "../../framework/types.ts";
import { useCreditNotesWaiting } from "../../app/waiting.ts";
import { WaitingList } from "./WaitingList.tsx";

export default function CreditNoteListPage({ resource }: { resource?: Resource }) {
  return <WaitingList resource={resource!} statusField="creditNoteStatus" waiting={useCreditNotesWaiting()} />;
}
