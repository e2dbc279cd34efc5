/** /communication/news/news-detail/{id}: the news item, its uploaded recipients and the send status per recipient. */
import { Button, Card, Descriptions, Image, Space, Spin, Table, Tag } from "antd";
import { EditOutlined } from "@ant-design/icons";
import { CanAccess, useList, useOne } from "@refinedev/core";
import { Link, useParams } from "react-router";
import { formatTimeDate } from "../../domain/dates.ts";
import { RECIPIENT_TYPES } from "../../../resources/communication.ts";
import { SentLogs, statusTag } from "./SentLogs.tsx";

export default function NewsDetailPage() {
  const { id } = useParams();
  const { query } = useOne<Record<string, unknown>>({
    resource: "news",
    id,
    meta: { fields: ["id", "title", "subject", "message", "footer", "coverUrl", "hashtags", "type", "recipientType", "newsStatus", "sentAt", "status", { company: ["id", "name"] }] },
    queryOptions: { retry: false },
  });
  const uploads = useList<Record<string, unknown>>({
    resource: "news_recipients_upload",
    filters: [
      { field: "newsId", operator: "eq", value: id },
      { field: "status", operator: "ne", value: "deleted" },
    ],
    pagination: { mode: "off" },
    meta: { fields: ["id", "name", "email"] },
    queryOptions: { retry: false },
  });
  if (query.isLoading) return <Spin size="large" />;
  const n = query.data?.data;
  if (!n || n.status === "deleted") return <Card title="News Detail">This record does not exist.</Card>;
  const uploaded = uploads.result?.data ?? [];
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={String(n.title)}
        extra={
          n.newsStatus !== "sent" && (
            <CanAccess resource="news" action="edit" fallback={null}>
              <Link to={`/communication/news/update/${String(n.id)}`}>
                <Button icon={<EditOutlined />}>Edit</Button>
              </Link>
            </CanAccess>
          )
        }
      >
        <Descriptions bordered column={1} size="middle">
          {Boolean(n.coverUrl) && (
            <Descriptions.Item label="Cover">
              <Image src={String(n.coverUrl)} width={160} alt="" />
            </Descriptions.Item>
          )}
          <Descriptions.Item label="Subject">{String(n.subject ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Type">{String(n.type ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Hashtags">{((n.hashtags as string[]) ?? []).map((h) => <Tag key={h}>{h}</Tag>)}</Descriptions.Item>
          <Descriptions.Item label="Recipient Type">{RECIPIENT_TYPES[n.recipientType as keyof typeof RECIPIENT_TYPES] ?? String(n.recipientType ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Company">{String((n.company as { name?: string } | null)?.name ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Status">{statusTag(n.newsStatus)}</Descriptions.Item>
          <Descriptions.Item label="Sent At">{formatTimeDate(n.sentAt as string | null)}</Descriptions.Item>
          <Descriptions.Item label="Message">
            <div className="ql-editor" style={{ padding: 0 }} dangerouslySetInnerHTML={{ __html: String(n.message ?? "") }} />
          </Descriptions.Item>
          <Descriptions.Item label="Footer">{String(n.footer ?? "")}</Descriptions.Item>
        </Descriptions>
      </Card>
      {uploaded.length > 0 && (
        <Card title={`Uploaded recipients (${uploaded.length})`}>
          <Table size="small" rowKey="id" dataSource={uploaded} pagination={{ pageSize: 10, showSizeChanger: false }} columns={[{ title: "Name", dataIndex: "name" }, { title: "Email", dataIndex: "email" }]} />
        </Card>
      )}
      <Card title="Recipients">
        <SentLogs
          table="news_logs"
          parentField="newsId"
          parentId={String(n.id)}
          columns={[
            { title: "Recipient", field: "recipient" },
            { title: "Email", field: "email" },
            { title: "Status", field: "statusSent", status: true },
          ]}
        />
      </Card>
    </Space>
  );
}
