/**
 * A record's History (issue 36): a button that opens a drawer of the audit trail's entries for the record,
 * newest first, ten a page — "field label: before → after", by whom, when (DD/MM/YYYY HH:mm, Singapore). The
 * server shows each reader only the columns their role reads. A creation lists the fields the record was made
 * with, a deletion the last values it had. Generated show/edit pages and the hand-written record pages mount it
 * with the record's table and id; the labels are the declared resource's of that table unless given.
 */
import { useEffect, useState, type ReactNode } from "react";
import { Button, ConfigProvider, Drawer, Empty, List, Pagination, Space, Spin, Typography } from "antd";
import type { Resource } from "../types.ts";
import { humanize } from "../defineResource.ts";
import { findResource } from "../registry.ts";
import { labelledValue } from "../enumLabel.ts";
import { api, rejectionMessage } from "../../app/api.ts";
import { auditChangeText, auditTime, AUDIT_ACTIONS, type AuditChange, type AuditOp } from "../../domain/auditHistory.ts";

interface HistoryEntry {
  id: string;
  at: string;
  op: AuditOp;
  userName: string | null;
  changes: AuditChange[];
}

interface HistoryPage {
  total: number;
  items: HistoryEntry[];
  /** Who deleted the record and when, when it is deleted. */
  deletion: { at: string; userName: string | null } | null;
}

const PAGE_SIZE = 10;

/** A resource's field labels by column, for "field label: before → after". */
export function fieldLabels(resource: Resource): Record<string, string> {
  return Object.fromEntries(resource.fieldList.map((f) => [f.name, f.label]));
}

/** A column's label in a table's history: the declared resource's field label, else the humanised name. */
export function columnLabeller(table: string, labels?: Readonly<Record<string, string>>): (column: string) => string {
  const resource = labels ? undefined : findResource(table);
  const known = labels ?? (resource ? fieldLabels(resource) : {});
  return (column) => known[column] ?? humanize(column);
}

export function HistoryDrawer({ table, id, labels }: { table: string; id: string; labels?: Readonly<Record<string, string>> }) {
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<HistoryPage>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!open) return;
    let current = true;
    setData(undefined);
    api<HistoryPage>("GET", `/history/${table}/${encodeURIComponent(id)}?page=${page}&pageSize=${PAGE_SIZE}`)
      .then((res) => current && setData(res.data))
      .catch((e: unknown) => current && setError(rejectionMessage(e, "The history could not be loaded.")));
    return () => {
      current = false;
    };
  }, [open, page, table, id]);
  const label = columnLabeller(table, labels);
  // Reading history never follows a read-only form around it (issue 37 item 6): whoever reads the record reads it.
  return (
    <ConfigProvider componentDisabled={false}>
      <Button onClick={() => setOpen(true)}>History</Button>
      <Drawer title="History" open={open} onClose={() => setOpen(false)} width={520} destroyOnHidden>
        {error ? (
          <Typography.Text type="danger">{error}</Typography.Text>
        ) : !data ? (
          <Spin />
        ) : data.items.length === 0 ? (
          <Empty description="No changes recorded yet." />
        ) : (
          <>
            <List
              dataSource={data.items}
              renderItem={(e) => (
                <List.Item key={e.id}>
                  <List.Item.Meta
                    title={`${AUDIT_ACTIONS[e.op]} by ${e.userName ?? "System"}, ${auditTime(e.at)}`}
                    description={e.changes.map((c) => <div key={c.column}>{auditChangeText(e.op, c, label, (column, v) => labelledValue(table, column, v))}</div>)}
                  />
                </List.Item>
              )}
            />
            <Pagination size="small" current={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} showSizeChanger={false} />
          </>
        )}
      </Drawer>
    </ConfigProvider>
  );
}

/**
 * A record page's answer when its record is gone: who deleted it and when, with its History, for a reader whose role
 * reads the table; otherwise that it does not exist (or the page's own words for that, `missing`).
 */
export function DeletedRecordNotice({ table, id, labels, missing = "This record does not exist." }: { table: string; id: string; labels?: Readonly<Record<string, string>>; missing?: ReactNode }) {
  const [deletion, setDeletion] = useState<HistoryPage["deletion"]>();
  useEffect(() => {
    let current = true;
    api<HistoryPage>("GET", `/history/${table}/${encodeURIComponent(id)}?pageSize=1`)
      .then((res) => current && setDeletion(res.data?.deletion ?? null))
      .catch(() => current && setDeletion(null));
    return () => {
      current = false;
    };
  }, [table, id]);
  if (deletion === undefined) return <Spin />;
  if (!deletion) return <>{missing}</>;
  return (
    <Space direction="vertical">
      <Typography.Text>{`This record was deleted by ${deletion.userName ?? "System"} on ${auditTime(deletion.at)}.`}</Typography.Text>
      <HistoryDrawer table={table} id={id} labels={labels} />
    </Space>
  );
}
