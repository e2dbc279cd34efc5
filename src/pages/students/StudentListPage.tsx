/**
 * /student-management: students (role student, not deleted), newest first, 10 a page, with the spec's
 * counter, continuing index and quick jump; search by name or username (partial, any case), filters by
 * branch, curriculum, level, school, status and payment status, all kept in the URL; CSV export of every
 * matching row. A draft account offers to continue its wizard.
 */
import { Button, Card, Form, Input, Select, Space, Tag, message as antdMessage } from "antd";
import { DownloadOutlined, PlusOutlined } from "@ant-design/icons";
import { useTable } from "@refinedev/antd";
import { CanAccess, useDataProvider, type BaseRecord, type CrudFilter } from "@refinedev/core";
import { Link, useSearchParams } from "react-router";
import { useMemo, useState } from "react";
import { parse } from "graphql";
import type { TableColumnsType as ColumnsType } from "antd";
import { cappedCountVariables, countEstimateMeta, PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";
import { fetchAllRows } from "../../framework/pages/CsvExportButton.tsx";
import { RelationSelect } from "../../framework/inputs/RelationSelect.tsx";
import { formatPhone, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { csvFileName, toCsv } from "../../framework/csv.ts";
import { todayInSingapore } from "../../domain/dates.ts";
import { ACTIVE_ENROLMENT_STATUSES, SETTLED_PA_STATUSES, STUDENT_PAYMENT_STATUS_LABELS, UNPAID_PA_STATUSES } from "../../domain/students.ts";
import { USER_STATUS_OPTIONS } from "../users/roles.ts";
import { enumLabel } from "../../framework/enumLabel.ts";
import type { Resource } from "../../framework/types.ts";
import { FilterForm } from "../../framework/pages/FilterBar.tsx";
import { saveCsv } from "../../framework/download.ts";

const list = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(", ")}]`;
const OUTSTANDING = `{ status: { _neq: "deleted" }, paymentStatus: { _in: ${list(UNPAID_PA_STATUSES)} } }`;
const SETTLED = `{ status: { _neq: "deleted" }, paymentStatus: { _in: ${list(SETTLED_PA_STATUSES)} } }`;

/** Only the columns the list shows (column limits per role stay satisfied). */
export const STUDENT_LIST_QUERY = parse(`query StudentList($limit: Int, $offset: Int, $order_by: [users_order_by!], $where: users_bool_exp, $countLimit: Int) {
  users(limit: $limit, offset: $offset, order_by: $order_by, where: $where) {
    id fullName username status currentStep updatedAt firstParent
    branch { name } school { name } curriculum { abbreviation } level { abbreviation }
    studentClasses(where: { status: { _in: ${list(ACTIVE_ENROLMENT_STATUSES)} } }) { id class { name } }
    outstanding: paymentAdvices(where: ${OUTSTANDING}, limit: 1) { id }
    settled: paymentAdvices(where: ${SETTLED}, limit: 1) { id }
  }
  users_aggregate(where: $where, limit: $countLimit) { aggregate { count } }
}`);

type Row = BaseRecord & {
  fullName?: string; username?: string; status?: string; firstParent?: { firstName?: string; lastName?: string; phone?: Phone } | null;
  branch?: { name?: string } | null; school?: { name?: string } | null; curriculum?: { abbreviation?: string } | null; level?: { abbreviation?: string } | null;
  studentClasses?: { id: string; class?: { name?: string } | null }[]; outstanding?: unknown[]; settled?: unknown[];
};

/** The where of the payment-status filter: a payment advice still waiting for money, or only settled ones. */
function paymentWhere(payment: string | null): Record<string, unknown> | undefined {
  const outstanding = { paymentAdvices: { status: { _neq: "deleted" }, paymentStatus: { _in: UNPAID_PA_STATUSES } } };
  if (payment === "unpaid") return outstanding;
  if (payment === "paid") return { _not: outstanding, paymentAdvices: { status: { _neq: "deleted" }, paymentStatus: { _in: SETTLED_PA_STATUSES } } };
  return undefined;
}

const paymentStatusOf = (r: Row) => (r.outstanding?.length ? "unpaid" : r.settled?.length ? "paid" : null);
const parentName = (r: Row) => [r.firstParent?.firstName, r.firstParent?.lastName].filter(Boolean).join(" ");
const curriculumLevel = (r: Row) => [r.curriculum?.abbreviation, r.level?.abbreviation].filter(Boolean).join(" / ");
const classNames = (r: Row) => (r.studentClasses ?? []).map((c) => c.class?.name ?? "").filter(Boolean);

interface FilterValues {
  q?: string;
  branchId?: string | null;
  curriculumId?: string | null;
  levelId?: string | null;
  schoolId?: string | null;
  status?: string | null;
  payment?: string | null;
}
const COLUMN_FILTERS = ["branchId", "curriculumId", "levelId", "schoolId", "status"] as const;

/** Form values → Refine filters (the search is one "or" over name and username). */
function toFilters(v: FilterValues): CrudFilter[] {
  const q = v.q?.trim();
  return [
    { operator: "or", key: "search", value: q ? [{ field: "fullName", operator: "contains", value: q }, { field: "username", operator: "contains", value: q }] : [] },
    ...COLUMN_FILTERS.map((f): CrudFilter => ({ field: f, operator: "eq", value: v[f] || undefined })),
  ];
}

function fromFilters(filters: CrudFilter[], payment: string | null): FilterValues {
  const values: FilterValues = { payment };
  for (const f of filters) {
    if ("key" in f && f.key === "search" && Array.isArray(f.value)) values.q = (f.value[0] as { value?: string } | undefined)?.value;
    else if ("field" in f && (COLUMN_FILTERS as readonly string[]).includes(f.field)) (values as Record<string, unknown>)[f.field] = f.value;
  }
  return values;
}

export default function StudentListPage({ resource }: { resource?: Resource }) {
  const [params, setParams] = useSearchParams();
  const payment = params.get("payment");
  const meta = useMemo(() => {
    const where = paymentWhere(payment);
    return { gqlQuery: STUDENT_LIST_QUERY, gqlVariables: { ...cappedCountVariables(), ...(where ? { where: { _and: [where] } } : {}) }, ...countEstimateMeta };
  }, [payment]);
  const { tableProps, searchFormProps, filters, sorters, currentPage, pageSize, result } = useTable<Row, never, FilterValues>({
    resource: "users",
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    filters: {
      permanent: [
        { operator: "and", key: "students", value: [{ field: "type", operator: "eq", value: "student" }, { field: "status", operator: "ne", value: "deleted" }] },
      ],
    },
    onSearch: (values) => {
      const next = new URLSearchParams(window.location.search);
      if (values.payment) next.set("payment", values.payment);
      else next.delete("payment");
      setParams(next, { replace: true });
      return toFilters(values);
    },
    meta,
    queryOptions: { retry: false },
  });
  const initialValues = useMemo(() => fromFilters(filters, payment), []); // eslint-disable-line react-hooks/exhaustive-deps

  const columns: ColumnsType<Row> = [
    { title: "Name", key: "fullName", render: (_v, r) => <Link to={`/student-management/student/${r.id}/view`}>{r.fullName || r.username}</Link> },
    { title: "Username", dataIndex: "username" },
    { title: "School", key: "school", render: (_v, r) => r.school?.name ?? "" },
    { title: "Curriculum / Level", key: "curriculumLevel", render: (_v, r) => curriculumLevel(r) },
    { title: "Primary Parent", key: "parent", render: (_v, r) => parentName(r) },
    { title: "Parent Phone", key: "parentPhone", render: (_v, r) => formatPhone(r.firstParent?.phone) },
    { title: "Classes Enrolled", key: "classes", render: (_v, r) => classNames(r).map((n) => <Tag key={n}>{n}</Tag>) },
    { title: "Payment Status", key: "payment", render: (_v, r) => { const s = paymentStatusOf(r); return s ? <Tag color={s === "unpaid" ? "red" : "green"}>{STUDENT_PAYMENT_STATUS_LABELS[s]}</Tag> : ""; } },
    { title: "Status", key: "status", render: (_v, r) => enumLabel("users", "status", r.status) },
    {
      title: "Actions",
      key: "__actions",
      render: (_v, r) => (
        <Space>
          <Link to={`/student-management/student/${r.id}/view`}>View</Link>
          {r.status === "draft" ? (
            <Link to={`/student-management/update-account-information/${r.id}`}>Continue</Link>
          ) : (
            <Link to={`/student-management/edit-account/${r.id}`}>Edit</Link>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={resource?.label ?? "Students"}
      extra={
        <Space>
          <StudentCsvExport filters={filters} sorters={sorters} meta={meta} resource={resource} />
          <CanAccess resource="/student-management/create-account" action="list" fallback={null}>
            <Link to="/student-management/create-account">
              <Button type="primary" icon={<PlusOutlined />}>
                Create Account
              </Button>
            </Link>
          </CanAccess>
        </Space>
      }
    >
      <FilterForm formProps={searchFormProps} initialValues={initialValues}>
        <Form.Item name="q" label="Search" htmlFor="students-search">
          <Input id="students-search" allowClear placeholder="Search by student name or username" style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="branchId" label="Branch" htmlFor="students-branch">
          <RelationSelect id="students-branch" target="branches" style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item name="curriculumId" label="Curriculum" htmlFor="students-curriculum">
          <RelationSelect id="students-curriculum" target="curriculums" withCompany style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item name="levelId" label="Level" htmlFor="students-level">
          <RelationSelect id="students-level" target="levels" withCompany style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item name="schoolId" label="School" htmlFor="students-school">
          <RelationSelect id="students-school" target="schools" style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item name="status" label="Status" htmlFor="students-status">
          <Select id="students-status" allowClear style={{ width: 140 }} options={[...USER_STATUS_OPTIONS]} />
        </Form.Item>
        <Form.Item name="payment" label="Payment Status" htmlFor="students-payment">
          <Select id="students-payment" allowClear style={{ width: 140 }} options={Object.entries(STUDENT_PAYMENT_STATUS_LABELS).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
      </FilterForm>
      <PagedTable<Row> tableProps={tableProps} currentPage={currentPage} pageSize={pageSize} total={result.total ?? 0} cappedCount countEstimate={result.countEstimate as number | undefined} columns={columns} scroll={{ x: true }} />
    </Card>
  );
}

const CSV_HEADER = ["Index", "Name", "Username", "School", "Curriculum / Level", "Primary Parent", "Parent Phone", "Classes Enrolled", "Payment Status", "Status"];

/** Every matching student (all pages) as CSV, with the columns of the list. */
function StudentCsvExport({ filters, sorters, meta, resource }: { filters: CrudFilter[]; sorters: Parameters<typeof fetchAllRows>[3]; meta: Record<string, unknown>; resource?: Resource }) {
  const getDataProvider = useDataProvider();
  const [busy, setBusy] = useState(false);
  const [message, messageHolder] = antdMessage.useMessage();
  const run = async () => {
    if (!resource) return;
    setBusy(true);
    try {
      const rows = (await fetchAllRows(getDataProvider, resource, filters, sorters, () => undefined, meta)) as Row[];
      const csv = toCsv(
        CSV_HEADER,
        rows.map((r, i) => {
          const s = paymentStatusOf(r);
          return [String(i + 1), r.fullName ?? "", r.username ?? "", r.school?.name ?? "", curriculumLevel(r), parentName(r), formatPhone(r.firstParent?.phone),
            classNames(r).join("; "), s ? STUDENT_PAYMENT_STATUS_LABELS[s]! : "", enumLabel("users", "status", r.status)];
        }),
      );
      saveCsv(csv, csvFileName("students", todayInSingapore()));
    } catch (error) {
      if (!(error as { errors?: unknown })?.errors) void message.error("The export failed.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {messageHolder}
      <Button icon={<DownloadOutlined />} onClick={() => void run()} loading={busy}>
        Export CSV
      </Button>
    </>
  );
}
