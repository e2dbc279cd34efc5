/**
 * What the broadcast and news forms share: the record loaded for /update/{id}, the read-only state once
 * sent, and "Save as draft" / "Send" through POST /broadcast or POST /news — validate, post, toast,
 * refresh the lists, open the list (draft) or the detail (sent); a refusal puts the server's field
 * messages on the form and toasts its message.
 */
import { Alert, Button, Card, Form, Space, Spin, type FormInstance } from "antd";
import { toast } from "../../framework/toast.ts";
import { useInvalidate, useOne } from "@refinedev/core";
import { useNavigate, useParams } from "react-router";
import { useState, type ReactNode } from "react";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import type { CommunicationKind } from "./kinds.ts";
import { useFormEdits } from "../../framework/formEdits.ts";

export interface SendForm {
  id: string | undefined;
  form: FormInstance;
  title: string;
  record: Record<string, unknown> | undefined;
  sent: boolean;
}

/**
 * The form page frame: spinner while the record loads, "This record does not exist." for a missing one,
 * then the card with the sent notice, the form (disabled once sent) and the buttons. `children` gets the
 * form state; `body` turns the validated values into the POST body (without id and send).
 */
export function SendFormPage({
  kind,
  fields,
  defaults,
  body,
  children,
}: {
  kind: CommunicationKind;
  /** Columns loaded for the update form (id, status and the kind's status column are added). */
  fields: string[];
  /** The new form's values; an existing record's own values fill the update form. */
  defaults: Record<string, unknown>;
  body: (values: Record<string, unknown>) => Record<string, unknown>;
  children: (state: SendForm) => ReactNode;
}) {
  const { id } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [form] = Form.useForm();
  const edits = useFormEdits(form);
  const [saving, setSaving] = useState<"draft" | "send" | undefined>();
  const { query } = useOne<Record<string, unknown>>({
    resource: kind.resource,
    id,
    meta: { fields: ["id", ...fields, kind.statusField, "status"] },
    queryOptions: { enabled: Boolean(id), retry: false },
  });
  const title = `${id ? "Update" : "Create"} ${kind.noun}`;
  if (id && query.isLoading) return <Spin size="large" />;
  const record = query.data?.data;
  if (id && (!record || record.status === "deleted")) return <Card title={title}>This record does not exist.</Card>;
  const sent = record?.[kind.statusField] === "sent";
  const noun = kind.noun.toLowerCase();

  const submit = async (send: boolean) => {
    let values: Record<string, unknown>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(send ? "send" : "draft");
    try {
      const res = await api<{ id: string; recipients: number }>("POST", kind.endpoint, { ...(id ? { id } : {}), ...body(values), send });
      void toast.success(send ? `${kind.noun} sent to ${res.data?.recipients ?? 0} recipients.` : `${kind.noun} saved as draft.`);
      await invalidate({ resource: kind.resource, invalidates: ["list", "detail"], id: res.data?.id });
      edits.saved(() => navigate(send ? kind.detailPath(String(res.data?.id)) : kind.listPath));
    } catch (err) {
      form.setFields(rejectionFieldErrors(err));
      void toast.error(rejectionMessage(err, `The ${noun} could not be saved.`));
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <Card title={title}>
      {sent && <Alert type="info" showIcon message={`This ${noun} has been sent and can no longer be changed.`} style={{ marginBottom: 16 }} />}
      <Form form={form} onValuesChange={edits.onValuesChange} layout="vertical" disabled={sent} aria-label={title} initialValues={record ? { ...record, filterRecipient: record.filterRecipient ?? {} } : defaults}>
        {children({ id, form, title, record, sent })}
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
        <Button onClick={() => navigate(kind.listPath)}>Cancel</Button>
      </Space>
    </Card>
  );
}
