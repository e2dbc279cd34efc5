/**
 * /finance and /finance/payment-advice: the payment advices, newest first, with the spec's list behaviours
 * (counter, continuing index, quick jump, filters and page in the URL, CSV export), the status pill
 * (Overdue derived) and, per row, its builder, its paper and its log history.
 */
import { Button, Card, Form, Select, Space } from "antd";
import { enumLabel } from "../../framework/enumLabel.ts";
import { DateRangeInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { DownloadOutlined, EditOutlined, EyeOutlined, FileTextOutlined, PlusOutlined } from "@ant-design/icons";
import { CanAccess, useDataProvider, type BaseRecord, type CrudFilter, type CrudSort } from "@refinedev/core";
import { useTable } from "@refinedev/antd";
import { Link } from "react-router";
import { useMemo, useState } from "react";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";
import { PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { RelationSelect } from "../../framework/inputs/RelationSelect.tsx";
import { csvFileName, toCsv } from "../../framework/csv.ts";
import { dayjs, DATE_FORMAT, DISPLAY_DATE_FORMAT, formatCalendarDay, todayInSingapore } from "../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../domain/money.ts";
import { PA_STATUSES, displayPaStatus, isPaEditable } from "../../domain/finance/paymentAdviceStatus.ts";
import { StudentPicker } from "../students/StudentPicker.tsx";
import { PaStatusPill } from "./PaStatusPill.tsx";
import { LogHistory } from "./LogHistory.tsx";
import { paDisplayName, paLogSource } from "./paLogSource.ts";
import { paListFilterValues, paListFilters, type PaListFilterValues } from "./paymentAdviceList.ts";
import { FilterForm } from "../../framework/pages/FilterBar.tsx";
import { saveCsv } from "../../framework/download.ts";

export const PA_LIST_FIELDS = [
  "id",
  "name",
  "paymentStatus",
  "issueDate",
  "dueDate",
  "paymentSummaryStatic",
  "updatedAt",
  { student: ["id", "fullName", "username"] },
  { company: ["id", "name"] },
  { branch: ["id", "name"] },
];

type PaRow = BaseRecord & {
  id: string;
  name: string | null;
  paymentStatus: string;
  issueDate: string | null;
  dueDate: string | null;
  paymentSummaryStatic: { totalPayable?: string } | null;
  student: { fullName: string | null; username: string } | null;
  company: { name: string } | null;
  branch: { name: string } | null;
};

const NOT_DELETED: CrudFilter = { key: "not-deleted", operator: "and", value: [{ field: "status", operator: "ne", value: "deleted" }] };

const day = (v: string | null) => formatCalendarDay(v, DISPLAY_DATE_FORMAT);
const totalPayable = (r: PaRow) => {
  const c = numericToCents(r.paymentSummaryStatic?.totalPayable ?? null);
  return c === null ? "" : formatMoney(c);
};

type FormValues = Omit<PaListFilterValues, "issueDate" | "dueDate"> & { issueDate?: [dayjs.Dayjs | null, dayjs.Dayjs | null] | null; dueDate?: [dayjs.Dayjs | null, dayjs.Dayjs | null] | null };
const toDays = (r: FormValues["issueDate"]): [string | null, string | null] | null => (r ? [r[0]?.format(DATE_FORMAT) ?? null, r[1]?.format(DATE_FORMAT) ?? null] : null);
const fromDays = (r: PaListFilterValues["issueDate"]) => (r ? ([r[0] ? dayjs(r[0], DATE_FORMAT) : null, r[1] ? dayjs(r[1], DATE_FORMAT) : null] as [dayjs.Dayjs | null, dayjs.Dayjs | null]) : null);

function ExportButton({ filters, sorters }: { filters: CrudFilter[]; sorters: CrudSort[] }) {
  const getDataProvider = useDataProvider();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const rows: PaRow[] = [];
      for (let page = 1; ; page++) {
        const { data, total } = await getDataProvider().getList<PaRow>({
          resource: "payment_advices",
          filters,
          sorters: [...sorters, { field: "id", order: "asc" }],
          pagination: { currentPage: page, pageSize: 100, mode: "server" },
          meta: { fields: PA_LIST_FIELDS },
        });
        rows.push(...data);
        if (data.length < 100 || rows.length >= total) break;
      }
      const csv = toCsv(
        ["Index", "PA No.", "Student", "Username", "Company", "Branch", "Issue Date", "Due Date", "Total Payable", "Status"],
        rows.map((r, i) => [
          String(i + 1),
          paDisplayName(r.name),
          r.student?.fullName ?? "",
          r.student?.username ?? "",
          r.company?.name ?? "",
          r.branch?.name ?? "",
          day(r.issueDate),
          day(r.dueDate),
          totalPayable(r),
          enumLabel("payment_advices", "paymentStatus", displayPaStatus(r.paymentStatus, r.dueDate)),
        ]),
      );
      saveCsv(csv, csvFileName("payment_advices", todayInSingapore()));
    } catch (err) {
      console.error("[pa export]", err);
      void toast.error("The export failed. Please try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
      Export
    </Button>
  );
}

export default function PaymentAdviceListPage() {
  const { tableProps, searchFormProps, filters, sorters, currentPage, pageSize, result } = useTable<PaRow, never, FormValues>({
    resource: "payment_advices",
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    filters: { permanent: [NOT_DELETED] },
    meta: { fields: PA_LIST_FIELDS },
    queryOptions: { retry: false },
    onSearch: (v) => paListFilters({ ...v, issueDate: toDays(v.issueDate), dueDate: toDays(v.dueDate) }),
  });
  const initial = useMemo(() => {
    const v = paListFilterValues(filters);
    return { ...v, issueDate: fromDays(v.issueDate), dueDate: fromDays(v.dueDate) };
    // Only on first render: afterwards the form owns its values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Card
      title="Payment Advice"
      extra={
        <Space>
          <ExportButton filters={filters} sorters={sorters} />
          <CanAccess resource="/finance/payment-advice/create" action="view" fallback={null}>
            <Link to="/finance/payment-advice/create">
              <Button type="primary" icon={<PlusOutlined />}>
                Create
              </Button>
            </Link>
          </CanAccess>
        </Space>
      }
    >
      <FilterForm formProps={searchFormProps} initialValues={initial}>
        <Form.Item name="companyId" label="Company">
          <RelationSelect target="companies" placeholder="Company" />
        </Form.Item>
        <Form.Item name="branchId" label="Branch">
          <RelationSelect target="branches" placeholder="Branch" />
        </Form.Item>
        <Form.Item name="status" label="Status">
          <Select allowClear placeholder="Status" style={{ minWidth: 140 }} options={PA_STATUSES.map((s) => ({ value: s, label: enumLabel("payment_advices", "paymentStatus", s) }))} />
        </Form.Item>
        <Form.Item name="issueDate" label="Issue Date">
          <DateRangeInput allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item name="dueDate" label="Due Date">
          <DateRangeInput allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item name="studentId" label="Student" style={{ minWidth: 320 }}>
          <StudentPicker showCard={false} />
        </Form.Item>
      </FilterForm>
      <PagedTable<PaRow>
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        scroll={{ x: true }}
        columns={[
          { title: "PA No.", key: "name", render: (_v, r) => paDisplayName(r.name) },
          { title: "Student", key: "student", render: (_v, r) => (r.student ? `${r.student.fullName ?? ""} (${r.student.username})` : "") },
          { title: "Company", key: "company", render: (_v, r) => r.company?.name ?? "" },
          { title: "Branch", key: "branch", render: (_v, r) => r.branch?.name ?? "" },
          { title: "Issue Date", key: "issueDate", render: (_v, r) => day(r.issueDate) },
          { title: "Due Date", key: "dueDate", render: (_v, r) => day(r.dueDate) },
          { title: "Total Payable", key: "totalPayable", align: "right", render: (_v, r) => totalPayable(r) },
          { title: "Status", key: "status", render: (_v, r) => <PaStatusPill paymentStatus={r.paymentStatus} dueDate={r.dueDate} /> },
          {
            title: "Actions",
            key: "actions",
            render: (_v, r) => (
              <Space size={0} wrap>
                {/* A PA that can no longer be edited opens read-only in the same screen. */}
                <Link to={`/finance/payment-advice/edit/${r.id}`} aria-label={isPaEditable(r.paymentStatus, 0) ? "Edit" : "View"}>
                  <Button type="link" icon={isPaEditable(r.paymentStatus, 0) ? <EditOutlined /> : <EyeOutlined />} />
                </Link>
                {r.paymentStatus !== "draft" && (
                  <Link to={`/finance/payment-advice/paper/${r.id}`} aria-label="Paper">
                    <Button type="link" icon={<FileTextOutlined />} />
                  </Link>
                )}
                <LogHistory source={paLogSource(r.name)} parentId={r.id} />
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
