/**
 * What the broadcast and news detail pages share: the record (spinner, "This record does not exist."),
 * its card with Edit while unsent (for those who may edit), the common descriptions (recipient type,
 * company, status, sent at) between the kind's own, and below it the kind's other cards.
 */
import { Button, Card, Descriptions, Space, Spin, Tag } from "antd";
import { EditOutlined } from "@ant-design/icons";
import { CanAccess, useOne } from "@refinedev/core";
import { Link, useParams } from "react-router";
import type { ReactNode } from "react";
import { RichTextView } from "../../framework/RichTextView.tsx";
import { formatTimeDate } from "../../domain/dates.ts";
import { RECIPIENT_TYPES } from "../../domain/communication.ts";
import { statusTag } from "./SentLogs.tsx";
import type { CommunicationKind } from "./kinds.ts";

type Row = Record<string, unknown>;

/** A list of words (channels, hashtags) as tags. */
export const tagList = (v: unknown) => ((v as string[] | null) ?? []).map((t) => <Tag key={t}>{t}</Tag>);
/** Stored rich text (Quill HTML) shown as written. */
export const richText = (v: unknown) => <RichTextView html={v} />;

export function SentDetailPage({
  kind,
  fields,
  before,
  after,
  children,
}: {
  kind: CommunicationKind;
  /** The kind's own columns (id, title, recipientType, status, sentAt, the status column and company are added). */
  fields: string[];
  /** Descriptions items before the common ones, and after them. */
  before: (record: Row) => ReactNode;
  after: (record: Row) => ReactNode;
  /** The cards below the record's card. */
  children: (record: Row & { id: string }) => ReactNode;
}) {
  const { id } = useParams();
  const { query } = useOne<Row>({
    resource: kind.resource,
    id,
    meta: { fields: ["id", "title", ...fields, "recipientType", kind.statusField, "sentAt", "status", { company: ["id", "name"] }] },
    queryOptions: { retry: false },
  });
  if (query.isLoading) return <Spin size="large" />;
  const r = query.data?.data;
  if (!r || r.status === "deleted") return <Card title={`${kind.noun} Detail`}>This record does not exist.</Card>;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={String(r.title)}
        extra={
          r[kind.statusField] !== "sent" && (
            <CanAccess resource={kind.resource} action="edit" fallback={null}>
              <Link to={kind.editPath(String(r.id))}>
                <Button icon={<EditOutlined />}>Edit</Button>
              </Link>
            </CanAccess>
          )
        }
      >
        <Descriptions bordered column={1} size="middle">
          {before(r)}
          <Descriptions.Item label="Recipient Type">{RECIPIENT_TYPES[r.recipientType as keyof typeof RECIPIENT_TYPES] ?? String(r.recipientType ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Company">{String((r.company as { name?: string } | null)?.name ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Status">{statusTag(r[kind.statusField], kind.resource, kind.statusField)}</Descriptions.Item>
          <Descriptions.Item label="Sent At">{formatTimeDate(r.sentAt as string | null)}</Descriptions.Item>
          {after(r)}
        </Descriptions>
      </Card>
      {children({ ...r, id: String(r.id) })}
    </Space>
  );
}
