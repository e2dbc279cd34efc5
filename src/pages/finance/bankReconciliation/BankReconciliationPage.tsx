/**
 * /finance/bank-reconciliation (issue 35): import a company's bank statement, see each credit line matched to
 * the unpaid PA it names (Exact, Partial, Over; Unknown and Other company are not matched), match a line by
 * hand by searching unpaid PAs, and confirm the selected lines in bulk: each becomes a QR Code (PayNow)
 * payment with its receipt. Recorded lines are listed apart with their PA and receipt.
 */
import { Alert, Button, Card, Select, Space, Table, Tabs, Tag, Typography } from "antd";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { api, rejectionMessage } from "../../../app/api.ts";
import { toast } from "../../../framework/toast.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../../domain/money.ts";
import { BANK_OUTCOME_LABELS, type BankLineOutcome, type BankLineView } from "../../../domain/finance/bankStatement.ts";
import { StatementImport } from "./StatementImport.tsx";
import { useCompanyChoice } from "../useCompanyChoice.ts";

/** A PA found by the hand-matching search. */
interface PaPick {
  id: string;
  name: string;
  balanceDue: string;
  studentName: string | null;
}

type Line = BankLineView;

const OUTCOME_COLOURS: Record<BankLineOutcome, string> = { exact: "green", partial: "gold", over: "orange", unknown: "default", wrong_company: "red" };
const money = (v: string) => formatMoney(numericToCents(v) ?? 0);
const day = (v: string) => formatCalendarDay(v, DISPLAY_DATE_FORMAT);

/** Search unpaid PAs of the company by number or student: matching a line by hand. */
function PaSearch({ companyId, value, onChange }: { companyId: string; value: PaPick | undefined; onChange: (pa: PaPick | undefined) => void }) {
  const [text, setText] = useState("");
  const { data = [] } = useQuery({
    queryKey: ["bank-pa-search", companyId, text],
    queryFn: async () => (await api<PaPick[]>("GET", `/finances/bank-reconciliation/payment-advices?companyId=${companyId}&q=${encodeURIComponent(text)}`)).data ?? [],
    enabled: text.trim().length >= 2,
    retry: false,
  });
  const options = [...(value && !data.some((p) => p.id === value.id) ? [value] : []), ...data];
  return (
    <Select
      showSearch
      allowClear
      aria-label="Match by hand"
      placeholder="Search PA no. or student"
      style={{ width: 260 }}
      filterOption={false}
      onSearch={setText}
      value={value?.id}
      onChange={(id) => onChange(options.find((p) => p.id === id))}
      options={options.map((p) => ({ value: p.id, label: `${p.name} · ${p.studentName ?? ""} · ${money(p.balanceDue)}` }))}
    />
  );
}

