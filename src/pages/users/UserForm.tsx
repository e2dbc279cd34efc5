/**
 * The staff user form (create and update): avatar, names, username (suggested from the first and last
 * name through GET /users/username/suggest until typed by hand), email, phone, roles (multipleRoles),
 * status, company and branch, and levels and subjects for teaching roles. Saved through the REST calls
 * POST /users and PUT /users/{id}; field errors of the server show under their fields. The identity fields
 * (username, e-mail, phone, roles, status) of another's account are an administrator's to change; on one's own
 * account a change of them asks for the current password (issue 32 §1).
 */
import { Button, Card, Col, Form, Input, Row, Select, Space, Typography } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useInvalidate } from "@refinedev/core";
import type { Dayjs } from "dayjs";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { useSignedInUser } from "./useSignedInUser.ts";
import { MediaUpload } from "../../framework/inputs/MediaUpload.tsx";
import { PhoneInput, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { RelationSelect } from "../../framework/inputs/RelationSelect.tsx";
import { DATE_FORMAT, dayjs } from "../../domain/dates.ts";
import { MESSAGES, nameLike, username as usernameRule, type Validator } from "../../domain/validators.ts";
import { STAFF_ROLES, STAFF_ROLE_LABELS, TEACHING_ROLES, USER_STATUS_OPTIONS } from "./roles.ts";
import { useFormEdits } from "../../framework/formEdits.ts";

export interface UserFormValues {
  avatarUrl?: string | null;
  firstName?: string;
  lastName?: string;
  username?: string;
  email?: string;
  phone?: Phone | null;
  dob?: Dayjs | null;
  gender?: string | null;
  address?: string | null;
  multipleRoles?: string[];
  status?: string;
  companyId?: string | null;
  branchId?: string | null;
  levelIds?: string[];
  subjectIds?: string[];
  /** Asked on one's own account when an identity field changes. */
  currentPassword?: string;
}

/** Whether the values change an identity field (username, e-mail, phone, roles, status) of the initial ones. */
export function identityChanged(initial: UserFormValues | undefined, values: UserFormValues): boolean {
  const text = (v: string | undefined) => (v ?? "").trim().toLowerCase();
  const phone = (p: Phone | null | undefined) => (p?.number ? `${p.code} ${p.number}` : "");
  const roles = (r: string[] | undefined) => [...(r ?? [])].sort().join(",");
  return (
    text(values.username) !== text(initial?.username) ||
    text(values.email) !== text(initial?.email) ||
    phone(values.phone) !== phone(initial?.phone) ||
    roles(values.multipleRoles) !== roles(initial?.multipleRoles) ||
    (values.status ?? "") !== (initial?.status ?? "")
  );
}

const rule = (v: Validator) => ({ validator: async (_: unknown, value: unknown) => {
  const m = v(value);
  if (m) throw new Error(m);
} });

/** Form values → the REST body (only what the server accepts). */
export function userBody(values: UserFormValues, action: "create" | "edit"): Record<string, unknown> {
  const body: Record<string, unknown> = {
    username: values.username?.trim(),
    email: values.email?.trim(),
    firstName: values.firstName?.trim(),
    lastName: values.lastName?.trim(),
    multipleRoles: values.multipleRoles ?? [],
    phone: values.phone?.number ? values.phone : null,
    dob: values.dob ? values.dob.format(DATE_FORMAT) : null,
    gender: values.gender ?? null,
    address: values.address || null,
    avatarUrl: values.avatarUrl ?? null,
    companyId: values.companyId ?? null,
    branchId: values.branchId ?? null,
    levelIds: values.levelIds ?? [],
    subjectIds: values.subjectIds ?? [],
  };
  if (action === "edit" && values.status) body.status = values.status;
  if (action === "edit" && values.currentPassword) body.currentPassword = values.currentPassword;
  return body;
}

/** Suggests a username for the names typed (debounced); stops once the username is typed by hand. */
export function useUsernameSuggestion(form: ReturnType<typeof Form.useForm<UserFormValues>>[0], enabled: boolean) {
  const typedByHand = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const suggest = async (force = false) => {
    if (!force && (!enabled || typedByHand.current)) return;
    const firstName = form.getFieldValue("firstName") ?? "";
    const lastName = form.getFieldValue("lastName") ?? "";
    if (!firstName && !lastName) return;
    const q = new URLSearchParams({ firstName, lastName });
    try {
      const res = await api<{ username: string }>("GET", `/users/username/suggest?${q}`);
      if (res.data?.username) {
        form.setFieldValue("username", res.data.username);
        if (force) typedByHand.current = false;
        void form.validateFields(["username"]).catch(() => undefined);
      }
    } catch (err) {
      console.error("[users] username suggestion failed", err);
    }
  };
  const onNameChange = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void suggest(), 400);
  };
  const onUsernameTyped = () => {
    typedByHand.current = true;
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return { onNameChange, onUsernameTyped, suggestNow: () => suggest(true) };
}

