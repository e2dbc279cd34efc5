/**
 * /attendance/detail/{id}: mark each student of a lesson attended or not attended, with entry time and remarks,
 * or everyone present at once. Saving is one REST call (PUT /api/v2/classes/attendance/{lessonId}): the marks,
 * a backup attendance log per change and any three-times-absent notice in one transaction.
 */
import { useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button, Card, Descriptions, Input, Radio, Result, Space, Spin, Table, Tag, TimePicker } from "antd";
import { toast } from "../../framework/toast.ts";
import { CanAccess, useInvalidate, useList, useOne, useWarnAboutChange } from "@refinedev/core";
import { dayjs } from "../../domain/dates.ts";
import { api, rejectionMessage } from "../../app/api.ts";
import { ATTENDANCE_EXCLUDED_TYPES, ATTENDANCE_LABELS } from "../../domain/attendance.ts";
import { DISPLAY_TIMEZONE, formatDay, formatInSingapore, singaporeWallTimeToIso } from "../../domain/dates.ts";
import { sessionTimes } from "./AttendanceListPage.tsx";
import { useTutorNames } from "../classes/useTutorNames.ts";
import { enumLabel } from "../../framework/enumLabel.ts";

interface LessonHeader { id: string; date: string; lessonStatus: string; class: { id: string; name: string } | null; classroom: { name: string } | null; sessions: { startTime: string; endTime: string; tutorIds: string[] }[] }
interface StudentRow { id: string; type: string; status: string; hasAttended: boolean; entryTime: string | null; remarks: string | null; studentId: string; student: { id: string; fullName: string | null; username: string } | null }
interface Mark { hasAttended: boolean; entryTime: string | null; remarks: string | null }

const markable = (r: StudentRow) => r.status === "attended" || r.status === "not_attended";

