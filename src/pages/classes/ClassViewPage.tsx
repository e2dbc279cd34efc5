/**
 * /class/management/{classId}/view: the class, its lessons by date (deleted ones left out; cancel a lesson),
 * its students with their enrolment statuses and the enrolment actions (enrol, transfer, replace), and the
 * transfer requests with their status changes. Every change is a REST call of the server (one transaction).
 */
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button, Card, Descriptions, Popconfirm, Select, Space, Spin, Table, Tag } from "antd";
import { toast } from "../../framework/toast.ts";
import { useCan, useInvalidate, useList, useOne, useUpdate } from "@refinedev/core";
import { api, rejectionMessage } from "../../app/api.ts";
import { classAvailability } from "../../domain/classAvailability.ts";
import { CLASS_STATUS_LABELS, SEAT_STATUSES } from "../../domain/attendance.ts";
import { formatDay, formatInSingapore, todayInSingapore } from "../../domain/dates.ts";
import { EnrolDialog, ReplaceDialog, TransferDialog } from "./ClassActions.tsx";
import { useTutorNames } from "./useTutorNames.ts";
import { HistoryDrawer } from "../../framework/pages/HistoryDrawer.tsx";
import { enumLabel } from "../../framework/enumLabel.ts";

interface ClassRecord {
  id: string; name: string; classCode: string | null; classStatus: string; classType: string; classTier: string | null; classSize: number; totalLoop: number;
  startDate: string | null; endDate: string | null; tutorIds: string[]; program: { id: string; name: string } | null; branch: { name: string } | null;
  programType: { code: string | null } | null;
}
interface LessonRow { id: string; date: string; numberWeek: number | null; lessonStatus: string; classroom: { name: string } | null; sessions: { startTime: string; endTime: string; tutorIds: string[] }[] }
interface EnrolmentRow { id: string; status: string; action: string | null; lessonStartDate: string | null; userId: string; user: { id: string; fullName: string | null; username: string } | null }
interface TransferRow { id: string; transferClassStatus: string; lessonStartDate: string | null; studentId: string; student: { fullName: string | null } | null; fromClass: { id: string; name: string } | null; toClass: { id: string; name: string } | null }

const STATUS_COLOURS: Record<string, string> = { enrolled: "green", transferred: "cyan", pending: "blue", suspended: "orange", withdrawn: "red", withdrawal: "red", has_been_transferred: "default", completed: "default" };

