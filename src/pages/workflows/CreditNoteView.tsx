/**
 * A credit note's screen (spec part 2 §2 "Credit note screens"): the general info header (reference, credit
 * type, status badge, Log History), the class information block, the student's issued credit notes, the
 * transfer information card, the pro-rated fees (receipt select, overpaid amount or number of lessons, GST
 * line, total), Reason and Remarks. What may be edited and which moves show come from the server's answer
 * for this user (editStep, moves); the server prices and checks everything again.
 */
import { Alert, Button, Card, Col, Descriptions, Empty, Form, Input, InputNumber, List, Row, Select, Space, Spin, Tag, Typography } from "antd";
import { toast } from "../../framework/toast.ts";
import { confirmStep } from "../../framework/confirm.ts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import dayjs, { type Dayjs } from "dayjs";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { DATE_FORMAT } from "../../domain/dates.ts";
import { numericToCents, centsToNumeric, type Cents } from "../../domain/money.ts";
import {
  CREDIT_NOTE_MESSAGES,
  CREDIT_NOTE_STATUS_COLOURS,
  CREDIT_NOTE_TYPE_LABELS,
  creditNoteMoveErrors,
  creditNoteTotals,
  type CreditNoteClassInformation,
  type CreditNoteDetail,
} from "../../domain/finance/creditNote.ts";
import { MoneyInput } from "../../framework/inputs/MoneyInput.tsx";
import { DateRangeInput } from "../../framework/inputs/lazyInputs.tsx";
import { formatFinanceDate, formatMoneyValue } from "../../domain/formats.ts";
import { LogHistory } from "../finance/LogHistory.tsx";
import { creditNoteLogSource } from "./logSources.ts";
import { HistoryDrawer } from "../../framework/pages/HistoryDrawer.tsx";
import { useFormEdits } from "../../framework/formEdits.ts";
import { enumLabel } from "../../framework/enumLabel.ts";

const money = (v: string | null | undefined) => formatMoneyValue(v ?? "0");
const day = (v: string | null | undefined) => (v ? formatFinanceDate(v) : "--");

interface FormValues {
  period?: [Dayjs, Dayjs];
  termId?: string | null;
  receiptId?: string | null;
  numberOfLesson?: number | null;
  overpaidAmount?: Cents | null;
  reason?: string | null;
  remarks?: string | null;
}

export function useCreditNote(id: string | undefined) {
  return useQuery({
    queryKey: ["credit-note", id],
    queryFn: async () => (await api<CreditNoteDetail>("GET", `/credit-notes/${id}`)).data!,
    enabled: Boolean(id),
    retry: false,
  });
}

export function CreditNoteStatusTag({ status }: { status: CreditNoteDetail["creditNoteStatus"] }) {
  return (
    <Tag color={CREDIT_NOTE_STATUS_COLOURS[status]} data-testid="credit-note-status">
      {enumLabel("credit_notes", "creditNoteStatus", status)}
    </Tag>
  );
}

