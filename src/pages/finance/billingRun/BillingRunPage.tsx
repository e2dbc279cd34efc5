/**
 * /finance/billing-run (issue 39): bill a branch's term in one run. Choose company, branch, academic year and
 * term(s), optionally classes or programmes, and the due date; the preview lists one payment advice per student
 * (classes, terms, lessons, total) with warnings, or why the student is skipped. Untick exceptions and issue:
 * the students go to the server in batches, the bar showing progress, then a summary (issued, skipped with
 * reason, total billed) and "E-mail all" through the PA's e-mail call. Front desk may prepare (preview) only.
 */
import { Alert, Button, Card, DatePicker, Form, Progress, Select, Space, Statistic, Table, Tag, Typography } from "antd";
import { useCan } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Dayjs } from "dayjs";
import { Link } from "react-router";
import { api, rejectionMessage } from "../../../app/api.ts";
import { toast } from "../../../framework/toast.ts";
import { DATE_FORMAT, DISPLAY_DATE_FORMAT, dayjs, todayInSingapore } from "../../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../../domain/money.ts";
import type { EmailUnpaidReply } from "../../../domain/finance/paymentAdviceApi.ts";
import {
  BILLING_BATCH_SIZE,
  BILLING_RUN_MESSAGES,
  type BillingIssueReply,
  type BillingIssueResult,
  type BillingPreviewRow,
  type BillingRunOptions,
  type BillingRunSelection,
} from "../../../domain/finance/billingRun.ts";
import { useCompanyChoice } from "../useCompanyChoice.ts";
import { RecentRuns } from "./RecentRuns.tsx";

const money = (v: string | null) => (v === null ? "--" : formatMoney(numericToCents(v) ?? 0));
/** The PA e-mail call takes at most this many PAs at once. */
const EMAIL_BATCH = 200;

interface FormValues {
  branchId?: string;
  year?: number;
  termNames?: string[];
  classIds?: string[];
  programIds?: string[];
  dueDate?: Dayjs;
}

interface Run {
  total: number;
  results: BillingIssueResult[];
}

