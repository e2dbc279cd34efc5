/**
 * The read-only lists of a student's view page, one per tab: enrolments, attendance, payment advices,
 * invoices and receipts, credit notes, refunds and deposits. Each queries its own table for the student
 * (only the columns it shows) and links to the record's own screen.
 */
import type { ReactNode } from "react";
import { Tag } from "antd";
import { useTable } from "@refinedev/antd";
import type { BaseRecord, CrudSort } from "@refinedev/core";
import { Link } from "react-router";
import type { TableColumnsType as ColumnsType } from "antd";
import { PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";
import { enumLabel } from "../../framework/enumLabel.ts";
import { formatCalendarDay, formatTimeDate, DISPLAY_DATE_FORMAT } from "../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../domain/money.ts";
import { enrolmentStatusLabel } from "../../domain/students.ts";

type Row = BaseRecord & Record<string, any>;

interface RecordListProps {
  table: string;
  /** The column holding the student's id. */
  studentField: string;
  studentId: string;
  fields: (string | Record<string, unknown>)[];
  columns: ColumnsType<Row>;
  sort: CrudSort;
  /** Tables with soft deletion hide deleted rows. */
  softDelete?: boolean;
  label: string;
}

function StudentRecordList({ table, studentField, studentId, fields, columns, sort, softDelete = true, label }: RecordListProps) {
  const { tableProps, currentPage, pageSize, result } = useTable<Row, never>({
    resource: table,
    syncWithLocation: false,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [sort] },
    filters: {
      permanent: [
        { field: studentField, operator: "eq", value: studentId },
        ...(softDelete ? [{ field: "status", operator: "ne" as const, value: "deleted" }] : []),
      ],
    },
    meta: { fields: ["id", ...fields] as never },
    queryOptions: { retry: false },
  });
  return <PagedTable<Row> tableProps={tableProps} currentPage={currentPage} pageSize={pageSize} total={result.total ?? 0} columns={columns} counterTestId={`${table}-counter`} aria-label={label} />;
}

const day = (v: unknown) => formatCalendarDay(v as string | null, DISPLAY_DATE_FORMAT);
const money = (v: unknown) => formatMoney(numericToCents(v as string | number | null) ?? 0);
/** An enum column shown through its resource's declared labels (the one label table of each enum). */
const declared = (table: string, field: string) => (v: unknown) => enumLabel(table, field, v);
const totalOf = (summary: unknown) => money((summary as { total?: unknown; totalPayable?: unknown } | null)?.totalPayable ?? (summary as { total?: unknown } | null)?.total ?? 0);

export interface StudentTab {
  key: string;
  label: string;
  children: (studentId: string) => ReactNode;
}

