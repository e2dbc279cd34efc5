/**
 * One page for every report (issue 17): its filters (a day or a period, company, branch), Run, the figures above
 * the table, a chart (lazy), the table with its totals row, and export to CSV and Excel. The figures are the
 * server's (src/domain/reports.ts); the page only shows them.
 */
import { Alert, Button, Card, Form, Progress, Select, Space, Statistic, Table, Typography } from "antd";
import { DateInput, DateRangeInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { DownloadOutlined, SearchOutlined } from "@ant-design/icons";
import { useList } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Suspense, lazy, useState } from "react";
import dayjs, { type Dayjs } from "dayjs";
import { api, rejectionMessage } from "../../app/api.ts";
import { DATE_FORMAT } from "../../domain/dates.ts";
import { reportCellText, type ReportDefinition, type ReportResult } from "../../domain/reports.ts";
import { allRows, dayText, exportCsv, exportXlsx, moneyText } from "./reportExport.ts";

const ReportChart = lazy(() => import("./ReportChart.tsx"));

/** Rows a table page shows. */
const PAGE_SIZE = 50;

interface Filters { date?: Dayjs; range?: [Dayjs, Dayjs]; companyId?: string; branchId?: string }

function queryOf(def: ReportDefinition, f: Filters): string {
  const q = new URLSearchParams();
  if (def.filters.includes("date") && f.date) q.set("date", f.date.format(DATE_FORMAT));
  if (def.filters.includes("range") && f.range) {
    q.set("from", f.range[0].format(DATE_FORMAT));
    q.set("to", f.range[1].format(DATE_FORMAT));
  }
  if (f.companyId) q.set("companyId", f.companyId);
  if (f.branchId) q.set("branchId", f.branchId);
  return q.toString();
}

function useOptions(resource: "companies" | "branches", enabled: boolean) {
  const { result } = useList<{ id: string; name: string }>({
    resource,
    pagination: { mode: "off" },
    sorters: [{ field: "name", order: "asc" }],
    filters: [{ field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "name"] },
    queryOptions: { enabled, retry: false },
  });
  return (result?.data ?? []).map((r) => ({ value: r.id, label: r.name }));
}

export function ReportPage({ def }: { def: ReportDefinition }) {
  const [form] = Form.useForm<Filters>();
  const initial: Filters = { date: dayjs(), range: [dayjs().startOf("month"), dayjs()] };
  const [query, setQuery] = useState(() => queryOf(def, initial));
  // the row-heavy reports are paged by the server (issue 38): the table asks for the page it shows
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [exported, setExported] = useState(0);
  const companies = useOptions("companies", def.filters.includes("company"));
  const branches = useOptions("branches", def.filters.includes("branch"));
  const { data, isFetching, error } = useQuery({
    queryKey: ["report", def.endpoint, query, page],
    queryFn: async () => (await api<ReportResult>("GET", `${def.endpoint}?${query}&page=${page}&pageSize=${PAGE_SIZE}`)).data!,
    placeholderData: (previous) => previous,
    retry: false,
  });

  const toExcel = async () => {
    if (!data) return;
    setExporting(true);
    setExported(0);
    try {
      await exportXlsx(def.title, await allRows(def.endpoint, query, data), setExported);
    } catch (e) {
      void toast.error(rejectionMessage(e, "The Excel file could not be made."));
    } finally {
      setExporting(false);
    }
  };

  const toCsv = async () => {
    try {
      await exportCsv(def.title, def.endpoint, query);
    } catch (e) {
      void toast.error(rejectionMessage(e, "The CSV file could not be made."));
    }
  };

  return (
    <Card
      title={def.title}
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} disabled={!data} onClick={() => void toCsv()}>
            Export CSV
          </Button>
          <Button icon={<DownloadOutlined />} disabled={!data} loading={exporting} onClick={() => void toExcel()}>
            Export Excel
          </Button>
          {exporting && <Progress percent={exported} size="small" style={{ width: 120 }} aria-label="Excel export progress" />}
        </Space>
      }
    >
      <Space direction="vertical" size="large" style={{ width: "100%" }}>
        <Form form={form} layout="inline" initialValues={initial} onFinish={(f) => {
            setQuery(queryOf(def, f));
            setPage(1);
          }} style={{ rowGap: 8 }} aria-label="Filters">
          {def.filters.includes("date") && (
            <Form.Item label="Date" name="date" rules={[{ required: true, message: "Please select a date." }]}>
              <DateInput allowClear={false} />
            </Form.Item>
          )}
          {def.filters.includes("range") && (
            <Form.Item label="Period" name="range" rules={[{ required: true, message: "Please select the period." }]}>
              <DateRangeInput allowClear={false} />
            </Form.Item>
          )}
          {def.filters.includes("company") && (
            <Form.Item label="Company" name="companyId">
              <Select allowClear placeholder="All companies" options={companies} style={{ minWidth: 180 }} />
            </Form.Item>
          )}
          {def.filters.includes("branch") && (
            <Form.Item label="Branch" name="branchId">
              <Select allowClear placeholder="All branches" options={branches} style={{ minWidth: 180 }} />
            </Form.Item>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={isFetching}>
              Run
            </Button>
          </Form.Item>
        </Form>
        {error ? <Alert type="error" message={rejectionMessage(error, "The report could not be run.")} /> : null}
        {data?.summary && data.summary.length > 0 && (
          <Space size="large" wrap data-testid="report-summary">
            {data.summary.map((s) => (
              <Statistic key={s.label} title={s.label} value={reportCellText(s.value, s.kind, moneyText, dayText)} />
            ))}
          </Space>
        )}
        {data?.chart && data.chart.data.length > 0 && (
          <Suspense fallback={<div style={{ height: 260 }} />}>
            <Typography.Text strong>{data.chart.title}</Typography.Text>
            <ReportChart chart={data.chart} />
          </Suspense>
        )}
        <Table
          size="small"
          rowKey={(_r, i) => String(i)}
          loading={isFetching}
          dataSource={data?.rows ?? []}
          pagination={
            data?.page
              ? { current: data.page.current, pageSize: data.page.pageSize, total: data.page.total, showSizeChanger: false, onChange: setPage }
              : { pageSize: PAGE_SIZE, showSizeChanger: false }
          }
          scroll={{ x: "max-content" }}
          sticky
          data-testid="report-table"
          columns={(data?.columns ?? []).map((c) => ({
            title: c.title,
            dataIndex: c.key,
            key: c.key,
            align: c.kind === "money" || c.kind === "number" ? ("right" as const) : undefined,
            // figures never wrap mid-number ("S$1,769./37", issue 37)
            onCell: () => ({ style: { whiteSpace: "nowrap" as const } }),
            render: (v: string | number | null) => reportCellText(v ?? null, c.kind, moneyText, dayText),
          }))}
          summary={() =>
            data?.totals ? (
              <Table.Summary fixed>
                <Table.Summary.Row>
                  {data.columns.map((c, i) => (
                    <Table.Summary.Cell key={c.key} index={i} align={c.kind === "money" || c.kind === "number" ? "right" : undefined}>
                      <Typography.Text strong data-testid={`report-total-${c.key}`} style={{ whiteSpace: "nowrap" }}>
                        {reportCellText(data.totals![c.key] ?? null, c.kind, moneyText, dayText)}
                      </Typography.Text>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Space>
    </Card>
  );
}
