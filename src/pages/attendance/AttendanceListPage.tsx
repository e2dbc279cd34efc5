/**
 * /attendance/list: lessons with their attended counts (withdrawal, has_been_replaced and has_been_transferred
 * students not counted). Which lessons a user sees is the server's row rule (a tutor: the lessons they teach).
 */
import { useMemo } from "react";
import { parse } from "graphql";
import { Link } from "react-router";
import { Button, Card, Form, Input, Space, Tag } from "antd";
import { DateRangeInput } from "../../framework/inputs/DateInputs.tsx";
import { SearchOutlined } from "@ant-design/icons";
import { useTable } from "@refinedev/antd";
import type { BaseRecord, CrudFilter } from "@refinedev/core";
import type { Dayjs } from "dayjs";
import { PagedTable, PAGE_SIZE } from "../../framework/components.ts";
import { DATE_FORMAT, dayjs, formatDay, formatInSingapore, todayInSingapore } from "../../domain/dates.ts";
import { ATTENDANCE_LIST_QUERY } from "../classes/queries.ts";
import { useTutorNames } from "../classes/useTutorNames.ts";

export type LessonListRow = BaseRecord & {
  id: string; date: string; lessonStatus: string; numberWeek: number | null;
  class: { id: string; name: string; classCode: string | null } | null; classroom: { name: string } | null;
  sessions: { startTime: string; endTime: string; tutorIds: string[] }[];
  students: { aggregate: { count: number } }; attended: { aggregate: { count: number } };
};
const gqlQuery = parse(ATTENDANCE_LIST_QUERY);
export const sessionTimes = (sessions: { startTime: string; endTime: string }[]) =>
  sessions.map((s) => `${formatInSingapore(s.startTime, "HH:mm")}–${formatInSingapore(s.endTime, "HH:mm")}`).join(", ");

export default function AttendanceListPage() {
  // The list opens on today's lessons (issue 37): a tutor's work is today's, not the newest lesson planned.
  const today = todayInSingapore();
  const { tableProps, searchFormProps, currentPage, pageSize, result } = useTable<LessonListRow, never, { q?: string; dates?: [Dayjs, Dayjs] }>({
    resource: "lessons",
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "date", order: "desc" }, { field: "id", order: "asc" }] },
    filters: {
      initial: [{ field: "date", operator: "gte", value: today }, { field: "date", operator: "lte", value: today }],
      permanent: [{ field: "status", operator: "ne", value: "deleted" }, { field: "lessonStatus", operator: "ne", value: "deleted" }],
    },
    onSearch: (v): CrudFilter[] => [
      { field: "class.name", operator: "contains", value: v.q || undefined },
      { field: "date", operator: "gte", value: v.dates?.[0]?.format(DATE_FORMAT) },
      { field: "date", operator: "lte", value: v.dates?.[1]?.format(DATE_FORMAT) },
    ],
    meta: { gqlQuery },
    liveMode: "off",
    queryOptions: { retry: false },
  });
  const rows = (tableProps.dataSource ?? []) as LessonListRow[];
  const tutorNames = useTutorNames(useMemo(() => rows.flatMap((r) => r.sessions.flatMap((s) => s.tutorIds ?? [])), [rows]));
  return (
    <Card title="Attendance List">
      <Form {...searchFormProps} initialValues={{ dates: [dayjs(today, DATE_FORMAT), dayjs(today, DATE_FORMAT)] }} layout="inline" style={{ marginBottom: 16, rowGap: 8 }} aria-label="Filters">
        <Form.Item name="q" label="Class"><Input allowClear placeholder="Class name" /></Form.Item>
        <Form.Item name="dates" label="Date"><DateRangeInput /></Form.Item>
        <Form.Item><Button htmlType="submit" icon={<SearchOutlined />}>Search</Button></Form.Item>
      </Form>
      <PagedTable<LessonListRow>
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        scroll={{ x: true }}
        data-testid="attendance-list"
        columns={[
          { title: "Date", key: "date", render: (_v, r) => <Link to={`/attendance/detail/${r.id}`}>{formatDay(r.date)}</Link> },
          { title: "Time", key: "time", render: (_v, r) => sessionTimes(r.sessions) },
          { title: "Class", key: "class", render: (_v, r) => r.class?.name ?? "" },
          { title: "Lesson", key: "n", render: (_v, r) => r.numberWeek ?? "" },
          { title: "Classroom", key: "room", render: (_v, r) => r.classroom?.name ?? "" },
          { title: "Tutors", key: "tutors", render: (_v, r) => tutorNames([...new Set(r.sessions.flatMap((s) => s.tutorIds))]) },
          { title: "Attended", key: "attended", render: (_v, r) => <span data-testid="attended-count">{`${r.attended.aggregate.count}/${r.students.aggregate.count}`}</span> },
          { title: "Status", key: "st", render: (_v, r) => (r.lessonStatus === "cancel" ? <Tag color="red">Cancelled</Tag> : <Tag color="green">Active</Tag>) },
          { title: "", key: "open", render: (_v, r) => <Space><Link to={`/attendance/detail/${r.id}`}>Take attendance</Link></Space> },
        ]}
      />
    </Card>
  );
}
