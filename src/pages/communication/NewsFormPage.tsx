/**
 * /communication/news/create and /update/{id}: title, subject, type, cover image, hashtags, message,
 * footer, recipients (filters) and recipients uploaded from a file (name and e-mail per line). "Save as
 * draft" keeps it unsent; "Send" sends it through POST /news. A sent news item is shown read-only.
 */
import { Alert, Button, Card, Checkbox, Col, Form, Input, Row, Select, Space, Spin, Table, Typography, Upload, message } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { useInvalidate, useList, useOne } from "@refinedev/core";
import { useNavigate, useParams } from "react-router";
import { useState } from "react";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { RichTextInput } from "../../framework/inputs/RichTextInput.tsx";
import { MediaUpload } from "../../framework/inputs/MediaUpload.tsx";
import { RecipientFields, cleanFilter } from "./RecipientFields.tsx";
import { parseRecipientsFile, type UploadedRecipient } from "./recipientsFile.ts";

const LIST = "/communication/news";

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
            if (parsed.recipients.length === 0) void message.warning("No recipients found in the file.");
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

export default function NewsFormPage() {
  const { id } = useParams();
  const action = id ? "edit" : "create";
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState<"draft" | "send" | undefined>();
  // undefined: unchanged (keep what the server has); a list: replaces the uploaded recipients.
  const [uploaded, setUploaded] = useState<UploadedRecipient[] | undefined>(undefined);
  const { query } = useOne<Record<string, unknown>>({
    resource: "news",
    id,
    meta: { fields: ["id", "title", "subject", "message", "footer", "coverUrl", "hashtags", "type", "recipientType", "filterRecipient", "companyId", "newsStatus", "status"] },
    queryOptions: { enabled: Boolean(id), retry: false },
  });
  const existing = useList<UploadedRecipient & { id: string }>({
    resource: "news_recipients_upload",
    filters: [
      { field: "newsId", operator: "eq", value: id },
      { field: "status", operator: "ne", value: "deleted" },
    ],
    pagination: { mode: "off" },
    meta: { fields: ["id", "name", "email"] },
    queryOptions: { enabled: Boolean(id), retry: false },
  });
  const title = action === "create" ? "Create News" : "Update News";
  if (id && query.isLoading) return <Spin size="large" />;
  const record = query.data?.data;
  if (id && (!record || record.status === "deleted")) return <Card title={title}>This record does not exist.</Card>;
  const sent = record?.newsStatus === "sent";
  const shownRecipients = uploaded ?? (existing.result?.data ?? []).map((r) => ({ name: r.name, email: r.email }));

  const submit = async (send: boolean) => {
    let values: Record<string, unknown>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(send ? "send" : "draft");
    try {
      const res = await api<{ id: string; recipients: number }>("POST", "/news", {
        ...(id ? { id } : {}),
        title: values.title,
        subject: values.subject || null,
        message: values.message || null,
        footer: values.footer || null,
        coverUrl: values.coverUrl || null,
        hashtags: (values.hashtags as string[] | undefined) ?? [],
        type: values.type || null,
        recipientType: values.recipientType,
        companyId: values.companyId ?? null,
        filterRecipient: cleanFilter(values.filterRecipient as Record<string, unknown>),
        uploadedOnly: Boolean(values.uploadedOnly),
        ...(uploaded !== undefined ? { recipients: uploaded } : {}),
        send,
      });
      void message.success(send ? `News sent to ${res.data?.recipients ?? 0} recipients.` : "News saved as draft.");
      await invalidate({ resource: "news", invalidates: ["list", "detail"], id: res.data?.id });
      navigate(send ? `/communication/news/news-detail/${res.data?.id}` : LIST);
    } catch (err) {
      form.setFields(rejectionFieldErrors(err));
      void message.error(rejectionMessage(err, "The news could not be saved."));
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <Card title={title}>
      {sent && <Alert type="info" showIcon message="This news has been sent and can no longer be changed." style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={sent}
        aria-label={title}
        initialValues={record ? { ...record, filterRecipient: record.filterRecipient ?? {} } : { recipientType: "all", hashtags: [], filterRecipient: {} }}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="title" label="Title" htmlFor="field-title" rules={[{ required: true, message: "Please input Title!" }]}>
              <Input id="field-title" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="subject" label="Subject" htmlFor="field-subject">
              <Input id="field-subject" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="type" label="Type" htmlFor="field-type">
              <Input id="field-type" placeholder="announcement, event…" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="hashtags" label="Hashtags">
              <Select mode="tags" tokenSeparators={[",", " "]} placeholder="#centre" aria-label="Hashtags" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="coverUrl" label="Cover">
          <MediaUpload kind="image" folder="news" disabled={sent} />
        </Form.Item>
        <Form.Item name="message" label="Message" rules={[{ required: true, message: "Please input Message!" }]}>
          <RichTextInput readOnly={sent} />
        </Form.Item>
        <Form.Item name="footer" label="Footer" htmlFor="field-footer">
          <Input id="field-footer" />
        </Form.Item>
        <RecipientFields />
        <Form.Item label="Recipients uploaded from a file">
          <RecipientsUpload value={shownRecipients} onChange={setUploaded} disabled={sent} />
        </Form.Item>
        <Form.Item name="uploadedOnly" valuePropName="checked">
          <Checkbox>Send only to the uploaded recipients</Checkbox>
        </Form.Item>
      </Form>
      <Space>
        {!sent && (
          <>
            <Button onClick={() => void submit(false)} loading={saving === "draft"}>
              Save as draft
            </Button>
            <Button type="primary" onClick={() => void submit(true)} loading={saving === "send"}>
              Send
            </Button>
          </>
        )}
        <Button onClick={() => navigate(LIST)}>Cancel</Button>
      </Space>
    </Card>
  );
}
