/**
 * /finance/payment-advice/paper/{id}: the printable PA (A4, its own print stylesheet) as the server builds it
 * (GET …/{id}/paper), with Print and a button downloading the server's PDF (…/paper?format=pdf).
 */
import { Alert, Spin } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api, rejectionMessage } from "../../app/api.ts";
import { RichTextView } from "../../framework/RichTextView.tsx";
import { PAPER_CSS, PaperButtons, PaperCompany } from "./PaperButtons.tsx";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../domain/money.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import { GST_LABELS, SUMMARY_LABELS } from "../../domain/finance/summary.ts";
import type { PaymentAdvicePaper } from "../../domain/finance/paymentAdviceApi.ts";
import { paperClassLines } from "../../domain/finance/paperLines.ts";
import { paDisplayName } from "./paLogSource.ts";

const money = (v: string | null | undefined) => formatMoney(numericToCents(v ?? "0") ?? 0);
const neg = (v: string | null | undefined) => {
  const c = numericToCents(v ?? "0") ?? 0;
  return formatMoney(c === 0 ? 0 : -c);
};
const day = (v: string | null | undefined) => formatCalendarDay(v ?? null, DISPLAY_DATE_FORMAT);

export default function PaymentAdvicePaperPage() {
  const { id } = useParams();
  const { data, isLoading, error } = useQuery({
    queryKey: ["pa-paper", id],
    queryFn: async () => (await api<PaymentAdvicePaper>("GET", `/finances/payment-advices/${id}/paper`)).data!,
    enabled: Boolean(id),
    retry: false,
  });
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message={rejectionMessage(error, "Payment advice not found.")} />;
  const { paymentAdvice: pa, company, branch, student, parent } = data;
  const s = pa.paymentSummaryStatic;
  const figure = (k: keyof typeof SUMMARY_LABELS) => (k === "deduction" || k === "deductedDeposit" ? neg(s[k]) : money(s[k]));
  const fileName = paDisplayName(pa.name);
  return (
    <>
      <style>{PAPER_CSS}</style>
      <PaperButtons pdfPath={`/finances/payment-advices/${pa.id}/paper?format=pdf`} fileName={fileName} />
      <div className="pa-paper" data-testid="pa-paper">
        <div className="pa-head">
          <PaperCompany company={company} />
          <div style={{ textAlign: "right" }}>
            <h1>PAYMENT ADVICE</h1>
            <div>
              <strong data-testid="paper-number">{fileName}</strong>
            </div>
            <div>Status: {enumLabel("payment_advices", "paymentStatus", pa.displayStatus)}</div>
            <div>Issue Date: {day(pa.issueDate)}</div>
            <div>Due Date: {day(pa.dueDate)}</div>
            {branch && <div>Branch: {branch.name}</div>}
            {pa.axsCode && <div>AXS Code: {pa.axsCode}</div>}
          </div>
        </div>
        <hr />
        <div className="pa-head">
          <div>
            <div>
              <strong>Student:</strong> {student.fullName} {student.username ? `(${student.username})` : ""}
            </div>
            {student.schoolName && <div>School: {student.schoolName}</div>}
            {student.levelName && <div>Level: {student.levelName}</div>}
            {parent && (
              <div>
                <strong>Parent:</strong> {[parent.name, parent.email, parent.phone].filter(Boolean).join(" · ")}
              </div>
            )}
          </div>
          {data.payNow && data.qrCodeDataUrl ? (
            <div style={{ textAlign: "center" }} data-testid="paper-paynow">
              <strong>Pay by PayNow</strong>
              <div>
                <img src={data.qrCodeDataUrl} alt="PayNow QR code" width={140} height={140} />
              </div>
              <div>
                <strong>Reference: {data.payNow.reference}</strong>
              </div>
              <div>UEN: {data.payNow.uen}</div>
              <div>Amount: {money(data.payNow.amount)}</div>
              {data.payNow.expiry && <div>Valid until {day(data.payNow.expiry)}</div>}
            </div>
          ) : (
            data.qrText && <div data-testid="paper-reference">Reference: {data.qrText}</div>
          )}
        </div>
        <h3>Class Fee</h3>
        {/* the lines the PDF prints (src/domain/finance/paperLines.ts): terms, extras, discounts, other payments, deductions, deposits */}
        <table className="pa-lines" data-testid="paper-lines">
          <thead>
            <tr>
              <th>Class</th>
              <th>Term</th>
              <th>Lessons</th>
              <th>Price per Lesson</th>
              <th>Amount</th>
            </tr>
          </thead>
          <tbody>
            {paperClassLines(pa.classInformations).map((l, i) => (
              <tr key={i} className={l.total ? "pa-line-total" : undefined}>
                <td>{l.className}</td>
                <td>{l.label}</td>
                <td>{l.lessons ?? ""}</td>
                <td>{l.unitPrice === null ? "" : formatMoney(l.unitPrice)}</td>
                <td>{formatMoney(l.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>Payment Summary</h3>
        <table className="pa-figures" data-testid="paper-summary">
          <tbody>
            {(Object.keys(SUMMARY_LABELS) as (keyof typeof SUMMARY_LABELS)[]).map((k) => (
              <tr key={k}>
                <td>{k === "gst" ? `GST (${GST_LABELS[s.gstConfig.percentage] ?? `${s.gstConfig.percentage}%`})` : SUMMARY_LABELS[k]}</td>
                <td>{k === "totalPayable" ? <strong>{figure(k)}</strong> : figure(k)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {pa.remarks && (
          <>
            <h3>Remarks</h3>
            <div style={{ whiteSpace: "pre-wrap" }}>{pa.remarks}</div>
          </>
        )}
        {pa.notes && (
          <>
            <h3>Notes</h3>
            {/* sanitised on save, and shown through the one viewer of stored HTML (the same allow-list) */}
            <div className="pa-notes">
              <RichTextView html={pa.notes} />
            </div>
          </>
        )}
      </div>
    </>
  );
}
