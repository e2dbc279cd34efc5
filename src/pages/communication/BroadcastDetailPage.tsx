/** /communication/broadcast/broadcast-detail/{id}: the broadcast and, per recipient, its e-mail, SMS and notification status. */
import { Button, Card, Descriptions, Space, Spin, Tag } from "antd";
import { EditOutlined } from "@ant-design/icons";
import { CanAccess, useOne } from "@refinedev/core";
import { Link, useParams } from "react-router";
import { formatTimeDate } from "../../domain/dates.ts";
import { RECIPIENT_TYPES } from "../../../resources/communication.ts";
import { SentLogs, statusTag } from "./SentLogs.tsx";

export default function BroadcastDetailPage() {
  const { id } = useParams();
  const { query } = useOne<Record<string, unknown>>({
    resource: "broadcasts",
    id,
    meta: { fields: ["id", "title", "subject", "content", "via", "recipientType", "broadcastStatus", "sentAt", "createdAt", "status", { company: ["id", "name"] }] },
    queryOptions: { retry: false },
  });
  if (query.isLoading) return <Spin size="large" />;
  const b = query.data?.data;
  if (!b || b.status === "deleted") return <Card title="Broadcast Detail">This record does not exist.</Card>;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={String(b.title)}
        extra={
          b.broadcastStatus !== "sent" && (
            <CanAccess resource="broadcasts" action="edit" fallback={null}>
              <Link to={`/communication/broadcast/update/${String(b.id)}`}>
                <Button icon={<EditOutlined />}>Edit</Button>
              </Link>
            </CanAccess>
          )
        }
      >
        <Descriptions bordered column={1} size="middle">
          <Descriptions.Item label="Subject">{String(b.subject ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Send via">{((b.via as string[]) ?? []).map((v) => <Tag key={v}>{v}</Tag>)}</Descriptions.Item>
          <Descriptions.Item label="Recipient Type">{RECIPIENT_TYPES[b.recipientType as keyof typeof RECIPIENT_TYPES] ?? String(b.recipientType ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Company">{String((b.company as { name?: string } | null)?.name ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Status">{statusTag(b.broadcastStatus)}</Descriptions.Item>
          <Descriptions.Item label="Sent At">{formatTimeDate(b.sentAt as string | null)}</Descriptions.Item>
          <Descriptions.Item label="Content">
            <div className="ql-editor" style={{ padding: 0 }} dangerouslySetInnerHTML={{ __html: String(b.content ?? "") }} />
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="Recipients">
        <SentLogs
          table="broadcast_logs"
          parentField="broadcastId"
          parentId={String(b.id)}
          columns={[
            { title: "Recipient", field: "recipient" },
            { title: "Email", field: "emailStatus", status: true },
            { title: "SMS", field: "smsStatus", status: true },
            { title: "Notification", field: "notificationStatus", status: true },
          ]}
        />
      </Card>
    </Space>
  );
}