export function UserForm({ action, id, initialValues }: { action: "create" | "edit"; id?: string; initialValues?: UserFormValues }) {
  const [form] = Form.useForm<UserFormValues>();
  const edits = useFormEdits(form);
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const me = useSignedInUser();
  const [saving, setSaving] = useState(false);
  const suggestion = useUsernameSuggestion(form, action === "create");
  const roles = Form.useWatch("multipleRoles", form) ?? [];
  const teaching = roles.some((r) => TEACHING_ROLES.includes(r));
  const isAdmin = me?.roles.includes("admin") ?? false;
  const self = action === "edit" && Boolean(id) && me?.id === id;
  // Another's identity is an administrator's to change (the server refuses the rest anyway).
  const identityFixed = action === "edit" && !self && !isAdmin;
  const [serverAsksPassword, setServerAsksPassword] = useState(false);
  const changed = Form.useWatch((values: UserFormValues) => identityChanged(initialValues, values), form);
  const askPassword = self && !isAdmin && (serverAsksPassword || Boolean(changed));
  const roleOptions = STAFF_ROLES.filter((r) => r !== "admin" || isAdmin || initialValues?.multipleRoles?.includes("admin")).map((r) => ({
    value: r,
    label: STAFF_ROLE_LABELS[r],
    disabled: r === "admin" && !isAdmin,
  }));

  const onFinish = async (values: UserFormValues) => {
    setSaving(true);
    try {
      const res =
        action === "create"
          ? await api<{ id: string }>("POST", "/users", userBody(values, "create"))
          : await api<{ id: string }>("PUT", `/users/${id}`, userBody(values, "edit"));
      void toast.success(action === "create" ? "User created. A temporary password was sent by e-mail." : "User updated.");
      await invalidate({ resource: "users", invalidates: ["list", "detail"], id: res.data?.id ?? id });
      edits.saved(() => navigate(`/user/${res.data?.id ?? id}/view`));
    } catch (err) {
      const fields = rejectionFieldErrors(err);
      if (fields.some((f) => f.name === "currentPassword")) setServerAsksPassword(true);
      form.setFields(fields as Parameters<typeof form.setFields>[0]);
      void toast.error(rejectionMessage(err, "The user could not be saved."));
    } finally {
      setSaving(false);
    }
  };

  const title = action === "create" ? "Create User" : "Update User";
  return (
    <Card title={title}>
      <Form form={form} onValuesChange={edits.onValuesChange} layout="vertical" initialValues={initialValues ?? { multipleRoles: [], status: "active" }} onFinish={onFinish} aria-label={title} scrollToFirstError>
        <Form.Item name="avatarUrl" label="Avatar">
          <MediaUpload kind="image" folder="avatars" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="firstName" label="First Name" htmlFor="field-firstName" rules={[{ required: true, message: "Please input First Name!" }, rule(nameLike)]}>
              <Input id="field-firstName" onChange={suggestion.onNameChange} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="lastName" label="Last Name" htmlFor="field-lastName" rules={[{ required: true, message: "Please input Last Name!" }, rule(nameLike)]}>
              <Input id="field-lastName" onChange={suggestion.onNameChange} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Username" required>
              <Space.Compact style={{ width: "100%" }}>
                <Form.Item name="username" noStyle rules={[{ required: true, message: "Please input Username!" }, rule(usernameRule)]}>
                  <Input id="field-username" aria-label="Username" disabled={identityFixed} onChange={suggestion.onUsernameTyped} />
                </Form.Item>
                <Button disabled={identityFixed} onClick={() => void suggestion.suggestNow()}>Suggest</Button>
              </Space.Compact>
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email" label="Email" htmlFor="field-email" rules={[{ required: true, message: "Please input Email!" }, { type: "email", message: "Please enter a valid email!" }]}>
              <Input id="field-email" type="email" disabled={identityFixed} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="phone" label="Phone">
              <PhoneInput disabled={identityFixed} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="dob" label="Date of Birth">
              <DateInput style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="gender" label="Gender">
              <Select allowClear options={[{ value: "male", label: "Male" }, { value: "female", label: "Female" }]} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="multipleRoles" label="Roles" htmlFor="field-roles" rules={[{ required: true, message: "Please select role!" }]}>
              <Select id="field-roles" mode="multiple" options={roleOptions} disabled={identityFixed} />
            </Form.Item>
          </Col>
          {action === "edit" && (
            <Col xs={24} md={12}>
              <Form.Item name="status" label="Status">
                <Select disabled={identityFixed} options={USER_STATUS_OPTIONS.filter((o) => o.value !== "locked")} />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item name="companyId" label="Company">
              <RelationSelect target="companies" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="branchId" label="Branch">
              <RelationSelect target="branches" />
            </Form.Item>
          </Col>
          {teaching && (
            <>
              <Col xs={24} md={12}>
                <Form.Item name="levelIds" label="Levels">
                  <RelationSelect target="levels" many />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="subjectIds" label="Subjects">
                  <RelationSelect target="subjects" many />
                </Form.Item>
              </Col>
            </>
          )}
          <Col span={24}>
            <Form.Item name="address" label="Address">
              <Input.TextArea rows={3} />
            </Form.Item>
          </Col>
          {askPassword && (
            <Col xs={24} md={12}>
              <Form.Item name="currentPassword" label="Current Password" htmlFor="field-currentPassword" extra="Needed to change your username, e-mail, phone or status." rules={[{ required: true, message: "Please input your current password!" }]}>
                <Input.Password id="field-currentPassword" autoComplete="current-password" />
              </Form.Item>
            </Col>
          )}
        </Row>
        {identityFixed && (
          <Typography.Paragraph type="secondary">Username, e-mail, phone, roles and status are changed by an administrator or by the user.</Typography.Paragraph>
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

/** A users row as GraphQL returns it → form values. */
export function userFormValues(record: Record<string, unknown>): UserFormValues {
  return {
    avatarUrl: (record.avatarUrl as string | null) ?? null,
    firstName: (record.firstName as string) ?? "",
    lastName: (record.lastName as string) ?? "",
    username: record.username as string,
    email: (record.email as string) ?? "",
    phone: (record.phone as Phone | null) ?? null,
    dob: record.dob ? dayjs(String(record.dob).slice(0, 10), DATE_FORMAT) : null,
    gender: (record.gender as string | null) ?? null,
    address: (record.address as string | null) ?? null,
    multipleRoles: Array.isArray(record.multipleRoles) && record.multipleRoles.length ? (record.multipleRoles as string[]) : record.role ? [String(record.role)] : [],
    status: record.status as string,
    companyId: (record.companyId as string | null) ?? null,
    branchId: (record.branchId as string | null) ?? null,
    levelIds: (record.levelIds as string[]) ?? [],
    subjectIds: (record.subjectIds as string[]) ?? [],
  };
}

export const USER_FORM_FIELDS = ["id", "avatarUrl", "firstName", "lastName", "username", "email", "phone", "dob", "gender", "address", "role", "multipleRoles", "status", "companyId", "branchId", "levelIds", "subjectIds"];

export { MESSAGES };