export default function ClassViewPage() {
  const { classId = "" } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [enrolOpen, setEnrolOpen] = useState(false);
  const [transferOf, setTransferOf] = useState<string | null>(null);
  const [replaceOf, setReplaceOf] = useState<string | null>(null);
  const { result: cls, query } = useOne<ClassRecord>({
    resource: "classes", id: classId,
    meta: { fields: ["id", "name", "classCode", "classStatus", "classType", "classTier", "classSize", "totalLoop", "startDate", "endDate", "tutorIds",
      { program: ["id", "name"] }, { branch: ["name"] }, { programType: ["code"] }] },
  });
  const { result: lessons } = useList<LessonRow>({
    resource: "lessons", pagination: { mode: "off" }, sorters: [{ field: "date", order: "asc" }],
    filters: [{ field: "classId", operator: "eq", value: classId }, { field: "status", operator: "ne", value: "deleted" }, { field: "lessonStatus", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "date", "numberWeek", "lessonStatus", { classroom: ["name"] }, { sessions: ["startTime", "endTime", "tutorIds"] }] },
  });
  const { result: enrolments } = useList<EnrolmentRow>({
    resource: "student_classes", pagination: { mode: "off" }, sorters: [{ field: "createdAt", order: "asc" }],
    filters: [{ field: "classId", operator: "eq", value: classId }, { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "status", "action", "lessonStartDate", "userId", { user: ["id", "fullName", "username"] }] },
  });
  const { result: transfers } = useList<TransferRow>({
    resource: "request_transfer_classes", pagination: { mode: "off" }, sorters: [{ field: "createdAt", order: "desc" }],
    filters: [{ operator: "or", value: [{ field: "fromClassId", operator: "eq", value: classId }, { field: "toClassId", operator: "eq", value: classId }] },
      { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "transferClassStatus", "lessonStartDate", "studentId", { student: ["fullName"] }, { fromClass: ["id", "name"] }, { toClass: ["id", "name"] }] },
  });
  const tutorNames = useTutorNames(cls?.tutorIds ?? []);
  const refresh = () => {
    for (const resource of ["classes", "lessons", "student_classes", "request_transfer_classes", "lessons_students"]) void invalidate({ resource, invalidates: ["all"] });
  };
  // The class's status is changed here (spec part 1 §4: new, open, closed); the data policy's update right on
  // classes decides who may, in the browser and on the server alike.
  const canEditClass = useCan({ resource: "classes", action: "edit", params: { id: classId } }).data?.can === true;
  const { mutate: updateClass, mutation: updatingClass } = useUpdate();
  const setClassStatus = (classStatus: string) =>
    updateClass(
      { resource: "classes", id: classId, values: { classStatus }, meta: { fields: ["id", "classStatus"] }, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          void toast.success(`Class status: ${CLASS_STATUS_LABELS[classStatus]}.`);
          refresh();
        },
        onError: (err) => void toast.error(rejectionMessage(err, "The change was not saved.")),
      },
    );
  const call = async (method: string, path: string, body: unknown, success: string) => {
    try {
      await api(method, path, body);
      void toast.success(success);
      refresh();
    } catch (err) {
      void toast.error(rejectionMessage(err, "The change was not saved."));
    }
  };
  if (query.isLoading || !cls) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  const lessonRows = lessons?.data ?? [];
  const enrolled = (enrolments?.data ?? []).filter((e) => (SEAT_STATUSES as readonly string[]).includes(e.status)).length;
  const availability = classAvailability({ classStatus: cls.classStatus, startDate: cls.startDate, today: todayInSingapore(), enrolled, classSize: cls.classSize });
  const time = (l: LessonRow) => l.sessions.map((s) => `${formatInSingapore(s.startTime, "HH:mm")}–${formatInSingapore(s.endTime, "HH:mm")}`).join(", ");

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={cls.name}
        extra={
          <Space>
            <HistoryDrawer table="classes" id={cls.id} />
            <Button onClick={() => navigate("/class/management")}>Back</Button>
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label="Class Code">{cls.classCode}</Descriptions.Item>
          <Descriptions.Item label="Programme">{cls.program?.name}</Descriptions.Item>
          <Descriptions.Item label="Type">{cls.programType?.code}</Descriptions.Item>
          <Descriptions.Item label="Tier">{cls.classTier}</Descriptions.Item>
          <Descriptions.Item label="Category">{enumLabel("classes", "classType", cls.classType)}</Descriptions.Item>
          <Descriptions.Item label="Status">
            {canEditClass ? (
              <Select
                aria-label="Class Status"
                size="small"
                style={{ minWidth: 120 }}
                value={cls.classStatus}
                loading={updatingClass.isPending}
                disabled={updatingClass.isPending}
                options={Object.entries(CLASS_STATUS_LABELS).map(([value, label]) => ({ value, label }))}
                onChange={setClassStatus}
              />
            ) : (
              enumLabel("classes", "classStatus", cls.classStatus)
            )}
          </Descriptions.Item>
          <Descriptions.Item label="Availability"><Tag data-testid="availability">{availability}</Tag></Descriptions.Item>
          <Descriptions.Item label="Enrolled"><span data-testid="enrolled-count">{`${enrolled}/${cls.classSize}`}</span></Descriptions.Item>
          <Descriptions.Item label="Total Loop">{cls.totalLoop}</Descriptions.Item>
          <Descriptions.Item label="Tutors">{tutorNames(cls.tutorIds)}</Descriptions.Item>
          <Descriptions.Item label="Branch">{cls.branch?.name}</Descriptions.Item>
          <Descriptions.Item label="Period">{`${formatDay(cls.startDate)} – ${formatDay(cls.endDate)}`}</Descriptions.Item>
        </Descriptions>
      </Card>

      <Card title="Students" extra={<Button type="primary" onClick={() => setEnrolOpen(true)} disabled={cls.classStatus === "closed"}>Enrol Student</Button>}>
        <Table<EnrolmentRow>
          rowKey="id" size="small" pagination={false} dataSource={enrolments?.data ?? []} data-testid="class-students"
          columns={[
            { title: "Index", key: "i", width: 64, render: (_v, _r, i) => i + 1 },
            { title: "Student", key: "student", render: (_v, r) => <Link to={`/student-management/student/${r.userId}/view`}>{r.user?.fullName ?? r.user?.username ?? r.userId}</Link> },
            { title: "Status", key: "status", render: (_v, r) => <Tag color={STATUS_COLOURS[r.status]}>{enumLabel("student_classes", "status", r.status)}</Tag> },
            { title: "Lesson Start Date", dataIndex: "lessonStartDate", render: formatDay },
            { title: "Action", key: "action", render: (_v, r) => enumLabel("student_classes", "action", r.action) },
            { title: "", key: "actions", render: (_v, r) => (SEAT_STATUSES as readonly string[]).includes(r.status) && (
              <Space>
                <Button size="small" onClick={() => setTransferOf(r.userId)}>Transfer</Button>
                <Button size="small" onClick={() => setReplaceOf(r.userId)}>Replace</Button>
              </Space>
            ) },
          ]}
        />
      </Card>

      <Card title="Lessons" extra={<Button onClick={() => navigate(`/class/management/${classId}/view/lesson-create`)} disabled={cls.classStatus === "closed"}>Add Lesson</Button>}>
        <Table<LessonRow>
          rowKey="id" size="small" dataSource={lessonRows} pagination={{ pageSize: 20, showSizeChanger: false }} data-testid="class-lessons"
          columns={[
            { title: "Lesson", key: "n", width: 80, render: (_v, r) => r.numberWeek ?? "" },
            { title: "Date", dataIndex: "date", render: formatDay },
            { title: "Time", key: "time", render: (_v, r) => time(r) },
            { title: "Classroom", key: "room", render: (_v, r) => r.classroom?.name ?? "" },
            { title: "Status", key: "st", render: (_v, r) => (r.lessonStatus === "cancel" ? <Tag color="red">Cancelled</Tag> : <Tag color="green">Active</Tag>) },
            { title: "", key: "actions", render: (_v, r) => r.lessonStatus === "active" && (
              <Popconfirm title="Cancel this lesson?" okText="Yes" cancelText="No" onConfirm={() => call("PATCH", `/classes/lessons/${r.id}/cancel`, {}, "Lesson cancelled.")}>
                <Button size="small" danger>Cancel Lesson</Button>
              </Popconfirm>
            ) },
          ]}
        />
      </Card>

      <Card title="Transfer Requests">
        <Table<TransferRow>
          rowKey="id" size="small" pagination={false} dataSource={transfers?.data ?? []}
          columns={[
            { title: "Student", key: "s", render: (_v, r) => r.student?.fullName ?? "" },
            { title: "From", key: "f", render: (_v, r) => r.fromClass?.name ?? "" },
            { title: "To", key: "t", render: (_v, r) => r.toClass?.name ?? "" },
            { title: "Lesson Start Date", dataIndex: "lessonStartDate", render: formatDay },
            { title: "Status", key: "st", render: (_v, r) => <Tag>{enumLabel("request_transfer_classes", "transferClassStatus", r.transferClassStatus)}</Tag> },
            { title: "", key: "a", render: (_v, r) => r.transferClassStatus === "pending" && (
              <Space>
                {(["completed", "rejected", "cancelled"] as const).map((s) => (
                  <Popconfirm key={s} title={`Mark this transfer ${s}?`} okText="Yes" cancelText="No"
                    onConfirm={() => call("PATCH", `/classes/transfers/${r.id}`, { transferClassStatus: s }, `Transfer ${s}.`)}>
                    <Button size="small">{{ completed: "Complete", rejected: "Reject", cancelled: "Cancel" }[s]}</Button>
                  </Popconfirm>
                ))}
              </Space>
            ) },
          ]}
        />
      </Card>

      <EnrolDialog classId={classId} open={enrolOpen} onClose={(changed) => { setEnrolOpen(false); if (changed) refresh(); }} />
      <TransferDialog classId={classId} studentId={transferOf} onClose={(changed) => { setTransferOf(null); if (changed) refresh(); }} />
      <ReplaceDialog lessons={lessonRows} studentId={replaceOf} onClose={(changed) => { setReplaceOf(null); if (changed) refresh(); }} />
    </Space>
  );
}