function RunSummary({ run, rows }: { run: Run; rows: BillingPreviewRow[] }) {
  const [sending, setSending] = useState(false);
  const [mailed, setMailed] = useState<EmailUnpaidReply | null>(null);
  const issued = run.results.filter((r): r is Extract<BillingIssueResult, { status: "issued" }> => r.status === "issued");
  const skipped = run.results.filter((r): r is Extract<BillingIssueResult, { status: "skipped" }> => r.status === "skipped");
  const billed = issued.reduce((sum, r) => sum + (numericToCents(r.total) ?? 0), 0);
  const nameOf = (id: string) => rows.find((r) => r.studentId === id)?.studentName ?? id;
  const done = run.results.length === run.total;
  const emailAll = async () => {
    setSending(true);
    try {
      const ids = issued.map((r) => r.paymentAdviceId);
      const reply: EmailUnpaidReply = { queued: [], skipped: [] };
      for (let i = 0; i < ids.length; i += EMAIL_BATCH) {
        const part = (await api<EmailUnpaidReply>("POST", "/finances/email/unpaid-pa-to-parents", { paymentAdviceIds: ids.slice(i, i + EMAIL_BATCH) })).data!;
        reply.queued.push(...part.queued);
        reply.skipped.push(...part.skipped);
      }
      setMailed(reply);
    } catch (err) {
      void toast.error(rejectionMessage(err, "The payment advices could not be e-mailed."));
    } finally {
      setSending(false);
    }
  };
  return (
    <Card size="small" title="Billing run">
      <Progress percent={run.total ? Math.round((run.results.length / run.total) * 100) : 100} aria-label="Billing run progress" />
      <Typography.Text>
        {run.results.length} of {run.total} students done
      </Typography.Text>
      {done && (
        <Space direction="vertical" style={{ width: "100%", marginTop: 12 }}>
          <Space size="large">
            <Statistic title="Issued" value={issued.length} />
            <Statistic title="Skipped" value={skipped.length} />
            <Statistic title="Total billed" value={formatMoney(billed)} />
          </Space>
          {skipped.length > 0 && (
            <Alert type="warning" showIcon message="Skipped" description={skipped.map((r) => <div key={r.studentId}>{`${nameOf(r.studentId)}: ${r.reason}`}</div>)} />
          )}
          {issued.length > 0 && (
            <Space>
              <Button onClick={() => void emailAll()} loading={sending} disabled={Boolean(mailed)}>
                E-mail all
              </Button>
              {mailed && <Typography.Text>{`${mailed.queued.length} e-mailed, ${mailed.skipped.length} not e-mailed (no parent e-mail).`}</Typography.Text>}
            </Space>
          )}
          <Table
            size="small"
            rowKey="studentId"
            dataSource={issued}
            pagination={{ pageSize: 20, showSizeChanger: false }}
            columns={[
              { title: "Payment Advice", key: "pa", render: (_: unknown, r: (typeof issued)[number]) => <Link to={`/finance/payment-advice/paper/${r.paymentAdviceId}`}>{r.name}</Link> },
              { title: "Student", key: "student", render: (_: unknown, r: (typeof issued)[number]) => nameOf(r.studentId) },
              { title: "Total", dataIndex: "total", align: "right" as const, render: money },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}

export default function BillingRunPage() {
  const canIssue = useCan({ resource: "api:/finances/billing-runs/issue", action: "POST" }).data?.can === true;
  const { companies, companyId, setCompanyId } = useCompanyChoice();
  const { data: options } = useQuery({
    queryKey: ["billing-run-options", companyId],
    queryFn: async () => (await api<BillingRunOptions>("GET", `/finances/billing-runs/options?companyId=${companyId}`)).data!,
    enabled: Boolean(companyId),
    retry: false,
  });
  const [form] = Form.useForm<FormValues>();
  const values = Form.useWatch([], form) ?? {};
  const [selection, setSelection] = useState<BillingRunSelection | null>(null);
  const [rows, setRows] = useState<BillingPreviewRow[]>([]);
  const [ticked, setTicked] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const queryClient = useQueryClient();

  const reset = () => (setSelection(null), setRows([]), setTicked([]), setRun(null), setError(null));
  const preview = async (v: FormValues) => {
    const sel: BillingRunSelection = {
      companyId: companyId!,
      branchId: v.branchId!,
      year: v.year!,
      termNames: v.termNames ?? [],
      classIds: v.classIds ?? [],
      programIds: v.programIds ?? [],
      dueDate: v.dueDate!.format(DATE_FORMAT),
    };
    reset();
    setLoading(true);
    try {
      const found = (await api<{ rows: BillingPreviewRow[] }>("POST", "/finances/billing-runs/preview", sel)).data!.rows;
      setSelection(sel);
      setRows(found);
      setTicked(found.filter((r) => !r.skipReason).map((r) => r.studentId));
    } catch (err) {
      setError(rejectionMessage(err, "The billing run could not be previewed."));
    } finally {
      setLoading(false);
    }
  };
  const issueAll = async () => {
    if (!selection) return;
    // the server issues in the order sent, so the PA numbers follow the list
    const ids = rows.filter((r) => ticked.includes(r.studentId)).map((r) => r.studentId);
    // the students not billed are stored on the run with their reason, sent with the first batch
    const leftOut = rows.filter((r) => !ticked.includes(r.studentId)).map((r) => ({ studentId: r.studentId, reason: r.skipReason ?? BILLING_RUN_MESSAGES.excluded }));
    const state: Run = { total: ids.length, results: [] };
    setRun({ ...state });
    let runId: string | undefined;
    try {
      for (let i = 0; i < ids.length; i += BILLING_BATCH_SIZE) {
        const body = { ...selection, studentIds: ids.slice(i, i + BILLING_BATCH_SIZE), runId, leftOut: i === 0 ? leftOut : [] };
        const reply = (await api<BillingIssueReply>("POST", "/finances/billing-runs/issue", body)).data!;
        runId = reply.runId;
        state.results.push(...reply.results);
        setRun({ ...state, results: [...state.results] });
      }
    } catch (err) {
      setError(rejectionMessage(err, "The billing run stopped; run it again to bill the students left."));
    } finally {
      await queryClient.invalidateQueries({ queryKey: ["billing-runs"] });
    }
  };

  const years = options?.years ?? [];
  const termNames = years.find((y) => y.year === values.year)?.termNames ?? [];
  const classes = (options?.classes ?? []).filter((c) => (!values.branchId || c.branchId === values.branchId) && (!values.year || c.year === values.year));
  const tickedTotal = rows.filter((r) => ticked.includes(r.studentId)).reduce((s, r) => s + (numericToCents(r.total) ?? 0), 0);
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        Billing Run
      </Typography.Title>
      <Card size="small">
        <Form form={form} aria-label="Billing run" layout="inline" onFinish={(v) => void preview(v)} initialValues={{ dueDate: dayjs(todayInSingapore()).add(14, "day") }} onValuesChange={() => !run && setSelection(null)}>
          <Form.Item label="Company" htmlFor="billing-company">
            <Select id="billing-company" style={{ minWidth: 240 }} value={companyId} onChange={(v) => (setCompanyId(v), form.resetFields(), reset())} options={companies.map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
          <Form.Item name="branchId" label="Branch" rules={[{ required: true, message: BILLING_RUN_MESSAGES.branch }]}>
            <Select style={{ minWidth: 200 }} options={(options?.branches ?? []).map((b) => ({ value: b.id, label: b.name }))} />
          </Form.Item>
          <Form.Item name="year" label="Academic Year" rules={[{ required: true, message: BILLING_RUN_MESSAGES.year }]}>
            <Select style={{ minWidth: 100 }} onChange={() => form.setFieldsValue({ termNames: [] })} options={years.map((y) => ({ value: y.year, label: String(y.year) }))} />
          </Form.Item>
          <Form.Item name="termNames" label="Terms" rules={[{ required: true, message: BILLING_RUN_MESSAGES.terms }]}>
            <Select mode="multiple" style={{ minWidth: 200 }} options={termNames.map((t) => ({ value: t, label: t }))} />
          </Form.Item>
          <Form.Item name="classIds" label="Classes">
            <Select mode="multiple" allowClear placeholder="All classes" optionFilterProp="label" style={{ minWidth: 220 }} options={classes.map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
          <Form.Item name="programIds" label="Programmes">
            <Select mode="multiple" allowClear placeholder="All programmes" optionFilterProp="label" style={{ minWidth: 220 }} options={(options?.programmes ?? []).map((p) => ({ value: p.id, label: p.name }))} />
          </Form.Item>
          <Form.Item name="dueDate" label="Due Date" rules={[{ required: true, message: BILLING_RUN_MESSAGES.dueDate }]}>
            <DatePicker format={DISPLAY_DATE_FORMAT} />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit" loading={loading} disabled={!companyId}>
              Preview
            </Button>
          </Form.Item>
        </Form>
      </Card>
      {error && <Alert type="error" showIcon message={error} />}
      {run ? (
        <RunSummary run={run} rows={rows} />
      ) : (
        selection && (
          <Card size="small">
            <Space style={{ marginBottom: 12 }}>
              {canIssue && (
                <Button type="primary" disabled={!ticked.length} onClick={() => void issueAll()}>
                  Issue {ticked.length} payment advice{ticked.length === 1 ? "" : "s"}
                </Button>
              )}
              <Typography.Text>{`${rows.length} students, ${ticked.length} ticked: ${formatMoney(tickedTotal)}`}</Typography.Text>
            </Space>
            <Table<BillingPreviewRow>
              size="small"
              rowKey="studentId"
              dataSource={rows}
              pagination={{ pageSize: 50, showSizeChanger: false }}
              rowSelection={{
                selectedRowKeys: ticked,
                onChange: (keys) => setTicked(keys as string[]),
                getCheckboxProps: (r) => ({ disabled: Boolean(r.skipReason), "aria-label": `Bill ${r.studentName}` }),
              }}
              columns={[
                { title: "Student", key: "student", render: (_: unknown, r) => `${r.studentName}${r.username ? ` (${r.username})` : ""}` },
                {
                  title: "Classes",
                  key: "classes",
                  render: (_: unknown, r) => r.classes.map((c) => <div key={c.classId}>{`${c.className}${c.terms.length ? ` · ${c.terms.join(", ")}` : ""} · ${c.lessons} lessons`}</div>),
                },
                { title: "Parent E-mail", dataIndex: "parentEmail", render: (v: string | null) => v ?? "--" },
                { title: "Total", dataIndex: "total", align: "right" as const, render: money },
                {
                  title: "Notes",
                  key: "notes",
                  render: (_: unknown, r) => (
                    <Space direction="vertical" size={0}>
                      {r.skipReason && <Tag color="red">{`Skipped: ${r.skipReason}`}</Tag>}
                      {r.warnings.map((w) => (
                        <Typography.Text key={w} type="warning">
                          {w}
                        </Typography.Text>
                      ))}
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
        )
      )}
      <RecentRuns companyId={companyId} />
    </Space>
  );
}
