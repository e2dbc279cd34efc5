/**
 * /communication/broadcast/create and /update/{id}: title, subject, content, channels (via), recipients.
 * "Save as draft" keeps it unsent; "Send" sends it through POST /broadcast (the outbox, one log row per
 * recipient). A sent broadcast is shown read-only.
 */
import { Alert, Button, Card, Checkbox, Form, Input, Space, Spin, message } from "antd";
import { useInvalidate, useOne } from "@refinedev/core";
import { useNavigate, useParams } from "react-router";
import { useState } from "react";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { RichTextInput } from "../../framework/inputs/RichTextInput.tsx";
import { RecipientFields, cleanFilter } from "./RecipientFields.tsx";

const LIST = "/communication/broadcast";
export const CHANNELS = [
  { value: "email", label: "Email" },
  { value: "sms", label: "SMS" },
  { value: "notification", label: "Notification" },
];

export default function BroadcastFormPage() {
  const { id } = useParams();
  const action = id ? "edit" : "create";
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState<"draft" | "send" | undefined>();
  const { query } = useOne<Record<string, unknown>>({
    resource: "broadcasts",
    id,
    meta: { fields: ["id", "title", "subject", "content", "via", "recipientType", "filterRecipient", "companyId", "broadcastStatus", "status"] },
    queryOptions: { enabled: Boolean(id), retry: false },
  });
  const title = action === "create" ? "Create Broadcast" : "Update Broadcast";
  if (id && query.isLoading) return <Spin size="large" />;
  const record = query.data?.data;
  if (id && (!record || record.status === "deleted")) return <Card title={title}>This record does not exist.</Card>;
  const sent = record?.broadcastStatus === "sent";

  const submit = async (send: boolean) => {
    let values: Record<string, unknown>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(send ? "send" : "draft");
    try {
      const res = await api<{ id: string; recipients: number }>("POST", "/broadcast", {
        ...(id ? { id } : {}),
        title: values.title,
        subject: values.subject || null,
        content: values.content || null,
        via: values.via,
        recipientType: values.recipientType,
        companyId: values.companyId ?? null,
        filterRecipient: cleanFilter(values.filterRecipient as Record<string, unknown>),
        send,
      });
      void message.success(send ? `Broadcast sent to ${res.data?.recipients ?? 0} recipients.` : "Broadcast saved as draft.");
      await invalidate({ resource: "broadcasts", invalidates: ["list", "detail"], id: res.data?.id });
      navigate(send ? `/communication/broadcast/broadcast-detail/${res.data?.id}` : LIST);
    } catch (err) {
      form.setFields(rejectionFieldErrors(err));
      void message.error(rejectionMessage(err, "The broadcast could not be saved."));
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <Card title={title}>
      {sent && <Alert type="info" showIcon message="This broadcast has been sent and can no longer be changed." style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={sent}
        aria-label={title}
        initialValues={record ? { ...record, filterRecipient: record.filterRecipient ?? {} } : { via: ["email"], recipientType: "student", filterRecipient: {} }}
      >
        <Form.Item name="title" label="Title" htmlFor="field-title" rules={[{ required: true, message: "Please input Title!" }]}>
          <Input id="field-title" />
        </Form.Item>
        <Form.Item name="subject" label="Subject" htmlFor="field-subject">
          <Input id="field-subject" />
        </Form.Item>
        <Form.Item name="via" label="Send via" rules={[{ required: true, type: "array", min: 1, message: "Choose at least one channel." }]}>
          <Checkbox.Group options={CHANNELS} />
        </Form.Item>
        <RecipientFields />
        <Form.Item name="content" label="Content" rules={[{ required: true, message: "Please input Content!" }]}>
          <RichTextInput readOnly={sent} />
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