export const STUDENT_RECORD_TABS: readonly StudentTab[] = [
  {
    key: "classes",
    label: "Classes",
    children: (id) => (
      <StudentRecordList
        label="Classes"
        table="student_classes"
        studentField="userId"
        studentId={id}
        sort={{ field: "updatedAt", order: "desc" }}
        fields={["classId", "status", "type", "lessonStartDate", "endDate", { class: ["name", "classCode"] }]}
        columns={[
          { title: "Class", key: "class", render: (_v, r) => <Link to={`/class/management/${r.classId}/view`}>{r.class?.name ?? r.classId}</Link> },
          { title: "Enrolment Status", dataIndex: "status", render: (v) => <Tag>{enrolmentStatusLabel(v)}</Tag> },
          { title: "Kind", dataIndex: "type", render: declared("student_classes", "type") },
          { title: "Lesson Start Date", dataIndex: "lessonStartDate", render: day },
          { title: "End Date", dataIndex: "endDate", render: day },
        ]}
      />
    ),
  },
  {
    key: "attendance",
    label: "Attendance",
    children: (id) => (
      <StudentRecordList
        label="Attendance"
        table="lessons_students"
        studentField="studentId"
        studentId={id}
        sort={{ field: "lesson.date", order: "desc" }}
        fields={["status", "type", "entryTime", "remarks", { lesson: ["date", "classId", { class: ["name"] }] }]}
        columns={[
          { title: "Lesson Date", key: "date", render: (_v, r) => day(r.lesson?.date) },
          { title: "Class", key: "class", render: (_v, r) => (r.lesson ? <Link to={`/class/management/${r.lesson.classId}/view`}>{r.lesson.class?.name}</Link> : "") },
          { title: "Attendance", dataIndex: "status", render: declared("lessons_students", "status") },
          { title: "Entry Time", dataIndex: "entryTime", render: (v) => (v ? formatTimeDate(v) : "") },
          { title: "Remarks", dataIndex: "remarks" },
        ]}
      />
    ),
  },
  {
    key: "payment-advices",
    label: "Payment Advices",
    children: (id) => (
      <StudentRecordList
        label="Payment Advices"
        table="payment_advices"
        studentField="studentId"
        studentId={id}
        sort={{ field: "updatedAt", order: "desc" }}
        fields={["name", "paymentStatus", "issueDate", "dueDate", "paymentSummaryStatic"]}
        columns={[
          { title: "Payment Advice", key: "name", render: (_v, r) => <Link to={`/finance/payment-advice/edit/${r.id}`}>{r.name ?? "Draft"}</Link> },
          { title: "Status", dataIndex: "paymentStatus", render: declared("payment_advices", "paymentStatus") },
          { title: "Issue Date", dataIndex: "issueDate", render: day },
          { title: "Due Date", dataIndex: "dueDate", render: day },
          { title: "Total Payable", key: "total", render: (_v, r) => totalOf(r.paymentSummaryStatic) },
        ]}
      />
    ),
  },
  {
    key: "invoices",
    label: "Invoices",
    children: (id) => (
      <StudentRecordList
        label="Invoices"
        table="invoices"
        studentField="studentId"
        studentId={id}
        sort={{ field: "invoiceDate", order: "desc" }}
        fields={["name", "invoiceDate", "total", "paidAmount", "invoiceStatus", "paymentAdviceId"]}
        columns={[
          { title: "Invoice", key: "name", render: (_v, r) => <Link to={`/finance/invoice/${r.paymentAdviceId}/${r.id}`}>{r.name}</Link> },
          { title: "Date", dataIndex: "invoiceDate", render: day },
          { title: "Total", dataIndex: "total", render: money },
          { title: "Paid", dataIndex: "paidAmount", render: money },
          { title: "Status", dataIndex: "invoiceStatus", render: declared("invoices", "invoiceStatus") },
        ]}
      />
    ),
  },
  {
    key: "receipts",
    label: "Receipts",
    children: (id) => (
      <StudentRecordList
        label="Receipts"
        table="receipts"
        studentField="studentId"
        studentId={id}
        sort={{ field: "receiptDate", order: "desc" }}
        fields={["name", "receiptDate", "amount", "paymentMethod", "status", "invoiceId"]}
        columns={[
          { title: "Receipt", key: "name", render: (_v, r) => <Link to={`/finance/receipt/${r.invoiceId}/${r.id}`}>{r.name}</Link> },
          { title: "Date", dataIndex: "receiptDate", render: day },
          { title: "Amount", dataIndex: "amount", render: money },
          { title: "Payment Method", dataIndex: "paymentMethod", render: declared("receipts", "paymentMethod") },
          { title: "Status", dataIndex: "status", render: declared("receipts", "status") },
        ]}
      />
    ),
  },
  {
    key: "credit-notes",
    label: "Credit Notes",
    children: (id) => (
      <StudentRecordList
        label="Credit Notes"
        table="credit_notes"
        studentField="studentId"
        studentId={id}
        sort={{ field: "updatedAt", order: "desc" }}
        fields={["name", "type", "creditNoteStatus", "summary", "createdAt"]}
        columns={[
          { title: "Credit Note", key: "name", render: (_v, r) => <Link to={`/finance/credit-note/detail/${r.id}`}>{r.name ?? "Draft"}</Link> },
          { title: "Type", dataIndex: "type", render: declared("credit_notes", "type") },
          { title: "Status", dataIndex: "creditNoteStatus", render: declared("credit_notes", "creditNoteStatus") },
          { title: "Total", key: "total", render: (_v, r) => totalOf(r.summary) },
          { title: "Created", dataIndex: "createdAt", render: (v) => formatTimeDate(v) },
        ]}
      />
    ),
  },
  {
    key: "refunds",
    label: "Refunds",
    children: (id) => (
      <StudentRecordList
        label="Refunds"
        table="refunds"
        studentField="studentId"
        studentId={id}
        sort={{ field: "updatedAt", order: "desc" }}
        fields={["name", "refundStatus", "noticeDate", "summary"]}
        columns={[
          { title: "Refund", key: "name", render: (_v, r) => <Link to={`/finance/refund/${r.id}`}>{r.name ?? "Draft"}</Link> },
          { title: "Status", dataIndex: "refundStatus", render: declared("refunds", "refundStatus") },
          { title: "Notice Date", dataIndex: "noticeDate", render: day },
          { title: "Total", key: "total", render: (_v, r) => totalOf(r.summary) },
        ]}
      />
    ),
  },
  {
    key: "deposits",
    label: "Deposits",
    children: (id) => (
      <StudentRecordList
        label="Deposits"
        table="deposits"
        studentField="studentId"
        studentId={id}
        sort={{ field: "updatedAt", order: "desc" }}
        fields={["name", "amount", "depositStatus", "paymentAdviceId", { paymentAdvice: ["name"] }]}
        columns={[
          { title: "Deposit", dataIndex: "name" },
          { title: "Amount", dataIndex: "amount", render: money },
          { title: "Status", dataIndex: "depositStatus", render: declared("deposits", "depositStatus") },
          { title: "Payment Advice", key: "pa", render: (_v, r) => (r.paymentAdviceId ? <Link to={`/finance/payment-advice/edit/${r.paymentAdviceId}`}>{r.paymentAdvice?.name ?? "Draft"}</Link> : "") },
        ]}
      />
    ),
  },
];
