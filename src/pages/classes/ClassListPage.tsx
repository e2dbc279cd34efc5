/** /class/management: classes with the availability label, type code, tier, seats, tutors and branch; filters; CSV export. */
import { useMemo, useState } from "react";
import { parse } from "graphql";
import { Link, useNavigate } from "react-router";
import { Button, Card, Form, Input, Select, Space, Tag } from "antd";
import { DownloadOutlined, PlusOutlined, SearchOutlined } from "@ant-design/icons";
import { useTable } from "@refinedev/antd";
import { CanAccess, useDataProvider, type BaseRecord, type CrudFilter } from "@refinedev/core";
import { PagedTable, PAGE_SIZE, RelationSelect } from "../../framework/components.ts";
import { toCsv, csvFileName } from "../../framework/csv.ts";
import { classAvailability, type ClassAvailability } from "../../domain/classAvailability.ts";
import { CLASS_STATUS_LABELS, CLASS_TIERS } from "../../domain/attendance.ts";
import { formatCalendarDay, todayInSingapore } from "../../domain/dates.ts";
import { CLASS_LIST_QUERY } from "./queries.ts";
import { useTutorNames } from "./useTutorNames.ts";
import { saveCsv } from "../../framework/download.ts";
import { enumLabel } from "../../framework/enumLabel.ts";

type ClassRow = BaseRecord & {
  id: string; name: string; classCode: string | null; classStatus: string; classType: string; classTier: string | null; classSize: number;
  startDate: string | null; tutorIds: string[]; program: { name: string } | null; programType: { code: string | null } | null;
  branch: { name: string } | null; enrolled: { aggregate: { count: number } };
};

const AVAILABILITY_COLOURS: Record<ClassAvailability, string> = {
  Closed: "default", Waiting: "blue", Expired: "orange", Available: "green", "Filling Fast": "gold", "Full Class": "red", Unknown: "default",
};
const gqlQuery = parse(CLASS_LIST_QUERY);
export const availabilityOf = (r: ClassRow, today: string) =>
  classAvailability({ classStatus: r.classStatus, startDate: r.startDate, today, enrolled: r.enrolled.aggregate.count, classSize: r.classSize });

interface Search { q?: string; classStatus?: string; classTier?: string; branchId?: string; programId?: string }

export default function ClassListPage() {
  const today = todayInSingapore();
  const navigate = useNavigate();
  const getDataProvider = useDataProvider();
  const [exporting, setExporting] = useState(false);
  const { tableProps, searchFormProps, currentPage, pageSize, result, filters, sorters } = useTable<ClassRow, never, Search>({
    resource: "classes",
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    filters: { permanent: [{ field: "status", operator: "ne", value: "deleted" }] },
    onSearch: (v): CrudFilter[] => [
      { field: "name", operator: "contains", value: v.q || undefined },
      { field: "classStatus", operator: "eq", value: v.classStatus || undefined },
      { field: "classTier", operator: "eq", value: v.classTier || undefined },
      { field: "branchId", operator: "eq", value: v.branchId || undefined },
      { field: "programId", operator: "eq", value: v.programId || undefined },
    ],
    meta: { gqlQuery },
    // a hand-written document has no generated subscription; the list refreshes on its own actions
    liveMode: "off",
    queryOptions: { retry: false },
  });
  const rows = (tableProps.dataSource ?? []) as ClassRow[];
  const tutorNames = useTutorNames(useMemo(() => rows.flatMap((r) => r.tutorIds ?? []), [rows]));

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all: ClassRow[] = [];
      for (let page = 1; ; page++) {
        const { data, total } = await getDataProvider().getList<ClassRow>({
          resource: "classes", filters, sorters: [...sorters, { field: "id", order: "asc" }],
          pagination: { currentPage: page, pageSize: 100, mode: "server" }, meta: { gqlQuery },
        });
        all.push(...data);
        if (data.length < 100 || all.length >= total) break;
      }
      const csv = toCsv(
        ["Class", "Class Code", "Programme", "Type", "Tier", "Category", "Status", "Availability", "Enrolled", "Class Size", "Branch", "Start Date"],
        all.map((r) => [r.name, r.classCode ?? "", r.program?.name ?? "", r.programType?.code ?? "", r.classTier ?? "", enumLabel("classes", "classType", r.classType),
          enumLabel("classes", "classStatus", r.classStatus), availabilityOf(r, today), String(r.enrolled.aggregate.count), String(r.classSize), r.branch?.name ?? "", r.startDate ?? ""]),
      );
      saveCsv(csv, csvFileName("classes", today));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title="Class Management"
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportCsv}>Export</Button>
          <CanAccess resource="classes" action="create">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate("/class/management/create")}>Create Class</Button>
          </CanAccess>
        </Space>
      }
    >
      <Form {...searchFormProps} layout="inline" style={{ marginBottom: 16, rowGap: 8 }} aria-label="Filters">
        <Form.Item name="q" label="Class"><Input allowClear placeholder="Class name" /></Form.Item>
        <Form.Item name="classStatus" label="Status">
          <Select allowClear style={{ width: 120 }} options={Object.entries(CLASS_STATUS_LABELS).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
        <Form.Item name="classTier" label="Tier">
          <Select allowClear style={{ width: 100 }} options={CLASS_TIERS.map((t) => ({ value: t, label: t }))} />
        </Form.Item>
        <Form.Item name="branchId" label="Branch"><RelationSelect target="branches" labelField="name" /></Form.Item>
        <Form.Item name="programId" label="Programme"><RelationSelect target="programs" labelField="name" /></Form.Item>
        <Form.Item><Button htmlType="submit" icon={<SearchOutlined />}>Search</Button></Form.Item>
      </Form>
      <PagedTable<ClassRow>
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        scroll={{ x: true }}
        columns={[
          { title: "Class", key: "name", render: (_v, r) => <Link to={`/class/management/${r.id}/view`}>{r.name}</Link> },
          { title: "Class Code", dataIndex: "classCode" },
          { title: "Programme", key: "program", render: (_v, r) => r.program?.name ?? "" },
          { title: "Type", key: "type", render: (_v, r) => r.programType?.code ?? "" },
          { title: "Tier", dataIndex: "classTier" },
          { title: "Category", key: "classType", render: (_v, r) => enumLabel("classes", "classType", r.classType) },
          { title: "Status", key: "classStatus", render: (_v, r) => enumLabel("classes", "classStatus", r.classStatus) },
          { title: "Availability", key: "availability", render: (_v, r) => { const a = availabilityOf(r, today); return <Tag color={AVAILABILITY_COLOURS[a]}>{a}</Tag>; } },
          { title: "Enrolled", key: "enrolled", render: (_v, r) => `${r.enrolled.aggregate.count}/${r.classSize}` },
          { title: "Tutors", key: "tutors", render: (_v, r) => tutorNames(r.tutorIds) },
          { title: "Branch", key: "branch", render: (_v, r) => r.branch?.name ?? "" },
          { title: "Start Date", key: "startDate", render: (_v, r) => formatCalendarDay(r.startDate, "DD/MM/YYYY") },
        ]}
      />
    </Card>
  );
}
