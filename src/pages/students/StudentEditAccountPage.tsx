/**
 * /student-management/edit-account/{id}: the student's account (names, username, contact, branch,
 * status, avatar) saved with PUT /student-profiles (the avatar with PATCH /student-profiles/{id}/avatar).
 * Family and school details are edited in the wizard at update-account-information/{id}.
 */
import { Button, Card, Col, Form, Row, Select, Space, Spin, message as antdMessage } from "antd";
import { useInvalidate, useOne } from "@refinedev/core";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { api, rejectionMessage } from "../../app/api.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import { AccountSection } from "./StudentFormSections.tsx";
import { PROFILE_FIELDS, accountBody, accountValues, serverFieldErrors, type AccountValues, type ProfileRecord } from "./studentProfile.ts";
import { useFormEdits } from "../../framework/formEdits.ts";

/** Statuses staff may set on a finished account (draft ends with the wizard; deleted is the delete action). */
const EDITABLE_STATUSES = ["active", "inactive", "pending", "disabled"] as const;

export default function StudentEditAccountPage() {
  const { id } = useParams();
  const { query } = useOne<ProfileRecord>({ resource: "users", id, meta: { fields: PROFILE_FIELDS }, queryOptions: { retry: false, enabled: Boolean(id) } });
  if (query.isLoading) return <Spin size="large" />;
  const record = query.data?.data;
  if (!record || record.type !== "student" || record.status === "deleted") return <Card title="Edit Account">This record does not exist.</Card>;
  return <EditAccountForm key={record.id} record={record} />;
}

function EditAccountForm({ record }: { record: ProfileRecord }) {
  const [form] = Form.useForm<AccountValues & { status?: string }>();
  const edits = useFormEdits(form);
  const [saving, setSaving] = useState(false);
  const [message, messageHolder] = antdMessage.useMessage();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const draft = record.status === "draft";

  const onFinish = async (values: AccountValues & { status?: string }) => {
    setSaving(true);
    try {
      await api("PUT", "/student-profiles", { id: record.id, ...accountBody(values), ...(draft ? {} : { status: values.status }) });
      if (values.avatarUrl && values.avatarUrl !== record.avatarUrl) await api("PATCH", `/student-profiles/${record.id}/avatar`, { avatarUrl: values.avatarUrl });
      void message.success("Student account updated.");
      await invalidate({ resource: "users", invalidates: ["list", "detail"], id: record.id });
      edits.saved(() => navigate(`/student-management/student/${record.id}/view`));
    } catch (err) {
      form.setFields(serverFieldErrors(err) as never);
      void message.error(rejectionMessage(err, "The student could not be saved."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="Edit Account" extra={<Link to={`/student-management/update-account-information/${record.id}`}>Update Account Information</Link>}>
      {messageHolder}
      <Form form={form} onValuesChange={edits.onValuesChange} layout="vertical" initialValues={{ ...accountValues(record), status: record.status }} onFinish={onFinish} aria-label="Edit Account" scrollToFirstError>
        <AccountSection form={form} suggest={false} />
        {!draft && (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="status" label="Status" htmlFor="student-status">
                <Select id="student-status" options={EDITABLE_STATUSES.map((s) => ({ value: s, label: enumLabel("users", "status", s) }))} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            Save
          </Button>
          <Button onClick={() => navigate(-1)}>Cancel</Button>
        </Space>
      </Form>
    </Card>
  );
}
