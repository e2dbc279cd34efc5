/** /attendance/gantry-record: gantry entry records from GET /api/v2/users/gantry-records (date range, branch, student; paginated). */
import { useEffect, useState } from "react";
import { Button, Card, Form, Table } from "antd";
import { DateRangeInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { SearchOutlined } from "@ant-design/icons";
import type { Dayjs } from "dayjs";
import { RelationSelect } from "../../framework/components.ts";
import { recordCounter, PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { api, rejectionMessage } from "../../app/api.ts";
import { formatDay, formatInSingapore } from "../../domain/dates.ts";
import { enumLabel } from "../../framework/enumLabel.ts";

interface GantryRow { id: string; recordedAt: string; direction: string; cardNo: string | null; deviceId: string | null; student: { id: string; fullName: string | null; username: string } | null; branch: { name: string } | null; lesson: { date: string; className: string } | null }
interface Filters { dates?: [Dayjs, Dayjs]; branchId?: string; studentId?: string }

export default function GantryRecordPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ items: GantryRow[]; total: number }>({ items: [], total: 0 });
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    const q = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
    if (filters.dates) { q.set("from", filters.dates[0].format("YYYY-MM-DD")); q.set("to", filters.dates[1].format("YYYY-MM-DD")); }
    if (filters.branchId) q.set("branchId", filters.branchId);
    if (filters.studentId) q.set("studentId", filters.studentId);
    let live = true;
    setLoading(true);
    api<{ items: GantryRow[]; total: number }>("GET", `/users/gantry-records?${q}`)
      .then((res) => live && setData(res.data!))
      .catch((err) => void toast.error(rejectionMessage(err, "The gantry records could not be loaded.")))
      .finally(() => live && setLoading(false));
    return () => { live = false; };
  }, [filters, page]);
  return (
    <Card title="Gantry Record">
      <Form<Filters> layout="inline" style={{ marginBottom: 16, rowGap: 8 }} aria-label="Filters" onFinish={(v) => { setPage(1); setFilters(v); }}>
        <Form.Item name="dates" label="Date"><DateRangeInput /></Form.Item>
        <Form.Item name="branchId" label="Branch"><RelationSelect target="branches" labelField="name" id="gantry-branch" /></Form.Item>
        <Form.Item name="studentId" label="Student"><RelationSelect target="users" labelField="fullName" where={{ type: { _eq: "student" } }} id="gantry-student" /></Form.Item>
        <Form.Item><Button htmlType="submit" icon={<SearchOutlined />}>Search</Button></Form.Item>
      </Form>
      <span className="record-counter" data-testid="record-counter">{recordCounter(page, PAGE_SIZE, data.items.length, data.total)}</span>
      <Table<GantryRow>
        rowKey="id" size="small" loading={loading} dataSource={data.items}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, showQuickJumper: true, showSizeChanger: false, onChange: setPage }}
        columns={[
          { title: "Index", key: "i", width: 64, render: (_v, _r, i) => (page - 1) * PAGE_SIZE + i + 1 },
          { title: "Time", key: "t", render: (_v, r) => formatInSingapore(r.recordedAt, "HH:mm, DD/MM/YYYY") },
          { title: "Student", key: "s", render: (_v, r) => r.student?.fullName ?? r.student?.username ?? "" },
          { title: "Branch", key: "b", render: (_v, r) => r.branch?.name ?? "" },
          { title: "Direction", dataIndex: "direction", render: (v: string) => enumLabel("gantry_records", "direction", v) },
          { title: "Card No", dataIndex: "cardNo" },
          { title: "Device", dataIndex: "deviceId" },
          { title: "Lesson", key: "l", render: (_v, r) => (r.lesson ? `${r.lesson.className} (${formatDay(r.lesson.date)})` : "") },
        ]}
      />
    </Card>
  );
}
