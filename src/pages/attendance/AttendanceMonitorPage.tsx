/**
 * /attendance/monitor: today's lessons across branches with their attendance, updated live (the list is a
 * GraphQL subscription: a tutor's mark changes lessons_students, which wakes it) without reloading the page.
 */
import { useMemo } from "react";
import { Link } from "react-router";
import { Card, Progress, Table, Tag } from "antd";
import { useList } from "@refinedev/core";
import { ATTENDANCE_EXCLUDED_TYPES } from "../../domain/attendance.ts";
import { todayInSingapore } from "../../domain/dates.ts";
import { sessionTimes } from "./AttendanceListPage.tsx";

interface MonitorRow {
  id: string; date: string; lessonStatus: string;
  class: { name: string; branch: { name: string } | null } | null; classroom: { name: string } | null;
  sessions: { startTime: string; endTime: string }[];
  lessonsStudents: { id: string; status: string; type: string }[];
}

const counted = (r: MonitorRow) => r.lessonsStudents.filter((s) => s.status !== "deleted" && !(ATTENDANCE_EXCLUDED_TYPES as readonly string[]).includes(s.type));

export default function AttendanceMonitorPage() {
  const today = todayInSingapore();
  const { result, query } = useList<MonitorRow>({
    resource: "lessons",
    pagination: { mode: "off" },
    sorters: [{ field: "id", order: "asc" }],
    filters: [{ field: "date", operator: "eq", value: today }, { field: "status", operator: "ne", value: "deleted" }, { field: "lessonStatus", operator: "eq", value: "active" }],
    meta: { fields: ["id", "date", "lessonStatus", { class: ["name", { branch: ["name"] }] }, { classroom: ["name"] }, { sessions: ["startTime", "endTime"] },
      { lessonsStudents: ["id", "status", "type"] }] },
    liveMode: "auto",
  });
  const rows = useMemo(() => [...(result?.data ?? [])].sort((a, b) => (a.sessions[0]?.startTime ?? "").localeCompare(b.sessions[0]?.startTime ?? "")), [result?.data]);
  return (
    <Card title={`Attendance Monitor — ${today}`}>
      <Table<MonitorRow>
        rowKey="id" size="small" loading={query.isLoading} dataSource={rows} pagination={false} data-testid="attendance-monitor"
        columns={[
          { title: "Index", key: "i", width: 64, render: (_v, _r, i) => i + 1 },
          { title: "Time", key: "t", render: (_v, r) => sessionTimes(r.sessions) },
          { title: "Branch", key: "b", render: (_v, r) => r.class?.branch?.name ?? "" },
          { title: "Class", key: "c", render: (_v, r) => <Link to={`/attendance/detail/${r.id}`}>{r.class?.name ?? ""}</Link> },
          { title: "Classroom", key: "room", render: (_v, r) => r.classroom?.name ?? "" },
          { title: "Attended", key: "a", render: (_v, r) => {
            const all = counted(r);
            const attended = all.filter((s) => s.status === "attended").length;
            return <span data-testid={`monitor-attended-${r.id}`}>{`${attended}/${all.length}`}</span>;
          } },
          { title: "Progress", key: "p", width: 200, render: (_v, r) => {
            const all = counted(r);
            const attended = all.filter((s) => s.status === "attended").length;
            return all.length ? <Progress percent={Math.round((attended * 100) / all.length)} size="small" /> : <Tag>No students</Tag>;
          } },
        ]}
      />
    </Card>
  );
}
