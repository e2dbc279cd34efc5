/**
 * A refund's screen: the header (reference, status, Log History), the refund classes (deduction, unit price,
 * last lesson date, left lessons and amount, owed lessons, other payments, GST, amount), the credit notes
 * and deposits included, the student's feedback and rating (sales), the payee and refund method (finance),
 * the totals. Each block is editable only at its step, for the roles holding that step's right (the
 * server's editStep and moves); the server prices and checks everything again.
 */
import { Alert, Button, Card, Checkbox, Col, Descriptions, Form, Input, InputNumber, Row, Select, Space, Spin, Table, Tag, Typography } from "antd";
import { enumLabel } from "../../framework/enumLabel.ts";
import { toast } from "../../framework/toast.ts";
import { confirmStep } from "../../framework/confirm.ts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { useEffect, useState } from "react";
import dayjs, { type Dayjs } from "dayjs";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { DATE_FORMAT } from "../../domain/dates.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../domain/money.ts";
import {
  RATING_LABELS,
  RATINGS,
  REFUND_MESSAGES,
  refundMoveErrors,
  REFUND_METHOD_LABELS,
  REFUND_METHODS,
  REFUND_STATUS_COLOURS,
  refundTotals,
  type Rating,
  type RefundDetail,
  type RefundMethod,
} from "../../domain/finance/refund.ts";
import { MoneyInput } from "../../framework/inputs/MoneyInput.tsx";
import { DateInput } from "../../framework/inputs/lazyInputs.tsx";
import { formatFinanceDate, formatMoneyValue } from "../../domain/formats.ts";
import { LogHistory } from "../finance/LogHistory.tsx";
import { AmountRows } from "../finance/builder/AmountRows.tsx";
import { refundLogSource } from "./logSources.ts";
import { HistoryDrawer } from "../../framework/pages/HistoryDrawer.tsx";
import { useFormEdits } from "../../framework/formEdits.ts";

const money = (v: string | null | undefined) => formatMoneyValue(v ?? "0");
const day = (v: string | null | undefined) => (v ? formatFinanceDate(v) : "--");

interface ClassValues {
  id: string;
  lastLessonDate?: Dayjs;
  oweLessonNo?: number;
  deduction?: Cents | null;
  receiptId?: string | null;
  otherPayments?: { name?: string; amount?: Cents | null }[];
}
interface FormValues {
  noticeDate?: Dayjs;
  reason?: string | null;
  classes?: ClassValues[];
  creditNoteIds?: string[];
  depositIds?: string[];
  feedback?: string;
  rating?: Rating | null;
  payeeName?: string;
  bankName?: string;
  accountNo?: string;
  contact?: string;
  refundMethod?: RefundMethod | null;
  reasonReject?: string | null;
}

/**
 * The summary as the form stands (the server's pricing code on the ticked credit notes and deposits and the
 * class lines being edited), so it follows each tick at once; the server prices it again on save.
 */
function liveSummary(r: RefundDetail, v: Pick<FormValues, "classes" | "creditNoteIds" | "depositIds">): NonNullable<RefundDetail["summary"]> {
  const cents = (x: string) => numericToCents(x) ?? 0;
  const classes = r.classes.map((c, i) => {
    const edit = v.classes?.[i];
    return {
      unitPrice: cents(c.unitPrice),
      leftLessonNo: c.leftLessonNo,
      oweLessonNo: Number(edit?.oweLessonNo ?? c.oweLessonNo) || 0,
      deduction: edit ? (edit.deduction ?? 0) : cents(c.deduction),
      otherPayments: edit?.otherPayments ? edit.otherPayments.map((p) => ({ name: p?.name ?? "", amount: p?.amount ?? 0 })) : c.otherPayments.map((p) => ({ name: p.name, amount: cents(p.amount) })),
      gstPercent: c.gstPercent,
    };
  });
  const ticked = (choices: Array<{ id: string; amount: string }>, ids: string[]) => choices.filter((c) => ids.includes(c.id)).map((c) => cents(c.amount));
  const t = refundTotals(classes, ticked(r.creditNoteChoices, v.creditNoteIds ?? r.creditNoteIds), ticked(r.depositChoices, v.depositIds ?? r.depositIds));
  return { classAmount: centsToNumeric(t.classAmount), creditNoteAmount: centsToNumeric(t.creditNoteAmount), depositAmount: centsToNumeric(t.depositAmount), total: centsToNumeric(t.total) };
}

