/**
 * The student card of the view page (spec part 1 §3): first and last name, username, email, phone and
 * the school's name, '__' where a value is missing.
 */
import { Avatar, Card, Descriptions, Space, Tag, Typography } from "antd";
import { UserOutlined } from "@ant-design/icons";
import { formatPhone, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { orBlank } from "../../domain/students.ts";
import { enumLabel } from "../../framework/enumLabel.ts";

export interface StudentCardRecord {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
  email?: string | null;
  phone?: Phone | null;
  avatarUrl?: string | null;
  status?: string | null;
  school?: { name?: string | null } | null;
}

export function StudentProfileHeader({ student, extra }: { student: StudentCardRecord; extra?: React.ReactNode }) {
  return (
    <Card
      title={
        <Space>
          <Avatar size={48} src={student.avatarUrl || undefined} icon={<UserOutlined />} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {orBlank([student.firstName, student.lastName].filter(Boolean).join(" "))}
          </Typography.Title>
          {student.status && <Tag color={student.status === "active" ? "green" : student.status === "draft" ? "orange" : "default"}>{enumLabel("users", "status", student.status)}</Tag>}
        </Space>
      }
      extra={extra}
    >
      <Descriptions column={{ xs: 1, md: 3 }} size="small" aria-label="Student card">
        <Descriptions.Item label="First Name">{orBlank(student.firstName)}</Descriptions.Item>
        <Descriptions.Item label="Last Name">{orBlank(student.lastName)}</Descriptions.Item>
        <Descriptions.Item label="Username">{orBlank(student.username)}</Descriptions.Item>
        <Descriptions.Item label="Email">{orBlank(student.email)}</Descriptions.Item>
        <Descriptions.Item label="Phone">{orBlank(formatPhone(student.phone))}</Descriptions.Item>
        <Descriptions.Item label="School">{orBlank(student.school?.name)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
