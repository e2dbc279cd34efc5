/** Payment Summary (spec part 2 §2, §3): the eleven figures of the preview and the GST choice (0/7/8/9). */
import { Card, Descriptions, Form, Select } from "antd";
import { formatMoney } from "../../../domain/money.ts";
import { GST_CHOICES, GST_LABELS, SUMMARY_LABELS, type PaymentSummary } from "../../../domain/finance/summary.ts";

const neg = (c: number) => formatMoney(c === 0 ? 0 : -c);

export function PaymentSummaryCard({ summary, disabled }: { summary: PaymentSummary | null; disabled: boolean }) {
  const show = (k: keyof typeof SUMMARY_LABELS) => {
    if (!summary) return "S$0.00";
    return k === "deduction" || k === "deductedDeposit" ? neg(summary[k]) : formatMoney(summary[k]);
  };
  return (
    <Card title="Payment Summary" size="small">
      <Form.Item name="gst" label="GST" style={{ maxWidth: 240 }}>
        <Select disabled={disabled} options={GST_CHOICES.map((g) => ({ value: g, label: GST_LABELS[g] }))} aria-label="GST" />
      </Form.Item>
      <Descriptions size="small" bordered column={1} data-testid="payment-summary">
        {(Object.keys(SUMMARY_LABELS) as (keyof typeof SUMMARY_LABELS)[]).map((k) => (
          <Descriptions.Item key={k} label={SUMMARY_LABELS[k]}>
            <span data-figure={k}>{k === "totalPayable" ? <strong>{show(k)}</strong> : show(k)}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );
}