export function useRefund(id: string | undefined) {
  return useQuery({ queryKey: ["refund", id], queryFn: async () => (await api<RefundDetail>("GET", `/refund/${id}`)).data!, enabled: Boolean(id), retry: false });
}

export function RefundStatusTag({ status }: { status: RefundDetail["refundStatus"] }) {
  return (
    <Tag color={REFUND_STATUS_COLOURS[status]} data-testid="refund-status">
      {enumLabel("refunds", "refundStatus", status)}
    </Tag>
  );
}

export function RefundView({ id }: { id: string }) {
  const client = useQueryClient();
  const { data: r, isLoading, error } = useRefund(id);
  const [form] = Form.useForm<FormValues>();
  const [busy, setBusy] = useState<string | null>(null);
  const step = r?.editStep ?? null;
  const edits = useFormEdits(form, { guard: Boolean(step) });
  const watchedClasses = Form.useWatch("classes", form) as ClassValues[] | undefined;
  const watchedCreditNotes = Form.useWatch("creditNoteIds", form) as string[] | undefined;
  const watchedDeposits = Form.useWatch("depositIds", form) as string[] | undefined;

  useEffect(() => {
    if (!r) return;
    form.setFieldsValue({
      noticeDate: r.noticeDate ? dayjs(r.noticeDate) : undefined,
      reason: r.reason,
      classes: r.classes.map((c) => ({ id: c.id, lastLessonDate: c.lastLessonDate ? dayjs(c.lastLessonDate) : undefined, oweLessonNo: c.oweLessonNo, deduction: numericToCents(c.deduction), receiptId: c.receiptId, otherPayments: c.otherPayments.map((p) => ({ name: p.name, amount: numericToCents(p.amount) })) })),
      creditNoteIds: r.creditNoteIds,
      depositIds: r.depositIds,
      feedback: r.studentFeedback?.feedback ?? "",
      rating: r.rating,
      payeeName: r.payeeDetails?.name ?? "",
      bankName: r.payeeDetails?.bankName ?? "",
      accountNo: r.payeeDetails?.accountNo ?? "",
      contact: r.payeeDetails?.contact ?? "",
      refundMethod: r.refundMethod,
      reasonReject: r.reasonReject,
    });
  }, [r, form]);

  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!r) return <Alert type="error" message={rejectionMessage(error, REFUND_MESSAGES.notFound)} />;

  const frontDesk = step === "complete-front-desk";
  const sales = step === "sales-step";
  const finance = step === "approve";
  const refresh = (next: RefundDetail) => client.setQueryData(["refund", id], next);

  const save = async (): Promise<RefundDetail> => {
    const v = form.getFieldsValue(true) as FormValues;
    const body: Record<string, unknown> = { updatedAt: r.updatedAt };
    if (frontDesk) {
      Object.assign(body, {
        reason: v.reason ?? null,
        noticeDate: v.noticeDate?.format(DATE_FORMAT),
        classes: (v.classes ?? []).map((c) => ({
          id: c.id,
          lastLessonDate: c.lastLessonDate?.format(DATE_FORMAT),
          oweLessonNo: Number(c.oweLessonNo ?? 0),
          deduction: centsToNumeric(c.deduction ?? 0),
          receiptId: c.receiptId ?? null,
          otherPayments: (c.otherPayments ?? []).map((p) => ({ name: p.name ?? "", amount: centsToNumeric(p.amount ?? 0) })),
        })),
        creditNoteIds: v.creditNoteIds ?? [],
        depositIds: v.depositIds ?? [],
      });
    }
    if (sales) Object.assign(body, { studentFeedback: { feedback: v.feedback ?? "" }, rating: v.rating ?? null });
    if (finance) {
      Object.assign(body, {
        payeeDetails: { name: v.payeeName ?? "", bankName: v.bankName ?? "", accountNo: v.accountNo ?? "", contact: v.contact ?? "" },
        refundMethod: v.refundMethod ?? null,
        creditNoteIds: v.creditNoteIds ?? [],
        depositIds: v.depositIds ?? [],
      });
    }
    const saved = (await api<RefundDetail>("PATCH", `/refund/${id}`, body)).data!;
    refresh(saved);
    edits.saved();
    return saved;
  };

  const fail = (e: unknown, fallback: string) => {
    void toast.error(rejectionMessage(e, fallback));
    const fields = rejectionFieldErrors(e).map((f) => ({ name: (f.name === "payeeDetails" ? "payeeName" : f.name === "studentFeedback" ? "feedback" : f.name) as keyof FormValues, errors: f.errors }));
    form.setFields(fields);
  };

  /** The move's fields as the page has them: the current step's from the form, the rest from the refund. */
  const moveFields = () => {
    const v = form.getFieldsValue(true) as FormValues;
    return {
      noticeDate: frontDesk ? v.noticeDate?.format(DATE_FORMAT) : r.noticeDate,
      lastLessonDates: frontDesk ? (v.classes ?? []).map((c) => c.lastLessonDate?.format(DATE_FORMAT)) : r.classes.map((c) => c.lastLessonDate),
      reason: frontDesk ? v.reason : r.reason,
      feedback: sales ? v.feedback : r.studentFeedback?.feedback,
      rating: sales ? v.rating : r.rating,
      reasonReject: v.reasonReject,
      payeeName: finance ? v.payeeName : r.payeeDetails?.name,
      refundMethod: finance ? v.refundMethod : r.refundMethod,
      // the total of what the page changed is priced by the server when it saves
      total: undefined,
    };
  };

  const run = async (label: string, work: () => Promise<unknown>, done: string) => {
    setBusy(label);
    try {
      await work();
      void toast.success(done);
      await client.invalidateQueries({ queryKey: ["logs", "refund_logs", id] });
    } catch (e) {
      fail(e, `${label} failed.`);
    } finally {
      setBusy(null);
    }
  };

  const moveTo = async (to: RefundDetail["refundStatus"], label: string) => {
    // the step's required fields first, so the confirmation opens only for a step the server will take
    const problems = refundMoveErrors(moveFields(), to);
    if (Object.keys(problems).length) return fail({ message: Object.values(problems)[0], errors: problems }, `${label} failed.`);
    if (!(await confirmStep({ title: `${label}?`, content: `The refund becomes ${enumLabel("refunds", "refundStatus", to)}.`, okText: label }))) return;
    await run(
      label,
      async () => {
        const current = step ? await save() : r;
        const rejecting = to === "rejected_by_sale" || to === "rejected_by_finance";
        const body = { status: to, updatedAt: current.updatedAt, ...(rejecting ? { reasonReject: form.getFieldValue("reasonReject") ?? null } : {}) };
        refresh((await api<RefundDetail>("PATCH", `/refund/${id}/change-refund-status`, body)).data!);
      },
      `${enumLabel("refunds", "refundStatus", to)}.`,
    );
  };

  const summary = step === "complete-front-desk" || step === "approve" ? liveSummary(r, { classes: watchedClasses, creditNoteIds: watchedCreditNotes, depositIds: watchedDeposits }) : r.summary;
  const rejectable = r.moves.some((m) => m.to === "rejected_by_sale" || m.to === "rejected_by_finance");
  return (
    <Form form={form} layout="vertical" disabled={Boolean(busy)} onValuesChange={edits.onValuesChange}>
      <Space direction="vertical" size="large" style={{ width: "100%" }}>
        <Card
          title={
            <Space wrap>
              <span data-testid="refund-number">{r.name ?? "Draft"}</span>
              <RefundStatusTag status={r.refundStatus} />
            </Space>
          }
          extra={
            <Space>
              {r.refundStatus === "refunded" && <Link to={`/finance/refund/refunded/${r.id}`}>Refund Voucher</Link>}
              <LogHistory source={refundLogSource(r.name)} parentId={r.id} />
              <HistoryDrawer table="refunds" id={r.id} />
            </Space>
          }
        >
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="Student">{r.student ? `${r.student.fullName ?? ""} (${r.student.username ?? ""})` : "--"}</Descriptions.Item>
            <Descriptions.Item label="Type">Withdrawal</Descriptions.Item>
            {!frontDesk && <Descriptions.Item label="Notice Date">{day(r.noticeDate)}</Descriptions.Item>}
            {!frontDesk && <Descriptions.Item label="Reason">{r.reason ?? "--"}</Descriptions.Item>}
            {r.reasonReject && <Descriptions.Item label="Reason for Rejecting">{r.reasonReject}</Descriptions.Item>}
            {r.issuedBy && <Descriptions.Item label="Refunded By">{r.issuedBy.fullName}</Descriptions.Item>}
          </Descriptions>
          {frontDesk && (
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item label="Notice Date" name="noticeDate" rules={[{ required: true, message: REFUND_MESSAGES.noticeDate }]}>
                  <DateInput style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={16}>
                <Form.Item label="Reason" name="reason" rules={[{ required: true, message: REFUND_MESSAGES.reason }]}>
                  <Input maxLength={2000} />
                </Form.Item>
              </Col>
            </Row>
          )}
        </Card>

        <Card title="Refund Classes">
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            scroll={{ x: "max-content" }}
            dataSource={r.classes.map((c, index) => ({ ...c, index }))}
            columns={[
              { title: "Class", dataIndex: "className" },
              {
                title: "Receipt No.",
                key: "receipt",
                render: (_v, c) =>
                  frontDesk ? (
                    <Form.Item name={["classes", c.index, "receiptId"]} noStyle>
                      <Select allowClear style={{ minWidth: 200 }} options={c.receipts.map((x) => ({ value: x.id, label: `${x.name} (${money(x.amount)})` }))} />
                    </Form.Item>
                  ) : (
                    (c.receiptName ?? "--")
                  ),
              },
              { title: "Unit Price", dataIndex: "unitPrice", render: money },
              {
                title: "Last Lesson Date",
                key: "last",
                render: (_v, c) =>
                  frontDesk ? (
                    <Form.Item name={["classes", c.index, "lastLessonDate"]} noStyle>
                      <DateInput allowClear={false} aria-label="Last Lesson Date" />
                    </Form.Item>
                  ) : (
                    day(c.lastLessonDate)
                  ),
              },
              { title: "Left Lessons", dataIndex: "leftLessonNo" },
              { title: "Left Lesson Amount", dataIndex: "leftLessonAmount", render: money },
              {
                title: "Owed Lessons",
                key: "owe",
                render: (_v, c) =>
                  frontDesk ? (
                    <Form.Item name={["classes", c.index, "oweLessonNo"]} noStyle>
                      <InputNumber min={0} precision={0} aria-label="Owed Lessons" />
                    </Form.Item>
                  ) : (
                    c.oweLessonNo
                  ),
              },
              {
                title: "Deduction",
                key: "deduction",
                render: (_v, c) =>
                  frontDesk ? (
                    <Form.Item name={["classes", c.index, "deduction"]} noStyle>
                      <MoneyInput aria-label="Deduction" style={{ width: 130 }} />
                    </Form.Item>
                  ) : (
                    money(c.deduction)
                  ),
              },
              { title: "Other Payments", key: "other", render: (_v, c) => c.otherPayments.map((p) => `${p.name}: ${money(p.amount)}`).join("; ") || "--" },
              { title: "GST", key: "gst", render: (_v, c) => `${money(c.gst)} (${c.gstPercent}%)` },
              { title: "Amount", dataIndex: "amount", render: (v: string) => <Typography.Text strong>{money(v)}</Typography.Text> },
            ]}
          />
          {frontDesk &&
            r.classes.map((c, index) => (
              <div key={c.id} style={{ marginTop: 16, maxWidth: 560 }}>
                <AmountRows name={["classes", index, "otherPayments"]} title={`Other Payments: ${c.className ?? ""}`} addLabel="Add Other Payment" disabled={Boolean(busy)} />
              </div>
            ))}
        </Card>

        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Card title="Credit Notes Included" size="small" style={{ height: "100%" }}>
              <Form.Item name="creditNoteIds" noStyle>
                <Checkbox.Group disabled={!(frontDesk || finance) || Boolean(busy)} options={r.creditNoteChoices.map((c) => ({ value: c.id, label: `${c.name} (${money(c.amount)})` }))} />
              </Form.Item>
              {!r.creditNoteChoices.length && <Typography.Text type="secondary">No issued credit notes.</Typography.Text>}
            </Card>
          </Col>
          <Col xs={24} md={12}>
            <Card title="Deposits Included" size="small" style={{ height: "100%" }}>
              <Form.Item name="depositIds" noStyle>
                <Checkbox.Group disabled={!(frontDesk || finance) || Boolean(busy)} options={r.depositChoices.map((d) => ({ value: d.id, label: `${d.name} (${money(d.amount)})` }))} />
              </Form.Item>
              {!r.depositChoices.length && <Typography.Text type="secondary">No paid deposits.</Typography.Text>}
            </Card>
          </Col>
        </Row>

        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Card title="Student Feedback" size="small">
              <Form.Item label="Feedback" name="feedback">
                <Input.TextArea rows={3} maxLength={5000} disabled={!sales || Boolean(busy)} />
              </Form.Item>
              <Form.Item label="Rating" name="rating">
                <Select allowClear disabled={!sales || Boolean(busy)} options={RATINGS.map((v) => ({ value: v, label: RATING_LABELS[v] }))} />
              </Form.Item>
            </Card>
          </Col>
          <Col xs={24} md={12}>
            <Card title="Payee Details" size="small">
              <Row gutter={8}>
                <Col span={12}>
                  <Form.Item label="Payee Name" name="payeeName">
                    <Input disabled={!finance || Boolean(busy)} maxLength={200} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label="Refund Method" name="refundMethod">
                    <Select allowClear disabled={!finance || Boolean(busy)} options={REFUND_METHODS.map((v) => ({ value: v, label: REFUND_METHOD_LABELS[v] }))} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label="Bank" name="bankName">
                    <Input disabled={!finance || Boolean(busy)} maxLength={200} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label="Account No." name="accountNo">
                    <Input disabled={!finance || Boolean(busy)} maxLength={100} />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
          </Col>
        </Row>

        <Card size="small" title="Summary">
          <Descriptions size="small" column={{ xs: 1, md: 4 }} bordered>
            <Descriptions.Item label="Classes">{money(summary?.classAmount)}</Descriptions.Item>
            <Descriptions.Item label="Credit Notes">{money(summary?.creditNoteAmount)}</Descriptions.Item>
            <Descriptions.Item label="Deposits">{money(summary?.depositAmount)}</Descriptions.Item>
            <Descriptions.Item label="Total Refund">
              <Typography.Text strong data-testid="refund-total">
                {money(summary?.total)}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </Card>

        {rejectable && (
          <Form.Item label="Reason for Rejecting" name="reasonReject" style={{ maxWidth: 720 }}>
            <Input maxLength={2000} />
          </Form.Item>
        )}
        <Space wrap>
          {step && (
            <Button loading={busy === "Save"} disabled={Boolean(busy)} onClick={() => run("Save", save, "Saved.")}>
              Save
            </Button>
          )}
          {r.moves.map((m) => {
            const reject = m.to === "rejected_by_sale" || m.to === "rejected_by_finance";
            return (
              <Button key={m.to} type={reject ? "default" : "primary"} danger={reject} loading={busy === m.label} disabled={Boolean(busy)} onClick={() => void moveTo(m.to, m.label)}>
                {m.label}
              </Button>
            );
          })}
        </Space>
      </Space>
    </Form>
  );
}
