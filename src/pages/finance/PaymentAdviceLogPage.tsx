/**
 * /finance/payment-advice/logs/{id}: one log row of a payment advice, full screen and read-only (opened in a
 * new tab from the eye of the Log History table): who, when, the action text, and the values recorded
 * before and after. The Log History trigger is not offered here (spec part 2 §2).
 */
import { Alert, Card, Descriptions, Space, Spin, Table, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { gqlRequest } from "../../app/graphql.ts";
import { humanize } from "../../framework/defineResource.ts";
import { formatMoney, numericToCents } from "../../domain/money.ts";
import { formatRecordedText } from "../../domain/formats.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import { SUMMARY_LABELS } from "../../domain/finance/summary.ts";
import { LogTimestamp, LogUser, type LogRow } from "./LogHistory.tsx";
import { PaStatusPill } from "./PaStatusPill.tsx";
import { paDisplayName, paLogAction } from "./paLogSource.ts";

type LogWithPa = LogRow & { paymentAdvice: { id: string; name: string | null; paymentStatus: string; dueDate: string | null; student: { fullName: string | null; username: string } | null } };

async function fetchPaLog(id: string): Promise<LogWithPa | null> {
  const data = await gqlRequest<{ row: LogWithPa | null }>(
    `query PaLog($id: uuid!) { row: payment_advice_logs_by_pk(id: $id) {
      id type valueBefore valueAfter createdAt creator { fullName multipleRoles }
      paymentAdvice { id name paymentStatus dueDate student { fullName username } }
    } }`,
    { id },
  );
  return data.row;
}

/** A recorded value as a reader wants it: statuses by label, money as S$, people by name. */
export function showLoggedValue(key: string, v: unknown): string {
  if (v === null || v === undefined || v === "") return "--";
  if (key === "paymentStatus") return enumLabel("payment_advices", "paymentStatus", v);
  if (key === "student" && typeof v === "object") {
    const s = v as { fullName?: string; username?: string };
    return [s.fullName, s.username && `(${s.username})`].filter(Boolean).join(" ") || "--";
  }
  if (key === "paymentSummaryStatic" && typeof v === "object") {
    return (Object.keys(SUMMARY_LABELS) as (keyof typeof SUMMARY_LABELS)[])
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${SUMMARY_LABELS[k]}: ${formatMoney(numericToCents((v as Record<string, string>)[k]) ?? 0)}`)
      .join("; ");
  }
  if (key === "classInformations" && Array.isArray(v)) {
    return (v as { className?: string; total?: string }[]).map((c) => `${c.className ?? "--"}: ${formatMoney(numericToCents(c.total ?? "0") ?? 0)}`).join("; ") || "--";
  }
  if (key === "gst") return `${String(v)}%`;
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (typeof v === "object") return JSON.stringify(v);
  return formatRecordedText(String(v));
}

/** A log row's values: the PA's, and its invoice's (a free-text edit of the invoice is logged on its PA) as invoiceName, invoiceNotes… */
function loggedValues(value: unknown): Record<string, unknown> {
  const v = value as { paymentAdvice?: Record<string, unknown>; invoice?: Record<string, unknown> } | null;
  const out: Record<string, unknown> = { ...(v?.paymentAdvice ?? {}) };
  for (const [k, x] of Object.entries(v?.invoice ?? {})) out[`invoice${k[0]!.toUpperCase()}${k.slice(1)}`] = x;
  return out;
}

export default function PaymentAdviceLogPage() {
  const { id } = useParams();
  const { data, isLoading } = useQuery({ queryKey: ["pa-log", id], queryFn: () => fetchPaLog(id!), enabled: Boolean(id), retry: false });
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message="Log not found." />;
  const before = loggedValues(data.valueBefore);
  const after = loggedValues(data.valueAfter);
  // Ids say nothing to a reader; the names they stand for are shown elsewhere on the page.
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !/Id$/.test(k));
  const pa = data.paymentAdvice;
  return (
    <Card title="Log History">
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="Payment Advice">
            <Space>
              <Typography.Text strong>{paDisplayName(pa.name)}</Typography.Text>
              <PaStatusPill paymentStatus={pa.paymentStatus} dueDate={pa.dueDate} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label="Student">{pa.student ? `${pa.student.fullName ?? ""} (${pa.student.username})` : "--"}</Descriptions.Item>
          <Descriptions.Item label="User">
            <LogUser creator={data.creator} />
          </Descriptions.Item>
          <Descriptions.Item label="Timestamp">
            <LogTimestamp at={data.createdAt} />
          </Descriptions.Item>
          <Descriptions.Item label="Action" span={2}>
            <span data-testid="log-action">{paLogAction(data, pa.name)}</span>
          </Descriptions.Item>
        </Descriptions>
        <Table
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={keys.map((key) => ({ key, before: showLoggedValue(key, before[key]), after: showLoggedValue(key, after[key]) }))}
          rowClassName={(r) => (r.before !== r.after ? "ant-table-row-selected" : "")}
          columns={[
            { title: "Field", key: "field", render: (_v, r) => humanize(r.key) },
            { title: "Before", key: "before", render: (_v, r) => r.before },
            { title: "After", key: "after", render: (_v, r) => r.after },
          ]}
        />
      </Space>
    </Card>
  );
}
