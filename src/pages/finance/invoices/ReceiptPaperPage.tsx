/**
 * /finance/receipt/{id}/{receiptId}: the printable receipt as the server builds it (GET
 * /finances/receipts/{receiptId}/paper), with Print and the server's PDF.
 */
import { Alert, Spin, Tag } from "antd";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { api, rejectionMessage } from "../../../app/api.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../../domain/dates.ts";
import { formatMoneyValue } from "../../../domain/formats.ts";
import { paymentMethodLabel, type ReceiptPaper } from "../../../domain/finance/invoice.ts";
import { PAPER_CSS, PaperButtons, PaperCompany } from "../PaperButtons.tsx";


export default function ReceiptPaperPage() {
  const { receiptId } = useParams();
  const { data, isLoading, error } = useQuery({
    queryKey: ["receipt-paper", receiptId],
    queryFn: async () => (await api<ReceiptPaper>("GET", `/finances/receipts/${receiptId}/paper`)).data!,
    enabled: Boolean(receiptId),
    retry: false,
  });
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message={rejectionMessage(error, "Receipt not found.")} />;
  const { receipt: r, company, invoice, student } = data;
  const rows: [string, React.ReactNode][] = [
    ["Received from", student ? `${student.fullName}${student.username ? ` (${student.username})` : ""}` : "--"],
    ["Receipt date", formatCalendarDay(r.receiptDate, DISPLAY_DATE_FORMAT)],
    ["Amount received", <strong key="amount">{formatMoneyValue(r.amount)}</strong>],
    ["Payment method", paymentMethodLabel(r)],
    ["Reference no.", r.referenceNo ?? "--"],
    ["For invoice", <Link key="invoice" to={`/finance/invoice/${data.paymentAdvice.id}/${invoice.id}`}>{invoice.name}</Link>],
    ["Payment advice", data.paymentAdvice.name ?? "--"],
    ["Branch", data.branch?.name ?? "--"],
    ["Invoice total", formatMoneyValue(invoice.total)],
    ["Balance due", formatMoneyValue(data.balanceDue)],
  ];
  return (
    <>
      <style>{PAPER_CSS}</style>
      <PaperButtons pdfPath={`/finances/receipts/${r.id}/paper?format=pdf`} fileName={r.name} />
      <div className="pa-paper" data-testid="receipt-paper">
        <div className="pa-head">
          <PaperCompany company={company} />
          <div style={{ textAlign: "right" }}>
            <h1>OFFICIAL RECEIPT</h1>
            <strong data-testid="receipt-number">{r.name}</strong>
            {r.status === "voided" && (
              <div>
                <Tag color="default">Voided</Tag> {r.voidReason}
              </div>
            )}
          </div>
        </div>
        <table className="pa-figures" style={{ marginTop: 24 }}>
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <td style={{ width: "40%" }}>{label}</td>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p style={{ marginTop: 24, fontStyle: "italic", fontSize: 11 }}>This receipt is computer generated; no signature is required.</p>
      </div>
    </>
  );
}
