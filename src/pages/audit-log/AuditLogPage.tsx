/**
 * The audit log (issue 36, admins): every change the audit trail recorded, newest first, filtered by user,
 * table, record and date range (Singapore days), with a CSV export of what the filters select (up to 10,000 rows).
 * Tables and columns read with the declared resources' labels where there are some.
 */
import { useEffect, useState } from "react";
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Typography } from "antd";
import { useSelect } from "@refinedev/antd";
import type { Dayjs } from "dayjs";
import { api, rejectionMessage } from "../../app/api.ts";
import { auditChangeText, auditTime, AUDIT_ACTIONS, type AuditChange, type AuditOp } from "../../domain/auditHistory.ts";
import { DATE_FORMAT, todayInSingapore } from "../../domain/dates.ts";
import { csvFileName } from "../../framework/csv.ts";
import { findResource } from "../../framework/registry.ts";
import { humanize } from "../../framework/defineResource.ts";
import { columnLabeller } from "../../framework/pages/HistoryDrawer.tsx";
import { labelledValue } from "../../framework/enumLabel.ts";
import { downloadFile } from "../../framework/download.ts";

interface Entry {
  id: string;
  at: string;
  op: AuditOp;
  tableName: string;
  rowId: string;
  userName: string | null;
  role: string | null;
  requestId: string | null;
  changes: AuditChange[];
}
interface Filters {
  userId?: string;
  table?: string;
  record?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

const EXPORT_ROWS = 10_000;

function query(f: Filters, page: number, pageSize: number): string {
  const q = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (f.userId) q.set("userId", f.userId);
  if (f.table) q.set("table", f.table);
  if (f.record?.trim()) q.set("record", f.record.trim());
  if (f.range?.[0]) q.set("from", f.range[0].format(DATE_FORMAT));
  if (f.range?.[1]) q.set("to", f.range[1].format(DATE_FORMAT));
  return `/audit-log?${q}`;
}

const changesText = (e: Entry) => e.changes.map((c) => auditChangeText(e.op, c, columnLabeller(e.tableName), (column, v) => labelledValue(e.tableName, column, v))).join("; ");
/** A table as people know it: the label of the resource declared for it, else its humanised name. */
const tableLabel = (table: string) => findResource(table)?.label ?? humanize(table);

export default function AuditLogPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; items: Entry[] }>();
  const [error, setError] = useState<string>();
  const [tables, setTables] = useState<{ value: string; label: string }[]>([]);
  useEffect(() => {
    api<string[]>("GET", "/audit-log/tables")
      .then((res) => setTables((res.data ?? []).map((t) => ({ value: t, label: tableLabel(t) })).sort((a, b) => a.label.localeCompare(b.label))))
      .catch((e: unknown) => setError(rejectionMessage(e, "The audit log could not be loaded.")));
  }, []);
  const { selectProps: users } = useSelect({ resource: "users", optionLabel: "username", optionValue: "id", filters: [{ field: "type", operator: "ne", value: "student" }] });
  useEffect(() => {
    let current = true;
    api<{ total: number; items: Entry[] }>("GET", query(filters, page, 10))
      .then((res) => current && (setData(res.data), setError(undefined)))
      .catch((e: unknown) => current && setError(rejectionMessage(e, "The audit log could not be loaded.")));
    return () => {
      current = false;
    };
  }, [filters, page]);

  const exportCsv = async () => {
    // the server writes it, every enum value through the one label table (src/domain/enumLabels.ts)
    await downloadFile(`${query(filters, 1, EXPORT_ROWS)}&format=csv`, csvFileName("audit-log", todayInSingapore())).catch((e: unknown) =>
      setError(rejectionMessage(e, "The audit log could not be exported.")),
    );
  };

  return (
    <Card title="Audit Log" extra={<Button onClick={() => void exportCsv()}>Export CSV</Button>}>
      <Form<Filters> layout="inline" onFinish={(f) => (setFilters(f), setPage(1))} style={{ marginBottom: 16 }} aria-label="Audit log filters">
        <Form.Item name="userId" label="User">
          <Select {...users} allowClear showSearch style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="table" label="Table">
          <Select options={tables} allowClear showSearch optionFilterProp="label" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="record" label="Record">
          <Input allowClear style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="range" label="Date">
          <DatePicker.RangePicker format="DD/MM/YYYY" />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">Search</Button>
          </Space>
        </Form.Item>
      </Form>
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
      <Table<Entry>
        rowKey="id"
        loading={!data && !error}
        dataSource={data?.items ?? []}
        pagination={{ current: page, pageSize: 10, total: data?.total ?? 0, showSizeChanger: false, onChange: setPage }}
        columns={[
          { title: "Time", render: (_, e) => auditTime(e.at) },
          { title: "User", render: (_, e) => e.userName ?? "System" },
          { title: "Table", render: (_, e) => tableLabel(e.tableName) },
          { title: "Record", dataIndex: "rowId" },
          { title: "Action", render: (_, e) => AUDIT_ACTIONS[e.op] },
          { title: "Changes", render: (_, e) => changesText(e) },
        ]}
      />
    </Card>
  );
}
