/**
 * The "Recipients" card of a sent broadcast or news item (detail pages): per recipient its log's columns
 * (statuses shown as tags), between the recipient and why it failed.
 */
import { Card, Tag, Typography } from "antd";
import { useTable } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";
import { enumLabel } from "../../framework/enumLabel.ts";

const COLOURS: Record<string, string> = { sent: "green", queued: "blue", pending: "blue", failed: "red" };
/** A status as a coloured tag with its label (the stored value's label in `table`.`field`). */
export const statusTag = (v: unknown, table = "", field = "") =>
  v ? <Tag color={COLOURS[String(v)] ?? "default"}>{enumLabel(table, field, v)}</Tag> : <Typography.Text type="secondary">—</Typography.Text>;

type LogColumn = { title: string; field: string; status?: boolean };

export function SentLogs({ table, parentField, parentId, columns: own }: { table: string; parentField: string; parentId: string; columns: LogColumn[] }) {
  const columns: LogColumn[] = [{ title: "Recipient", field: "recipient" }, ...own, { title: "Failure Reason", field: "failureReason" }];
  const { tableProps, currentPage, pageSize, result } = useTable<BaseRecord & Record<string, unknown>>({
    resource: table,
    syncWithLocation: false,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    filters: { permanent: [{ field: parentField, operator: "eq", value: parentId }, { field: "status", operator: "ne", value: "deleted" }] },
    meta: { fields: ["id", "createdAt", ...columns.map((c) => c.field).filter((f) => f !== "recipient"), { recipient: ["id", "fullName", "username", "email"] }] },
    queryOptions: { retry: false },
  });
  return (
    <Card title="Recipients">
      <PagedTable
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        counterTestId="logs-counter"
        size="small"
        data-testid="sent-logs"
        columns={[
          ...columns.map((c) => ({
            title: c.title,
            key: c.field,
            render: (_v: unknown, r: Record<string, unknown>) => {
              if (c.field === "recipient") {
                const u = r.recipient as { fullName?: string; username?: string } | null;
                return u ? `${u.fullName ?? ""} (${u.username ?? ""})` : String(r.email ?? "");
              }
              return c.status ? statusTag(r[c.field], table, c.field) : String(r[c.field] ?? "");
            },
          })),
        ]}
      />
    </Card>
  );
}
