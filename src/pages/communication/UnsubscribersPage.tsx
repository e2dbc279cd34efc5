/** /communication/unsubscribers: the students who unsubscribed (subscribe = false) from broadcasts and news. */
import { Card, Form, Input } from "antd";
import { useTable } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";
import { formatTimeDate } from "../../domain/dates.ts";
import { formatPhone, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { FilterForm } from "../../framework/pages/FilterBar.tsx";

type Row = BaseRecord & Record<string, unknown>;

export default function UnsubscribersPage() {
  const { tableProps, searchFormProps, currentPage, pageSize, result } = useTable<Row, never, { q?: string }>({
    resource: "users",
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    filters: {
      permanent: [
        { field: "type", operator: "eq", value: "student" },
        { field: "subscribe", operator: "eq", value: false },
        { field: "status", operator: "ne", value: "deleted" },
      ],
    },
    onSearch: (v) => [{ field: "fullName", operator: "contains", value: v.q || undefined }],
    meta: { fields: ["id", "username", "fullName", "email", "phone", "updatedAt", { branch: ["id", "name"] }] },
    queryOptions: { retry: false },
  });
  return (
    <Card title="Unsubscribers">
      <FilterForm formProps={searchFormProps}>
        <Form.Item name="q" label="Student Name">
          <Input allowClear placeholder="Student Name" />
        </Form.Item>
      </FilterForm>
      <PagedTable
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        columns={[
          { title: "Student", dataIndex: "fullName" },
          { title: "Username", dataIndex: "username" },
          { title: "Email", dataIndex: "email" },
          { title: "Phone", key: "phone", render: (_v, r) => formatPhone(r.phone as Phone | null) },
          { title: "Branch", key: "branch", render: (_v, r) => String((r.branch as { name?: string } | null)?.name ?? "") },
          { title: "Unsubscribed At", key: "updatedAt", render: (_v, r) => formatTimeDate(r.updatedAt as string) },
        ]}
      />
    </Card>
  );
}