export default function AttendanceDetailPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [marks, setMarks] = useState<Record<string, Mark>>({});
  /** Rows changed on this page since the last save: a live refresh does not overwrite them. */
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const { result: lesson, query } = useOne<LessonHeader>({
    resource: "lessons", id,
    meta: { fields: ["id", "date", "lessonStatus", { class: ["id", "name"] }, { classroom: ["name"] }, { sessions: ["startTime", "endTime", "tutorIds"] }] },
    queryOptions: { retry: false },
  });
  const { result: students } = useList<StudentRow>({
    resource: "lessons_students", pagination: { mode: "off" }, sorters: [{ field: "id", order: "asc" }],
    filters: [{ field: "lessonId", operator: "eq", value: id }, { field: "status", operator: "ne", value: "deleted" },
      { field: "type", operator: "nin", value: [...ATTENDANCE_EXCLUDED_TYPES] }],
    meta: { fields: ["id", "type", "status", "hasAttended", "entryTime", "remarks", "studentId", { student: ["id", "fullName", "username"] }] },
  });
  const rows = students?.data ?? [];
  // The saved marks are the starting point; a live change from another marker resets only rows not being edited.
  useEffect(() => {
    setMarks((current) => Object.fromEntries(rows.map((r) => [r.id, dirty.has(r.id) && current[r.id] ? current[r.id]! : saved(r)])));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [students?.data]);
  // marks not yet saved arm Refine's unsaved-changes warning (issue 37: marks were lost on Back)
  const { setWarnWhen } = useWarnAboutChange();
  useEffect(() => setWarnWhen(dirty.size > 0), [dirty.size, setWarnWhen]);
  const tutorNames = useTutorNames(lesson?.sessions.flatMap((s) => s.tutorIds) ?? []);

  if (query.isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!lesson) return <Result status="404" title="Lesson not found" extra={<Button onClick={() => navigate("/attendance/list")}>Back</Button>} />;

  const save = async (all?: boolean) => {
    const payload = rows.filter(markable).map((r) => {
      const m = marks[r.id] ?? saved(r);
      const hasAttended = all ? true : m.hasAttended;
      return { id: r.id, hasAttended, entryTime: hasAttended ? m.entryTime : null, remarks: m.remarks };
    });
    if (!payload.length) return;
    setSaving(true);
    try {
      const res = await api<{ changed: number; threeTimesAbsent: number }>("PUT", `/classes/attendance/${id}`, { students: payload });
      void toast.success(`Attendance saved (${res.data!.changed} changed).`);
      setMarks((m) => ({ ...m, ...Object.fromEntries(payload.map((p) => [p.id, { hasAttended: p.hasAttended, entryTime: p.entryTime ?? null, remarks: p.remarks }])) }));
      setDirty(new Set());
      void invalidate({ resource: "lessons_students", invalidates: ["list"] });
      void invalidate({ resource: "lessons", invalidates: ["list", "detail"], id });
    } catch (err) {
      void toast.error(rejectionMessage(err, "The attendance was not saved."));
    } finally {
      setSaving(false);
    }
  };
  const set = (rowId: string, change: Partial<Mark>) => {
    setDirty((d) => new Set(d).add(rowId));
    setMarks((m) => ({ ...m, [rowId]: { ...m[rowId]!, ...change } }));
  };
  const cancelled = lesson.lessonStatus !== "active";

  return (
    <Card
      title={`Attendance — ${lesson.class?.name ?? ""} (${formatDay(lesson.date)})`}
      extra={
        <Space>
          <Button onClick={() => navigate("/attendance/list")}>Back</Button>
          <Button onClick={() => save(true)} disabled={cancelled} loading={saving}>Mark all present</Button>
          <Button type="primary" onClick={() => save()} disabled={cancelled} loading={saving}>Save</Button>
        </Space>
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 4 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="Class">{lesson.class?.name}</Descriptions.Item>
        <Descriptions.Item label="Time">{sessionTimes(lesson.sessions)}</Descriptions.Item>
        <Descriptions.Item label="Classroom">{lesson.classroom?.name}</Descriptions.Item>
        <Descriptions.Item label="Tutors">{tutorNames([...new Set(lesson.sessions.flatMap((s) => s.tutorIds))])}</Descriptions.Item>
      </Descriptions>
      {cancelled && <Tag color="red">This lesson is cancelled.</Tag>}
      <Table<StudentRow>
        rowKey="id" size="small" pagination={false} dataSource={rows} data-testid="attendance-students"
        columns={[
          { title: "Index", key: "i", width: 64, render: (_v, _r, i) => i + 1 },
          { title: "Student", key: "s", render: (_v, r) => {
            const name = r.student?.fullName ?? r.student?.username ?? "";
            // a link only for those who may open the student's page (an attendance checker may not): no dead end
            return <CanAccess resource="/student-management/student/:id/view" action="show" fallback={name}><Link to={`/student-management/student/${r.studentId}/view`}>{name}</Link></CanAccess>;
          } },
          { title: "Type", dataIndex: "type", render: (v: string) => enumLabel("lessons_students", "type", v) },
          { title: "Attendance", key: "a", render: (_v, r) => markable(r) && marks[r.id] ? (
            <Radio.Group value={marks[r.id]!.hasAttended ? "attended" : "not_attended"} disabled={cancelled} aria-label={`Attendance of ${r.student?.fullName ?? ""}`}
              onChange={(e) => set(r.id, { hasAttended: e.target.value === "attended", entryTime: e.target.value === "attended" ? marks[r.id]!.entryTime ?? new Date().toISOString() : null })}>
              <Radio.Button value="attended">{ATTENDANCE_LABELS.attended}</Radio.Button>
              <Radio.Button value="not_attended">{ATTENDANCE_LABELS.not_attended}</Radio.Button>
            </Radio.Group>
          ) : <Tag>{enumLabel("lessons_students", "status", r.status)}</Tag> },
          { title: "Entry Time", key: "e", render: (_v, r) => markable(r) && marks[r.id]?.hasAttended ? (
            <TimePicker format="HH:mm" disabled={cancelled} value={marks[r.id]!.entryTime ? dayjs(marks[r.id]!.entryTime).tz(DISPLAY_TIMEZONE) : null}
              onChange={(t) => set(r.id, { entryTime: t ? singaporeWallTimeToIso(lesson.date, `${t.format("HH:mm")}:00`) : null })} />
          ) : r.entryTime ? formatInSingapore(r.entryTime, "HH:mm") : "" },
          { title: "Remarks", key: "r", render: (_v, r) => markable(r) && marks[r.id] ? (
            <Input value={marks[r.id]!.remarks ?? ""} disabled={cancelled} maxLength={1000} onChange={(e) => set(r.id, { remarks: e.target.value || null })} />
          ) : r.remarks },
        ]}
      />
    </Card>
  );
}

function saved(r: StudentRow): Mark {
  return { hasAttended: r.hasAttended, entryTime: r.entryTime, remarks: r.remarks };
}
