/**
 * The billing runs stored for a company (issue 39): the latest ones, each opening its summary as stored — issued,
 * skipped with reason, total billed, every student's outcome — so a run's summary outlives the page that made it.
 */
import { Button, Card, Modal, Space, Statistic, Table, Tag } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { api } from "../../../app/api.ts";
import { formatInSingapore } from "../../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../../domain/money.ts";
import type { BillingRunOutcome, BillingRunRecord } from "../../../domain/finance/billingRun.ts";

const money = (v: string) => formatMoney(numericToCents(v) ?? 0);
const when = (v: string) => formatInSingapore(v, "DD/MM/YYYY HH:mm");

function RunDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: run } = useQuery({ queryKey: ["billing-run", id], queryFn: async () => (await api<BillingRunRecord>("GET", `/finances/billing-runs/${id}`)).data!, retry: false });
  return (
    <Modal open title={run ? `Billing run of ${when(run.createdAt)}` : "Billing run"} onCancel={onClose} footer={null} width={900}>
      {run && (
        <Space direction="vertical" style={{ width: "100%" }}>
          <Space size="large">
            <Statistic title="Issued" value={run.issuedCount} />
            <Statistic title="Skipped" value={run.skippedCount} />
            <Statistic title="Total Billed" value={money(run.total)} />
          </Space>
          <Table<BillingRunOutcome>
            size="small"
            rowKey="studentId"
            dataSource={run.results ?? []}
            pagination={{ pageSize: 20, showSizeChanger: false }}
            columns={[
              { title: "Student", dataIndex: "studentName" },
              {
                title: "Outcome",
                key: "outcome",
                render: (_: unknown, r) =>
                  r.status === "issued" ? <Link to={`/finance/payment-advice/paper/${r.paymentAdviceId}`}>{r.name}</Link> : <Tag color="red">{`Skipped: ${r.reason}`}</Tag>,
              },
              { title: "Total", key: "total", align: "right" as const, render: (_: unknown, r) => (r.status === "issued" ? money(r.total) : "--") },
            ]}
          />
        </Space>
      )}
    </Modal>
  );
}

export function RecentRuns({ companyId }: { companyId: string | undefined }) {
  const [open, setOpen] = useState<string | null>(null);
  const { data } = useQuery({
    queryKey: ["billing-runs", companyId],
    queryFn: async () => (await api<{ runs: BillingRunRecord[] }>("GET", `/finances/billing-runs?companyId=${companyId}`)).data!.runs,
    enabled: Boolean(companyId),
    retry: false,
  });
  return (
    <Card size="small" title="Recent Runs">
      <Table<BillingRunRecord>
        size="small"
        rowKey="id"
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: "Date", dataIndex: "createdAt", render: when },
          { title: "By", dataIndex: "createdByName", render: (v: string | null) => v ?? "--" },
          { title: "Branch", dataIndex: "branchName", render: (v: string | null) => v ?? "--" },
          { title: "Terms", key: "terms", render: (_: unknown, r) => `${r.selection.year} ${r.selection.termNames.join(", ")}` },
          { title: "Issued", dataIndex: "issuedCount", align: "right" as const },
          { title: "Skipped", dataIndex: "skippedCount", align: "right" as const },
          { title: "Total", dataIndex: "total", align: "right" as const, render: money },
          { title: "", key: "view", render: (_: unknown, r) => <Button size="small" onClick={() => setOpen(r.id)}>View</Button> },
        ]}
      />
      {open && <RunDetail id={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}
