/**
 * /finance/credit-note/update/{creditNoteId} (edit as the user's step allows), /finance/credit-note/detail/{id}
 * (read only) and /finance/credit-note/update/sus/{id} (the credit note of suspension {id}).
 */
import { Alert, Spin } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useLocation, useParams } from "react-router";
import { gqlRequest } from "../../app/graphql.ts";
import { CREDIT_NOTE_MESSAGES } from "../../domain/finance/creditNote.ts";
import { CreditNoteView } from "./CreditNoteView.tsx";

/** The latest credit note made for a suspension (a duplicate may follow a rejected one). */
export async function creditNoteOfSuspension(suspensionId: string): Promise<string | null> {
  const data = await gqlRequest<{ rows: { id: string }[] }>(
    `query CnOfSuspension($id: uuid!) { rows: credit_notes(where: { suspensionId: { _eq: $id }, status: { _neq: "deleted" } }, order_by: [{ createdAt: desc }], limit: 1) { id } }`,
    { id: suspensionId },
  );
  return data.rows[0]?.id ?? null;
}

export default function CreditNotePage() {
  const { creditNoteId, id } = useParams();
  const { pathname } = useLocation();
  const fromSuspension = pathname.includes("/update/sus/");
  const { data: resolved, isLoading } = useQuery({
    queryKey: ["credit-note-of-suspension", id],
    queryFn: () => creditNoteOfSuspension(id!),
    enabled: fromSuspension && Boolean(id),
    retry: false,
  });
  const target = fromSuspension ? resolved : (creditNoteId ?? id);
  if (fromSuspension && isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!target) return <Alert type="error" message={CREDIT_NOTE_MESSAGES.notFound} />;
  return <CreditNoteView key={target} id={target} readOnly={pathname.includes("/detail/")} />;
}
