/**
 * One log row of a credit note or refund, full screen and read only (opened in a new tab from the Log History
 * eye): who, when, the action text, and each recorded value before and after.
 */
import { Alert, Card, Descriptions, Space, Spin, Table } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { fetchLog, LogTimestamp, LogUser, type LogRow } from "../finance/LogHistory.tsx";
import { humanize } from "../../framework/defineResource.ts";
import { formatRecordedText } from "../../domain/formats.ts";

const shown = (v: unknown) => (v === null || v === undefined || v === "" ? "--" : typeof v === "object" ? JSON.stringify(v) : formatRecordedText(String(v)));

export function LogDetailPage({ table, actionText }: { table: string; actionText: (row: LogRow) => string }) {
  const { id } = useParams();
  const { data, isLoading } = useQuery({ queryKey: ["log", table, id], queryFn: () => fetchLog(table, id!), enabled: Boolean(id), retry: false });
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message="Log not found." />;
  const before = (data.valueBefore ?? {}) as Record<string, unknown>;
  const after = (data.valueAfter ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return (
    <Card title="Log History">
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <Descriptions bordered size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label="User">
            <LogUser creator={data.creator} />
          </Descriptions.Item>
          <Descriptions.Item label="Timestamp">
            <LogTimestamp at={data.createdAt} />
          </Descriptions.Item>
          <Descriptions.Item label="Action">{actionText(data)}</Descriptions.Item>
        </Descriptions>
        <Table
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={keys.map((key) => ({ key, before: shown(before[key]), after: shown(after[key]) }))}
          columns={[
            { title: "Field", dataIndex: "key", render: (k: string) => humanize(k) },
            { title: "Before", dataIndex: "before" },
            { title: "After", dataIndex: "after" },
          ]}
        />
      </Space>
    </Card>
  );
}
