/**
 * /communication/broadcast/create and /update/{id}: title, subject, content, channels (via), recipients.
 * "Save as draft" keeps it unsent; "Send" sends it through POST /broadcast (the outbox, one log row per
 * recipient). A sent broadcast is shown read-only.
 */
import { Checkbox, Form, Input } from "antd";
import { RichTextInput } from "../../framework/inputs/RichTextInput.tsx";
import { RecipientFields, cleanFilter } from "./RecipientFields.tsx";
import { SendFormPage } from "./SendForm.tsx";
import { BROADCAST } from "./kinds.ts";

export const CHANNELS = [
  { value: "email", label: "Email" },
  { value: "sms", label: "SMS" },
  { value: "notification", label: "Notification" },
];

const FIELDS = ["title", "subject", "content", "via", "recipientType", "filterRecipient", "companyId"];

const body = (values: Record<string, unknown>) => ({
  title: values.title,
  subject: values.subject || null,
  content: values.content || null,
  via: values.via,
  recipientType: values.recipientType,
  companyId: values.companyId ?? null,
  filterRecipient: cleanFilter(values.filterRecipient as Record<string, unknown>),
});

export default function BroadcastFormPage() {
  return (
    <SendFormPage kind={BROADCAST} fields={FIELDS} defaults={{ via: ["email"], recipientType: "student", filterRecipient: {} }} body={body}>
      {({ sent }) => (
        <>
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
        </>
      )}
    </SendFormPage>
  );
}
