/**
 * From an issued PA to its invoice: issues the invoice when the PA has none (the server answers the
 * existing one otherwise) and opens it, where payments are recorded.
 */
import { Button } from "antd";
import { toast } from "../../../framework/toast.ts";
import { useCan } from "@refinedev/core";
import { useState } from "react";
import { useNavigate } from "react-router";
import { api, rejectionMessage } from "../../../app/api.ts";
import type { InvoiceRecord } from "../../../domain/finance/invoice.ts";

export function InvoiceButton({ paymentAdviceId }: { paymentAdviceId: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const canIssue = useCan({ resource: "api:/actions/invoice/issue", action: "POST" }).data?.can === true;
  if (!canIssue) return null;
  return (
    <Button
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const reply = await api<{ invoice: InvoiceRecord }>("POST", "/finances/invoices", { paymentAdviceId });
          navigate(`/finance/invoice/${paymentAdviceId}/${reply.data!.invoice.id}`);
        } catch (err) {
          void toast.error(rejectionMessage(err, "The invoice could not be opened."));
          setBusy(false);
        }
      }}
    >
      Invoice &amp; Payments
    </Button>
  );
}
