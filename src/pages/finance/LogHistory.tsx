/**
 * The Log History dialog (spec part 2 §2): a 'Log history' trigger (hidden on a log detail page) opening a
 * dialog titled Log History, width 1100, with the columns Index, User, Timestamp, Action and an eye link
 * opening the log's detail page in a new tab; page sizes 10, 20, 30. Written for any document's log table
 * (payment advices now, credit notes and refunds later).
 */
import { Button, ConfigProvider, Modal, Space, Table, Typography } from "antd";
import { EyeOutlined } from "@ant-design/icons";
import { useCan } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { gqlRequest } from "../../app/graphql.ts";
import { roleLabel } from "../../layout/roleLabels.ts";
import { logDate, logRolesText, logTime } from "../../domain/logActions.ts";

export const LOG_PAGE_SIZES = [10, 20, 30] as const;

export interface LogRow {
  id: string;
  type: string;
  valueBefore: Record<string, unknown> | null;
  valueAfter: Record<string, unknown> | null;
  createdAt: string;
  creator: { fullName: string | null; multipleRoles: string[] | null } | null;
}

export interface LogSource {
  /** The log table, e.g. payment_advice_logs. */
  table: string;
  /** Its column naming the document, e.g. paymentAdviceId. */
  parentField: string;
  /** The log detail page of a row. */
  detailPath: (logId: string) => string;
  /** The action text of a row. */
  actionText: (row: LogRow) => string;
}

const LOG_FIELDS = "id type valueBefore valueAfter createdAt creator { fullName multipleRoles }";

export async function fetchLogs(source: LogSource, parentId: string, page: number, pageSize: number): Promise<{ rows: LogRow[]; total: number }> {
  const data = await gqlRequest<Record<string, unknown>>(
    `query Logs($where: ${source.table}_bool_exp!, $limit: Int!, $offset: Int!) {
      rows: ${source.table}(where: $where, limit: $limit, offset: $offset, order_by: [{ createdAt: desc }, { id: desc }]) { ${LOG_FIELDS} }
      total: ${source.table}_aggregate(where: $where) { aggregate { count } }
    }`,
    { where: { [source.parentField]: { _eq: parentId } }, limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { rows: data.rows as LogRow[], total: (data.total as { aggregate: { count: number } }).aggregate.count };
}

export async function fetchLog(table: string, id: string): Promise<LogRow | null> {
  const data = await gqlRequest<{ row: LogRow | null }>(`query Log($id: uuid!) { row: ${table}_by_pk(id: $id) { ${LOG_FIELDS} } }`, { id });
  return data.row;
}

/** Full name over the role names (or --). */
export function LogUser({ creator }: { creator: LogRow["creator"] }) {
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text>{creator?.fullName ?? "--"}</Typography.Text>
      <Typography.Text type="secondary">{logRolesText((creator?.multipleRoles ?? []).map(roleLabel))}</Typography.Text>
    </Space>
  );
}

/** hh:mm A over DD/MM/YYYY. */
export function LogTimestamp({ at }: { at: string }) {
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text>{logTime(at)}</Typography.Text>
      <Typography.Text type="secondary">{logDate(at)}</Typography.Text>
    </Space>
  );
}

export function LogHistoryTable({ source, parentId }: { source: LogSource; parentId: string }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(LOG_PAGE_SIZES[0]);
  const { data, isFetching } = useQuery({
    queryKey: ["logs", source.table, parentId, page, pageSize],
    queryFn: () => fetchLogs(source, parentId, page, pageSize),
    retry: false,
  });
  // The log detail page is a finance page (spec part 2 §6): the eye shows only to who may open it.
  const { data: canOpen } = useCan({ resource: source.detailPath("id"), action: "view" });
  return (
    <Table<LogRow>
      rowKey="id"
      size="small"
      loading={isFetching}
      dataSource={data?.rows ?? []}
      data-testid="log-history"
      pagination={{
        current: page,
        pageSize,
        total: data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: LOG_PAGE_SIZES.map(String),
        onChange: (p, s) => {
          setPage(s === pageSize ? p : 1);
          setPageSize(s);
        },
      }}
      columns={[
        { title: "Index", key: "index", width: 72, render: (_v, _r, i) => (page - 1) * pageSize + i + 1 },
        { title: "User", key: "user", render: (_v, r) => <LogUser creator={r.creator} /> },
        { title: "Timestamp", key: "timestamp", render: (_v, r) => <LogTimestamp at={r.createdAt} /> },
        { title: "Action", key: "action", render: (_v, r) => source.actionText(r) },
        {
          title: "",
          key: "view",
          width: 56,
          render: (_v, r) =>
            canOpen?.can ? (
              <a href={source.detailPath(r.id)} target="_blank" rel="noopener noreferrer" aria-label="View log">
                <EyeOutlined />
              </a>
            ) : null,
        },
      ]}
    />
  );
}

/** The 'Log history' trigger and its dialog; renders nothing on a log detail page or before the document exists. */
export function LogHistory({ source, parentId, isLogDetail }: { source: LogSource; parentId: string | null | undefined; isLogDetail?: boolean }) {
  const [open, setOpen] = useState(false);
  if (isLogDetail || !parentId) return null;
  // The log is read by whoever reads the document, even where its form is read-only for them (issue 37 item 6).
  return (
    <ConfigProvider componentDisabled={false}>
      <Button type="link" onClick={() => setOpen(true)} style={{ paddingInline: 0 }}>
        Log history
      </Button>
      <Modal title="Log History" width={1100} open={open} onCancel={() => setOpen(false)} footer={null} destroyOnHidden>
        <LogHistoryTable source={source} parentId={parentId} />
      </Modal>
    </ConfigProvider>
  );
}
