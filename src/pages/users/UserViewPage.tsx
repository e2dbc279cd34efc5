/**
 * /user/{id}/view: the user's details, the lock state read through PATCH /users/{username}/check-block,
 * and for those allowed: Unlock (PATCH /users/{id}/unblock), Reset password (PATCH /users/{id}/forget-password,
 * a code by mail), Edit and Delete (DELETE /users/{id}).
 */
import { Avatar, Button, Card, Descriptions, Popconfirm, Space, Spin, Tag } from "antd";
import { toast } from "../../framework/toast.ts";
import { EditOutlined, LockOutlined, UnlockOutlined, UserOutlined } from "@ant-design/icons";
import { CanAccess, useInvalidate, useMany, useOne } from "@refinedev/core";
import { Link, useNavigate, useParams } from "react-router";
import { useCallback, useEffect, useState } from "react";
import { api, rejectionMessage } from "../../app/api.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay, formatTimeDate } from "../../domain/dates.ts";
import { formatPhone, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { STAFF_ROLE_LABELS } from "./roles.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import { ROLE_LABELS } from "../../domain/roleLabels.ts";
import { HistoryDrawer } from "../../framework/pages/HistoryDrawer.tsx";

const FIELDS = [
  "id", "username", "firstName", "lastName", "fullName", "email", "phone", "dob", "gender", "address", "avatarUrl", "role", "multipleRoles",
  "status", "levelIds", "subjectIds", "numOfFailed", "createdAt", "updatedAt", { branch: ["id", "name"] }, { company: ["id", "name"] },
];

/** Lock state of an account: PATCH /users/{username}/check-block reads data.isBlocked. */
export function useLockState(username: string | undefined) {
  const [isBlocked, setBlocked] = useState<boolean | undefined>(undefined);
  const check = useCallback(async () => {
    if (!username) return;
    try {
      const res = await api<{ isBlocked: boolean }>("PATCH", `/users/${encodeURIComponent(username)}/check-block`, { username });
      setBlocked(Boolean(res.data?.isBlocked));
    } catch (err) {
      console.error("[users] check-block failed", err);
    }
  }, [username]);
  useEffect(() => {
    void check();
  }, [check]);
  return { isBlocked, recheck: check };
}

export default function UserViewPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { query } = useOne<Record<string, unknown>>({ resource: "users", id, meta: { fields: FIELDS }, queryOptions: { retry: false, enabled: Boolean(id) } });
  const record = query.data?.data;
  const lock = useLockState(record?.username as string | undefined);
  const levelIds = (record?.levelIds as string[] | undefined) ?? [];
  const subjectIds = (record?.subjectIds as string[] | undefined) ?? [];
  const levels = useMany<Record<string, unknown>>({ resource: "levels", ids: levelIds, meta: { fields: ["id", "name"] }, queryOptions: { enabled: levelIds.length > 0 } });
  const subjects = useMany<Record<string, unknown>>({ resource: "subjects", ids: subjectIds, meta: { fields: ["id", "name"] }, queryOptions: { enabled: subjectIds.length > 0 } });
  const [busy, setBusy] = useState<string | undefined>();

  if (query.isLoading) return <Spin size="large" />;
  if (!record || record.status === "deleted") return <Card title="User Detail">This record does not exist.</Card>;
  const userId = String(record.id);

  const run = async (key: string, call: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await call();
      void toast.success(done);
      await lock.recheck();
      await invalidate({ resource: "users", invalidates: ["list", "detail"], id: userId });
    } catch (err) {
      void toast.error(rejectionMessage(err, "The action failed."));
    } finally {
      setBusy(undefined);
    }
  };

  const roles = Array.isArray(record.multipleRoles) && record.multipleRoles.length ? (record.multipleRoles as string[]) : record.role ? [String(record.role)] : [];
  const names = (q: typeof levels) => (q.result?.data ?? []).map((r) => String(r.name)).join(", ");
  return (
    <Card
      title={
        <Space>
          <Avatar src={(record.avatarUrl as string) || undefined} icon={<UserOutlined />} />
          {String(record.fullName ?? record.username)}
        </Space>
      }
      extra={
        <Space wrap>
          <HistoryDrawer table="users" id={userId} />
          {lock.isBlocked && (
            <CanAccess resource={`api:/users/${userId}/unblock`} action="PATCH" fallback={null}>
              <Button icon={<UnlockOutlined />} loading={busy === "unlock"} onClick={() => void run("unlock", () => api("PATCH", `/users/${userId}/unblock`), "The account is unlocked.")}>
                Unlock
              </Button>
            </CanAccess>
          )}
          <CanAccess resource={`api:/users/${userId}/forget-password`} action="PATCH" fallback={null}>
            <Popconfirm
              title="Reset password?"
              description="A code to set a new password will be sent to the user's e-mail."
              okText="Yes"
              cancelText="No"
              onConfirm={() => void run("reset", () => api("PATCH", `/users/${userId}/forget-password`), "A password reset code was sent to the user.")}
            >
              <Button loading={busy === "reset"}>Reset password</Button>
            </Popconfirm>
          </CanAccess>
          <CanAccess resource={`/user/${userId}/update`} action="show" fallback={null}>
            <Link to={`/user/${userId}/update`}>
              <Button type="primary" icon={<EditOutlined />}>
                Edit
              </Button>
            </Link>
          </CanAccess>
          <CanAccess resource={`api:/users/${userId}`} action="DELETE" fallback={null}>
            <Popconfirm
              title="Delete this user?"
              description="Are you sure you want to delete this record?"
              okText="Yes"
              cancelText="No"
              onConfirm={async () => {
                try {
                  await api("DELETE", `/users/${userId}`);
                  void toast.success("User deleted.");
                  await invalidate({ resource: "users", invalidates: ["list"] });
                  navigate("/user");
                } catch (err) {
                  void toast.error(rejectionMessage(err, "The user could not be deleted."));
                }
              }}
            >
              <Button danger>Delete</Button>
            </Popconfirm>
          </CanAccess>
        </Space>
      }
    >
      <Descriptions bordered column={{ xs: 1, md: 2 }} size="middle">
        <Descriptions.Item label="Username">{String(record.username)}</Descriptions.Item>
        <Descriptions.Item label="Account">
          {lock.isBlocked === undefined ? (
            <Spin size="small" />
          ) : lock.isBlocked ? (
            <Tag color="red" icon={<LockOutlined />} data-testid="lock-state">
              Locked
            </Tag>
          ) : (
            <Tag color="green" data-testid="lock-state">
              Not locked
            </Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="First Name">{String(record.firstName ?? "")}</Descriptions.Item>
        <Descriptions.Item label="Last Name">{String(record.lastName ?? "")}</Descriptions.Item>
        <Descriptions.Item label="Email">{String(record.email ?? "")}</Descriptions.Item>
        <Descriptions.Item label="Phone">{formatPhone(record.phone as Phone | null)}</Descriptions.Item>
        <Descriptions.Item label="Roles">
          {roles.map((r) => (
            <Tag key={r}>{STAFF_ROLE_LABELS[r] ?? ROLE_LABELS[r] ?? r}</Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="Status">
          <Tag>{enumLabel("users", "status", record.status)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="Company">{String((record.company as { name?: string } | null)?.name ?? "")}</Descriptions.Item>
        <Descriptions.Item label="Branch">{String((record.branch as { name?: string } | null)?.name ?? "")}</Descriptions.Item>
        <Descriptions.Item label="Date of Birth">{formatCalendarDay(record.dob as string | null, DISPLAY_DATE_FORMAT)}</Descriptions.Item>
        <Descriptions.Item label="Gender">{String(record.gender ?? "")}</Descriptions.Item>
        {levelIds.length > 0 && <Descriptions.Item label="Levels">{names(levels)}</Descriptions.Item>}
        {subjectIds.length > 0 && <Descriptions.Item label="Subjects">{names(subjects)}</Descriptions.Item>}
        <Descriptions.Item label="Address" span={2}>
          {String(record.address ?? "")}
        </Descriptions.Item>
        <Descriptions.Item label="Created At">{formatTimeDate(record.createdAt as string)}</Descriptions.Item>
        <Descriptions.Item label="Updated At">{formatTimeDate(record.updatedAt as string)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