export function CreditNoteView({ id, readOnly = false }: { id: string; readOnly?: boolean }) {
  const client = useQueryClient();
  const { data: cn, isLoading, error } = useCreditNote(id);
  const [form] = Form.useForm<FormValues>();
  const [busy, setBusy] = useState<string | null>(null);
  const [terms, setTerms] = useState<CreditNoteClassInformation["terms"]>([]);
  const step = readOnly ? null : (cn?.editStep ?? null);
  const edits = useFormEdits(form, { guard: Boolean(step) });

  useEffect(() => {
    if (!cn) return;
    form.setFieldsValue({
      period: cn.creditNoteClass?.startDate && cn.creditNoteClass.endDate ? [dayjs(cn.creditNoteClass.startDate), dayjs(cn.creditNoteClass.endDate)] : undefined,
      termId: cn.creditNoteClass?.termId ?? null,
      receiptId: cn.creditNoteFee?.receiptId ?? null,
      numberOfLesson: cn.creditNoteFee?.numberOfLesson ?? null,
      overpaidAmount: cn.creditNoteFee?.overpaidAmount ? numericToCents(cn.creditNoteFee.overpaidAmount) : null,
      reason: cn.reason,
      remarks: cn.remarks,
    });
  }, [cn, form]);

  // the class's terms for the period (front desk's step); none → term and dates are cleared (spec part 2 §7)
  const period = Form.useWatch("period", form);
  const classId = cn?.creditNoteClass?.classId;
  const studentId = cn?.student?.id;
  useEffect(() => {
    if (step !== "front-desk" || !classId || !studentId || !period?.[0] || !period[1]) return;
    const q = new URLSearchParams({ studentId, classId, startDate: period[0].format(DATE_FORMAT), endDate: period[1].format(DATE_FORMAT) });
    let live = true;
    void api<CreditNoteClassInformation>("GET", `/credit-notes/get-class-information-for-credit-note?${q}`)
      .then((r) => {
        if (!live || !r.data) return;
        setTerms(r.data.terms);
        if (!r.data.terms.length) form.setFieldsValue({ termId: null, period: undefined });
        else if (!r.data.terms.some((t) => t.id === form.getFieldValue("termId"))) form.setFieldValue("termId", r.data.termId);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [step, classId, studentId, period, form]);

  const numberOfLesson = Form.useWatch("numberOfLesson", form);
  const overpaidAmount = Form.useWatch("overpaidAmount", form);

  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!cn) return <Alert type="error" message={rejectionMessage(error, CREDIT_NOTE_MESSAGES.notFound)} />;

  const unitPrice = numericToCents(cn.creditNoteFee?.unitPriceOfClass ?? "0") ?? 0;
  const preview =
    step === "finance"
      ? creditNoteTotals(cn.type === "suspension" ? { numberOfLesson: Number(numberOfLesson ?? 0), unitPriceOfClass: unitPrice } : { overpaidAmount: overpaidAmount ?? 0 }, cn.gst)
      : null;
  const shown = preview ? { subTotal: centsToNumeric(preview.subTotal), gst: centsToNumeric(preview.gst), total: centsToNumeric(preview.total) } : cn.summary;

  const refresh = (next: CreditNoteDetail) => client.setQueryData(["credit-note", id], next);
  const fail = (e: unknown, fallback: string) => {
    void toast.error(rejectionMessage(e, fallback));
    const toField = (name: string) => (["startDate", "endDate", "suspensionPeriod", "lessonIds"].includes(name) ? "period" : name === "termName" ? "termId" : name) as keyof FormValues;
    form.setFields(rejectionFieldErrors(e).map((f) => ({ name: toField(f.name), errors: f.errors })));
  };

  /** Saves what the current step may change; returns the saved note (its new updatedAt). */
  const save = async (): Promise<CreditNoteDetail> => {
    const v = form.getFieldsValue();
    const body: Record<string, unknown> = { updatedAt: cn.updatedAt, reason: v.reason ?? null, remarks: v.remarks ?? null };
    if (step === "front-desk" && cn.type === "suspension") {
      if (v.period?.[0] && v.period[1]) Object.assign(body, { startDate: v.period[0].format(DATE_FORMAT), endDate: v.period[1].format(DATE_FORMAT) });
      if (v.termId) body.termId = v.termId;
    }
    if (step === "finance") {
      body.receiptId = v.receiptId ?? null;
      if (cn.type === "suspension") body.numberOfLesson = Number(v.numberOfLesson ?? 0);
      else body.overpaidAmount = centsToNumeric(v.overpaidAmount ?? 0);
    }
    const saved = (await api<CreditNoteDetail>("PUT", `/credit-notes/${id}`, body)).data!;
    refresh(saved);
    edits.saved();
    return saved;
  };

  const run = async (label: string, work: () => Promise<unknown>, done: string) => {
    setBusy(label);
    try {
      await work();
      void toast.success(done);
      await client.invalidateQueries({ queryKey: ["logs", "credit_note_logs", id] });
    } catch (e) {
      fail(e, `${label} failed.`);
    } finally {
      setBusy(null);
    }
  };

  /** The move's fields as the page has them: the current step's from the form, the rest from the note. */
  const moveFields = () => {
    const v = form.getFieldsValue();
    const c = cn.creditNoteClass;
    const fee = cn.creditNoteFee;
    const frontDesk = step === "front-desk" && cn.type === "suspension";
    const finance = step === "finance";
    const termId = frontDesk ? v.termId : c?.termId;
    return {
      type: cn.type,
      classId: c?.classId,
      termName: termId ? (terms.find((t) => t.id === termId)?.name ?? (termId === c?.termId ? c?.termName : termId)) : null,
      startDate: frontDesk ? v.period?.[0]?.format(DATE_FORMAT) : c?.startDate,
      endDate: frontDesk ? v.period?.[1]?.format(DATE_FORMAT) : c?.endDate,
      // the lessons of a changed period are found by the server when it saves
      lessonCount: frontDesk ? undefined : (c?.lessonIds.length ?? 0),
      receiptId: finance ? v.receiptId : fee?.receiptId,
      numberOfLesson: finance ? v.numberOfLesson : fee?.numberOfLesson,
      overpaidAmount: finance ? v.overpaidAmount : numericToCents(fee?.overpaidAmount ?? "0"),
      reason: step ? v.reason : cn.reason,
    };
  };

  const moveTo = async (to: CreditNoteDetail["creditNoteStatus"], label: string) => {
    // the step's required fields first, so the confirmation opens only for a step the server will take
    const problems = creditNoteMoveErrors(moveFields(), to);
    if (Object.keys(problems).length) return fail({ message: Object.values(problems)[0], errors: problems }, `${label} failed.`);
    if (!(await confirmStep({ title: `${label}?`, content: `The credit note becomes ${enumLabel("credit_notes", "creditNoteStatus", to)}.`, okText: label }))) return;
    await run(
      label,
      async () => {
        const current = step ? await save() : cn;
        refresh((await api<CreditNoteDetail>("PATCH", `/credit-notes/change-status-credit-note/${id}`, { status: to, updatedAt: current.updatedAt })).data!);
      },
      `${enumLabel("credit_notes", "creditNoteStatus", to)}.`,
    );
  };

  const duplicate = () =>
    run(
      "Duplicate",
      async () => {
        const copy = (await api<CreditNoteDetail>("POST", "/credit-notes/duplicate-credit-note", { creditNoteId: id })).data!;
        window.location.assign(`/finance/credit-note/update/${copy.id}`);
      },
      "Duplicated.",
    );

  const cls = cn.creditNoteClass;
  return (
    <Form form={form} layout="vertical" disabled={!step || Boolean(busy)} onValuesChange={edits.onValuesChange}>
      <Space direction="vertical" size="large" style={{ width: "100%" }}>
        <Card
          title={
            <Space wrap>
              <span data-testid="credit-note-number">{cn.name ?? "Draft"}</span>
              <Tag>{CREDIT_NOTE_TYPE_LABELS[cn.type]}</Tag>
              <CreditNoteStatusTag status={cn.creditNoteStatus} />
            </Space>
          }
          extra={
            <Space>
              <LogHistory source={creditNoteLogSource(cn.name)} parentId={cn.id} />
              <HistoryDrawer table="credit_notes" id={cn.id} />
            </Space>
          }
        >
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="Credit Note Reference">{cn.name ?? "Draft"}</Descriptions.Item>
            <Descriptions.Item label="Credit Type">{CREDIT_NOTE_TYPE_LABELS[cn.type]}</Descriptions.Item>
            <Descriptions.Item label="Student">{cn.student ? `${cn.student.fullName ?? ""} (${cn.student.username ?? ""})` : "--"}</Descriptions.Item>
            {cn.approver && <Descriptions.Item label="Approved By">{cn.approver.fullName}</Descriptions.Item>}
            {cn.approvedAt && <Descriptions.Item label="Approved At">{day(cn.approvedAt)}</Descriptions.Item>}
            {Number(cn.usedAmount) > 0 && <Descriptions.Item label="Used">{money(cn.usedAmount)}</Descriptions.Item>}
          </Descriptions>
        </Card>

        <Row gutter={16}>
          <Col xs={24} lg={16}>
            {cn.type === "suspension" && (
              <Card title="Class Information" style={{ marginBottom: 16 }}>
                <Descriptions size="small" column={{ xs: 1, md: 2 }}>
                  <Descriptions.Item label="Class">{cls?.className ?? "--"}</Descriptions.Item>
                  <Descriptions.Item label="Number of Lessons">{cls?.lessonIds.length ?? 0}</Descriptions.Item>
                  {step !== "front-desk" && (
                    <>
                      <Descriptions.Item label="Term">{cls?.termName ?? "--"}</Descriptions.Item>
                      <Descriptions.Item label="Suspension Period">{`${day(cls?.startDate)} - ${day(cls?.endDate)}`}</Descriptions.Item>
                    </>
                  )}
                </Descriptions>
                {step === "front-desk" && (
                  <Row gutter={16}>
                    <Col xs={24} md={12}>
                      <Form.Item label="Suspension Period" name="period" rules={[{ required: true, message: CREDIT_NOTE_MESSAGES.suspensionPeriod }]}>
                        <DateRangeInput style={{ width: "100%" }} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={12}>
                      <Form.Item label="Term" name="termId" rules={[{ required: true, message: CREDIT_NOTE_MESSAGES.termName }]}>
                        <Select options={terms.map((t) => ({ value: t.id, label: t.name }))} placeholder="Term" />
                      </Form.Item>
                    </Col>
                  </Row>
                )}
              </Card>
            )}

            <Card title="Pro-rated Fees" style={{ marginBottom: 16 }}>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item label="Receipt No." name="receiptId" rules={[{ required: step === "finance", message: CREDIT_NOTE_MESSAGES.receipt }]}>
                    <Select
                      allowClear
                      placeholder="Receipt No."
                      options={cn.receipts.map((r) => ({ value: r.id, label: `${r.name} (${money(r.amount)}, ${day(r.receiptDate)})` }))}
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  {cn.type === "overpaid" ? (
                    <Form.Item label="Overpaid Amount" name="overpaidAmount" rules={[{ required: step === "finance", message: CREDIT_NOTE_MESSAGES.overpaidAmount }]}>
                      <MoneyInput />
                    </Form.Item>
                  ) : (
                    <Form.Item label="No. of Lesson" name="numberOfLesson" rules={[{ required: step === "finance", message: CREDIT_NOTE_MESSAGES.numberOfLesson }]}>
                      <InputNumber min={0} precision={0} style={{ width: "100%" }} />
                    </Form.Item>
                  )}
                </Col>
              </Row>
              <Descriptions size="small" column={1} bordered>
                {cn.type === "suspension" && <Descriptions.Item label="Unit Price of Class">{money(cn.creditNoteFee?.unitPriceOfClass)}</Descriptions.Item>}
                <Descriptions.Item label="Sub Total">{money(shown?.subTotal)}</Descriptions.Item>
                <Descriptions.Item label={`GST (${cn.gst}%)`}>{money(shown?.gst)}</Descriptions.Item>
                <Descriptions.Item label="Total">
                  <Typography.Text strong data-testid="credit-note-total">
                    {money(shown?.total)}
                  </Typography.Text>
                </Descriptions.Item>
              </Descriptions>
            </Card>

            <Card>
              <Form.Item label="Reason" name="reason" rules={[{ required: step === "finance", message: CREDIT_NOTE_MESSAGES.reason }]}>
                <Input maxLength={2000} />
              </Form.Item>
              <Form.Item label="Remarks" name="remarks">
                <Input.TextArea rows={3} maxLength={5000} />
              </Form.Item>
            </Card>
          </Col>
          <Col xs={24} lg={8}>
            <Card title="Credit Notes" size="small" style={{ marginBottom: 16 }}>
              {cn.issuedCreditNotes.length ? (
                <List size="small" dataSource={cn.issuedCreditNotes} renderItem={(c) => <List.Item extra={money(c.amount)}>{c.name}</List.Item>} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No issued credit notes" />
              )}
            </Card>
            <Card title="Transfer Information" size="small">
              {cn.transfer ? (
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label="From">{cn.transfer.fromClassName}</Descriptions.Item>
                  <Descriptions.Item label="To">{cn.transfer.toClassName}</Descriptions.Item>
                  <Descriptions.Item label="Status">{enumLabel("request_transfer_classes", "transferClassStatus", cn.transfer.transferClassStatus)}</Descriptions.Item>
                  <Descriptions.Item label="Lesson Start Date">{day(cn.transfer.lessonStartDate)}</Descriptions.Item>
                </Descriptions>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No transfer" />
              )}
            </Card>
          </Col>
        </Row>

        {!readOnly && (
          <Space wrap>
            {step && (
              <Button loading={busy === "Save"} onClick={() => run("Save", save, "Saved.")} disabled={Boolean(busy)}>
                Save
              </Button>
            )}
            {cn.moves.map((m) => (
              <Button
                key={m.to}
                type={m.to === "rejected" || m.to === "voided" ? "default" : "primary"}
                danger={m.to === "rejected" || m.to === "voided"}
                loading={busy === m.label}
                disabled={Boolean(busy)}
                onClick={() => void moveTo(m.to, m.label)}
              >
                {m.label}
              </Button>
            ))}
            {cn.canDuplicate && (
              <Button onClick={duplicate} disabled={Boolean(busy)}>
                Duplicate
              </Button>
            )}
          </Space>
        )}
      </Space>
    </Form>
  );
}
