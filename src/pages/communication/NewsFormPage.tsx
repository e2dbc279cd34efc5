/**
 * /communication/news/create and /update/{id}: title, subject, type, cover image, hashtags, message,
 * footer, recipients (filters) and recipients uploaded from a file (name and e-mail per line). "Save as
 * draft" keeps it unsent; "Send" sends it through POST /news. A sent news item is shown read-only.
 */
import { Checkbox, Col, Form, Input, Row, Select } from "antd";
import { useParams } from "react-router";
import { useState } from "react";
import { RichTextInput } from "../../framework/inputs/RichTextInput.tsx";
import { MediaUpload } from "../../framework/inputs/MediaUpload.tsx";
import { RecipientFields, cleanFilter } from "./RecipientFields.tsx";
import { RecipientsUpload, useUploadedRecipients } from "./RecipientsUpload.tsx";
import { SendFormPage } from "./SendForm.tsx";
import { NEWS } from "./kinds.ts";
import type { UploadedRecipient } from "./recipientsFile.ts";

const FIELDS = ["title", "subject", "message", "footer", "coverUrl", "hashtags", "type", "recipientType", "filterRecipient", "companyId"];

export default function NewsFormPage() {
  const { id } = useParams();
  // undefined: unchanged (keep what the server has); a list: replaces the uploaded recipients.
  const [uploaded, setUploaded] = useState<UploadedRecipient[] | undefined>(undefined);
  const existing = useUploadedRecipients(id);
  const shownRecipients = uploaded ?? (existing.result?.data ?? []).map((r) => ({ name: r.name, email: r.email }));
  const body = (values: Record<string, unknown>) => ({
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
  });

  return (
    <SendFormPage kind={NEWS} fields={FIELDS} defaults={{ recipientType: "all", hashtags: [], filterRecipient: {} }} body={body}>
      {({ sent }) => (
        <>
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
        </>
      )}
    </SendFormPage>
  );
}