export default function BankReconciliationPage() {
  const { companies, companyId, setCompanyId } = useCompanyChoice();
  const [tab, setTab] = useState<"open" | "recorded">("open");
  const [byHand, setByHand] = useState<Record<string, PaPick | undefined>>({});
  const [selected, setSelected] = useState<string[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const client = useQueryClient();
  const { data: lines = [], isFetching, error } = useQuery({
    queryKey: ["bank-lines", companyId, tab],
    queryFn: async () => (await api<Line[]>("GET", `/finances/bank-reconciliation/lines?companyId=${companyId}&status=${tab}`)).data ?? [],
    enabled: Boolean(companyId),
    retry: false,
  });
  const reload = () => void client.invalidateQueries({ queryKey: ["bank-lines"] });
  const paOf = (l: Line) => byHand[l.id] ?? l.match?.pa ?? undefined;

  const confirm = async () => {
    const matches = lines.filter((l) => selected.includes(l.id) && paOf(l)).map((l) => ({ lineId: l.id, paymentAdviceId: paOf(l)!.id }));
    setConfirming(true);
    try {
      const { results } = (await api<{ results: { lineId: string; receipt?: { name: string }; error?: string }[] }>("POST", "/finances/bank-reconciliation/confirm", { matches })).data!;
      const recorded = results.filter((r) => r.receipt).length;
      if (recorded) void toast.success(`${recorded} payment${recorded === 1 ? "" : "s"} recorded.`);
      setProblems(results.filter((r) => r.error).map((r) => `${day(lines.find((l) => l.id === r.lineId)?.lineDate ?? "")} ${money(lines.find((l) => l.id === r.lineId)?.amount ?? "0")}: ${r.error}`));
      setSelected([]);
      setByHand({});
      reload();
    } catch (err) {
      void toast.error(rejectionMessage(err, "The payments could not be recorded."));
    } finally {
      setConfirming(false);
    }
  };

  const common = [
    { title: "Date", dataIndex: "lineDate", render: day, width: 110 },
    { title: "Description", dataIndex: "description" },
    { title: "Reference", dataIndex: "reference" },
    { title: "Amount", dataIndex: "amount", render: money, align: "right" as const },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space>
        <Typography.Title level={4} style={{ margin: 0 }}>
          Bank Reconciliation
        </Typography.Title>
        <Select aria-label="Company" style={{ minWidth: 260 }} value={companyId} onChange={(v) => (setCompanyId(v), setSelected([]), setByHand({}))} options={companies.map((c) => ({ value: c.id, label: c.name }))} />
      </Space>
      <StatementImport companyId={companyId} onImported={reload} />
      {error ? <Alert type="error" message={rejectionMessage(error, "The bank lines could not be loaded.")} /> : null}
      {problems.length > 0 && <Alert type="warning" showIcon closable onClose={() => setProblems([])} message="Not recorded" description={problems.map((p) => <div key={p}>{p}</div>)} />}
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as "open" | "recorded")}
          items={[
            { key: "open", label: "To reconcile" },
            { key: "recorded", label: "Recorded" },
          ]}
        />
        {tab === "open" ? (
          <>
            <Button type="primary" disabled={!selected.length} loading={confirming} onClick={() => void confirm()} style={{ marginBottom: 12 }}>
              Confirm {selected.length} payment{selected.length === 1 ? "" : "s"}
            </Button>
            <Table<Line>
              size="small"
              rowKey="id"
              loading={isFetching}
              dataSource={lines}
              pagination={{ pageSize: 50, showSizeChanger: false }}
              rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), getCheckboxProps: (l) => ({ disabled: !paOf(l), "aria-label": `Select ${l.id}` }) }}
              columns={[
                ...common,
                {
                  title: "Match",
                  key: "match",
                  render: (_: unknown, l: Line) =>
                    l.match && (
                      <Space direction="vertical" size={0}>
                        <Tag color={OUTCOME_COLOURS[l.match.outcome]}>{BANK_OUTCOME_LABELS[l.match.outcome]}</Tag>
                        {l.match.reason && <Typography.Text type="secondary">{l.match.reason}</Typography.Text>}
                      </Space>
                    ),
                },
                {
                  title: "Payment Advice",
                  key: "pa",
                  render: (_: unknown, l: Line) =>
                    l.match?.pa ? (
                      <span>
                        <Link to={`/finance/payment-advice/paper/${l.match.pa.id}`}>{l.match.pa.name}</Link> · {l.match.pa.studentName} · due {money(l.match.pa.balanceDue)}
                      </span>
                    ) : (
                      companyId && <PaSearch companyId={companyId} value={byHand[l.id]} onChange={(pa) => setByHand((m) => ({ ...m, [l.id]: pa }))} />
                    ),
                },
              ]}
            />
          </>
        ) : (
          <Table<Line>
            size="small"
            rowKey="id"
            loading={isFetching}
            dataSource={lines}
            pagination={{ pageSize: 50, showSizeChanger: false }}
            columns={[
              ...common,
              { title: "Payment Advice", key: "pa", render: (_: unknown, l: Line) => l.paymentAdvice && <Link to={`/finance/payment-advice/paper/${l.paymentAdvice.id}`}>{l.paymentAdvice.name}</Link> },
              {
                title: "Receipt",
                key: "receipt",
                render: (_: unknown, l: Line) => l.receipt && (l.receipt.invoiceId ? <Link to={`/finance/receipt/${l.receipt.invoiceId}/${l.receipt.id}`}>{l.receipt.name}</Link> : l.receipt.name),
              },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
