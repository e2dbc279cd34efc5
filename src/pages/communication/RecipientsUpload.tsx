/** Recipients uploaded from a file for a news item: the upload block of the form and the stored list. */
import { Alert, Button, Space, Table, Typography, Upload } from "antd";
import { toast } from "../../framework/toast.ts";
import { UploadOutlined } from "@ant-design/icons";
import { useList } from "@refinedev/core";
import { useState } from "react";
import { parseRecipientsFile, type UploadedRecipient } from "./recipientsFile.ts";

/** The news item's uploaded recipients still in force (not replaced by a later upload). */
export function useUploadedRecipients(newsId: string | undefined) {
  return useList<UploadedRecipient & { id: string }>({
    resource: "news_recipients_upload",
    filters: [
      { field: "newsId", operator: "eq", value: newsId },
      { field: "status", operator: "ne", value: "deleted" },
    ],
    pagination: { mode: "off" },
    meta: { fields: ["id", "name", "email"] },
    queryOptions: { enabled: Boolean(newsId), retry: false },
  });
}

/** The uploaded-recipients block: a file picker, the parsed list and the lines that were refused. */
export function RecipientsUpload({ value, onChange, disabled }: { value: UploadedRecipient[] | undefined; onChange: (v: UploadedRecipient[] | undefined) => void; disabled?: boolean }) {
  const [errors, setErrors] = useState<string[]>([]);
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Space>
        <Upload
          accept=".csv,.txt,text/csv,text/plain"
          showUploadList={false}
          disabled={disabled}
          beforeUpload={async (file) => {
            const parsed = parseRecipientsFile(await file.text());
            setErrors(parsed.errors);
            onChange(parsed.recipients);
            if (parsed.recipients.length === 0) void toast.warning("No recipients found in the file.");
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={disabled}>
            Upload recipients
          </Button>
        </Upload>
        {value && value.length > 0 && !disabled && (
          <Button
            onClick={() => {
              onChange([]);
              setErrors([]);
            }}
          >
            Clear
          </Button>
        )}
      </Space>
      <Typography.Text type="secondary">A CSV file with a name and an e-mail address per line.</Typography.Text>
      {errors.length > 0 && <Alert type="warning" showIcon message={`${errors.length} line(s) skipped`} description={errors.slice(0, 10).join("; ")} />}
      {value && value.length > 0 && (
        <Table
          size="small"
          rowKey="email"
          data-testid="uploaded-recipients"
          dataSource={value}
          pagination={{ pageSize: 5, showSizeChanger: false }}
          title={() => `${value.length} uploaded recipient(s)`}
          columns={[
            { title: "Name", dataIndex: "name" },
            { title: "Email", dataIndex: "email" },
          ]}
        />
      )}
    </Space>
  );
}
