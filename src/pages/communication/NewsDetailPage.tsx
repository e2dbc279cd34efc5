/** /communication/news/news-detail/{id}: the news item, its uploaded recipients and the send status per recipient. */
import { Card, Descriptions, Image, Table } from "antd";
import { useParams } from "react-router";
import { SentLogs } from "./SentLogs.tsx";
import { SentDetailPage, richText, tagList } from "./SentDetail.tsx";
import { useUploadedRecipients } from "./RecipientsUpload.tsx";
import { NEWS } from "./kinds.ts";

export default function NewsDetailPage() {
  const { id } = useParams();
  const uploads = useUploadedRecipients(id);
  const uploaded = uploads.result?.data ?? [];
  return (
    <SentDetailPage
      kind={NEWS}
      fields={["subject", "message", "footer", "coverUrl", "hashtags", "type"]}
      before={(n) => (
        <>
          {Boolean(n.coverUrl) && (
            <Descriptions.Item label="Cover">
              <Image src={String(n.coverUrl)} width={160} alt="" />
            </Descriptions.Item>
          )}
          <Descriptions.Item label="Subject">{String(n.subject ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Type">{String(n.type ?? "")}</Descriptions.Item>
          <Descriptions.Item label="Hashtags">{tagList(n.hashtags)}</Descriptions.Item>
        </>
      )}
      after={(n) => (
        <>
          <Descriptions.Item label="Message">{richText(n.message)}</Descriptions.Item>
          <Descriptions.Item label="Footer">{String(n.footer ?? "")}</Descriptions.Item>
        </>
      )}
    >
      {(n) => (
        <>
          {uploaded.length > 0 && (
            <Card title={`Uploaded recipients (${uploaded.length})`}>
              <Table size="small" rowKey="id" dataSource={uploaded} pagination={{ pageSize: 10, showSizeChanger: false }} columns={[{ title: "Name", dataIndex: "name" }, { title: "Email", dataIndex: "email" }]} />
            </Card>
          )}
          <SentLogs
            table="news_logs"
            parentField="newsId"
            parentId={n.id}
            columns={[
              { title: "Email", field: "email" },
              { title: "Status", field: "statusSent", status: true },
            ]}
          />
        </>
      )}
    </SentDetailPage>
  );
}
