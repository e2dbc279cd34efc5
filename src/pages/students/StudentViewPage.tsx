/**
 * /student-management/student/{id}/view: everything about one student in tabs — profile and family,
 * classes with their enrolment statuses, attendance, payment advices, invoices, receipts, credit notes,
 * refunds and deposits. Edit links lead to edit-account and update-account-information; Delete calls
 * DELETE /student-profiles/{id}, which the server refuses while money or classes are outstanding.
 */
import { Button, Card, Descriptions, Popconfirm, Space, Spin, Table, Tabs, Tag, message as antdMessage } from "antd";
import { CanAccess, useInvalidate, useOne } from "@refinedev/core";
import { Link, useNavigate, useParams } from "react-router";
import { api, rejectionMessage } from "../../app/api.ts";
import { formatPhone, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { formatCalendarDay, DISPLAY_DATE_FORMAT } from "../../domain/dates.ts";
import { GENDER_LABELS, PARENT_RELATIONSHIPS, orBlank } from "../../domain/students.ts";
import { StudentProfileHeader, type StudentCardRecord } from "./StudentProfileHeader.tsx";
import { STUDENT_RECORD_TABS } from "./StudentRecordTabs.tsx";
import type { ParentValues } from "./studentProfile.ts";
import { DeletedRecordNotice, HistoryDrawer } from "../../framework/pages/HistoryDrawer.tsx";

/** Only the columns the page shows. */
const VIEW_FIELDS = [
  "id", "type", "username", "firstName", "lastName", "email", "phone", "dob", "gender", "address", "avatarUrl", "status", "currentStep",
  "parents", "siblings", "emergencyContact", "subscribe", "payOnline", "references",
  { school: ["name"] }, { branch: ["name"] }, { curriculum: ["name", "abbreviation"] }, { level: ["name", "abbreviation"] },
];

type Student = Record<string, any> & { id: string };

export default function StudentViewPage() {
  const { id } = useParams();
  const { query } = useOne<Student>({ resource: "users", id, meta: { fields: VIEW_FIELDS }, queryOptions: { retry: false, enabled: Boolean(id) } });
  if (query.isLoading) return <Spin size="large" />;
  const student = query.data?.data;
  if (student && student.type !== "student") return <Card title="Student Detail">This record does not exist.</Card>;
  // a deleted student (issue 36): who deleted them and when, as the generated show pages say it
  if (!student || student.status === "deleted") return <Card title="Student Detail">{id ? <DeletedRecordNotice table="users" id={id} /> : "This record does not exist."}</Card>;
  return <StudentView student={student} />;
}

function StudentView({ student }: { student: Student }) {
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [message, messageHolder] = antdMessage.useMessage();
  const draft = student.status === "draft";
  const remove = async () => {
    try {
      await api("DELETE", `/student-profiles/${student.id}`);
      void message.success("Student deleted.");
      await invalidate({ resource: "users", invalidates: ["list"] });
      navigate("/student-management");
    } catch (err) {
      void message.error(rejectionMessage(err, "The student could not be deleted."));
    }
  };
  const actions = (
    <Space>
      {draft ? (
        <Link to={`/student-management/update-account-information/${student.id}`}>
          <Button type="primary">Continue Account</Button>
        </Link>
      ) : (
        <>
          <Link to={`/student-management/edit-account/${student.id}`}>
            <Button>Edit Account</Button>
          </Link>
          <Link to={`/student-management/update-account-information/${student.id}`}>
            <Button>Update Account Information</Button>
          </Link>
        </>
      )}
      <HistoryDrawer table="users" id={student.id} />
      <CanAccess resource="/finance/statement/:studentId" action="view" fallback={null}>
        <Link to={`/finance/statement/${student.id}`}>
          <Button>Statement</Button>
        </Link>
      </CanAccess>
      <CanAccess resource="api:/student-profiles/:id" action="DELETE" fallback={null}>
        <Popconfirm title="Delete this student?" okText="Yes" cancelText="No" onConfirm={() => void remove()}>
          <Button danger>Delete</Button>
        </Popconfirm>
      </CanAccess>
    </Space>
  );
  return (
    <Space direction="vertical" style={{ width: "100%" }} size="large">
      {messageHolder}
      <StudentProfileHeader student={student as StudentCardRecord} extra={actions} />
      <Card>
        <Tabs
          items={[
            { key: "profile", label: "Profile & Family", children: <ProfileTab student={student} /> },
            ...STUDENT_RECORD_TABS.map((t) => ({ key: t.key, label: t.label, children: t.children(student.id) })),
          ]}
        />
      </Card>
    </Space>
  );
}

function ProfileTab({ student }: { student: Student }) {
  const parents = (student.parents as ParentValues[] | null) ?? [];
  const siblings = (student.siblings as { id: string; firstName?: string; lastName?: string; username?: string }[] | null) ?? [];
  const emergency = student.emergencyContact as { firstName?: string; lastName?: string; phone?: Phone } | null;
  const references = (student.references as { name?: string; discountCode?: string }[] | null) ?? [];
  return (
    <Space direction="vertical" style={{ width: "100%" }} size="large">
      <Descriptions title="Profile" column={{ xs: 1, md: 3 }} size="small" bordered>
        <Descriptions.Item label="Date of Birth">{orBlank(formatCalendarDay(student.dob, DISPLAY_DATE_FORMAT))}</Descriptions.Item>
        <Descriptions.Item label="Gender">{orBlank(GENDER_LABELS[student.gender] ?? student.gender)}</Descriptions.Item>
        <Descriptions.Item label="Branch">{orBlank(student.branch?.name)}</Descriptions.Item>
        <Descriptions.Item label="Curriculum">{orBlank(student.curriculum?.name)}</Descriptions.Item>
        <Descriptions.Item label="Level">{orBlank(student.level?.name)}</Descriptions.Item>
        <Descriptions.Item label="Subscribe">{student.subscribe ? "Yes" : "No"}</Descriptions.Item>
        <Descriptions.Item label="Pay Online">{student.payOnline ? "Yes" : "No"}</Descriptions.Item>
        <Descriptions.Item label="Address" span={2}>{orBlank(student.address)}</Descriptions.Item>
        <Descriptions.Item label="References" span={3}>
          {references.length ? references.map((r, i) => <Tag key={i}>{[r.name, r.discountCode].filter(Boolean).join(" · ")}</Tag>) : "__"}
        </Descriptions.Item>
      </Descriptions>
      <Table
        rowKey={(_r, i) => String(i)}
        title={() => <strong>Parents</strong>}
        pagination={false}
        size="small"
        dataSource={parents}
        aria-label="Parents"
        columns={[
          { title: "Relationship", dataIndex: "relationship", render: (v: string) => PARENT_RELATIONSHIPS[v] ?? v },
          { title: "Name", key: "name", render: (_v, p) => [p.firstName, p.lastName].filter(Boolean).join(" ") },
          { title: "Email", dataIndex: "email", render: (v) => orBlank(v) },
          { title: "Phone", dataIndex: "phone", render: (v: Phone) => orBlank(formatPhone(v)) },
          { title: "Occupation", dataIndex: "occupation", render: (v) => orBlank(v) },
          { title: "Contact", key: "flags", render: (_v, p) => <>{p.primaryContact && <Tag color="blue">Primary</Tag>}{p.isEmergencyContact && <Tag color="red">Emergency</Tag>}</> },
        ]}
      />
      <Descriptions title="Emergency Contact" column={{ xs: 1, md: 3 }} size="small" bordered>
        <Descriptions.Item label="Name">{orBlank([emergency?.firstName, emergency?.lastName].filter(Boolean).join(" "))}</Descriptions.Item>
        <Descriptions.Item label="Phone">{orBlank(formatPhone(emergency?.phone))}</Descriptions.Item>
      </Descriptions>
      <Descriptions title="Siblings" column={1} size="small">
        <Descriptions.Item label="Siblings">
          {siblings.length
            ? siblings.map((s) => (
                <Link key={s.id} to={`/student-management/student/${s.id}/view`} style={{ marginRight: 12 }}>
                  {[s.firstName, s.lastName].filter(Boolean).join(" ")} ({s.username})
                </Link>
              ))
            : "__"}
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}
