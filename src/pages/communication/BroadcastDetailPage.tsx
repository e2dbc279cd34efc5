/**
 * /communication/broadcast/broadcast-detail/{id}: the broadcast and, per recipient, its e-mail, SMS and
 * notification status (queued, then sent or failed as the outbox delivers) and why a channel failed.
 */
import { Descriptions } from "antd";
import { SentLogs } from "./SentLogs.tsx";
import { SentDetailPage, richText, tagList } from "./SentDetail.tsx";
import { BROADCAST } from "./kinds.ts";

export default function BroadcastDetailPage() {
  return (
    <SentDetailPage
      kind={BROADCAST}
      fields={["subject", "content", "via", "createdAt"]}
      before={(b) => (
        <>
          <Descriptions.Item label="Subject">{String(b.subject ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Send via">{tagList(b.via)}</Descriptions.Item>
        </>
      )}
      after={(b) => (
        <Descriptions.Item label="Content">{richText(b.content)}</Descriptions.Item>
      )}
    >
      {(b) => (
        <SentLogs
          table="broadcast_logs"
          parentField="broadcastId"
          parentId={b.id}
          columns={[
            { title: "Email", field: "emailStatus", status: true },
            { title: "SMS", field: "smsStatus", status: true },
            { title: "Notification", field: "notificationStatus", status: true },
          ]}
        />
      )}
    </SentDetailPage>
  );
}
