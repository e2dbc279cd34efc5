/**
 * /finance/payment-advice/create and /finance/payment-advice/edit/{id}: the PA builder (spec part 2 §2–§5,
 * §9). The draft is created (POST …/init) the first time it is saved or a class is added (which asks first); Delete, Save Draft,
 * Issue, Save (an unpaid PA without payments), Void (with a reason) go through the server, which
 * recomputes every figure; the browser shows a live preview from src/domain/finance meanwhile.
 */
import { Alert, Button, Card, Form, Input, Modal, Space, Spin, Typography } from "antd";
import { toast } from "../../framework/toast.ts";
import { confirmStep } from "../../framework/confirm.ts";
import { PlusOutlined } from "@ant-design/icons";
import { useCan } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { useEffect, useMemo, useRef, useState } from "react";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { RichTextInput } from "../../framework/inputs/RichTextInput.tsx";
import { DATE_FORMAT } from "../../domain/dates.ts";
import { numericToCents } from "../../domain/money.ts";
import { computePaymentAdvice, type PricedClass } from "../../domain/finance/paymentAdvice.ts";
import { isPaEditable, paVoidAction, PA_MESSAGES } from "../../domain/finance/paymentAdviceStatus.ts";
import { InvoiceButton } from "./invoices/InvoiceButton.tsx";
import { isPaInvoiceable } from "../../domain/finance/invoice.ts";
import { summaryFromWire, type EmailUnpaidReply, type PaymentAdviceRecord, type VoidPaidReply } from "../../domain/finance/paymentAdviceApi.ts";
import { isTermless } from "../../domain/finance/classCard.ts";
import { StudentPicker } from "../students/StudentPicker.tsx";
import { fetchBoosterClasses, fetchCompanyFeeSettings, fetchDiscounts, fetchPaidDeposits, fetchPaymentAdvice, type PaRecord } from "./builder/builderData.ts";
import { cardToEntry, newCard, valuesFromRecord, valuesToFields, type BuilderValues, type CardValues } from "./builder/builderForm.ts";
import { useBuilderClasses } from "./builder/useBuilderClasses.ts";
import { useDebounced } from "./builder/useDebounced.ts";
import { PaymentInformation } from "./builder/PaymentInformation.tsx";
import { RegistrationFee } from "./builder/RegistrationFee.tsx";
import { ClassCard } from "./builder/ClassCard.tsx";
import { ClassPickerModal } from "./builder/ClassPickerModal.tsx";
import { PaymentSummaryCard } from "./builder/PaymentSummaryCard.tsx";
import type { PickerClass } from "./builder/classPicker.ts";
import { DeletedRecordNotice, HistoryDrawer } from "../../framework/pages/HistoryDrawer.tsx";
import { useFormEdits } from "../../framework/formEdits.ts";

/** Spec part 2 §9 debounces. */
export const DEBOUNCE_MS = { registrationFee: 500, remarks: 200, rows: 450 } as const;
export const CLASS_FEE_EMPTY_TEXT = "Click “Add Class\" to start creating the Payment Advice. You have to add 1 Regular class before adding any Double Lesson class.";
const PA_PATH = "/finance/payment-advice";

const EMPTY: BuilderValues = {
  studentId: null,
  companyId: null,
  branchId: null,
  axsCode: null,
  issueDate: null,
  dueDate: null,
  qrExpiryDate: null,
  isRegistrationFee: false,
  gst: 0,
  remarks: null,
  notes: null,
  classInformations: [],
};

/** Remarks reach the form 200 ms after typing stops (spec part 2 §9). */
function RemarksInput({ value, onChange, disabled }: { value?: string | null; onChange?: (v: string) => void; disabled: boolean }) {
  const [text, setText] = useState(value ?? "");
  const settled = useDebounced(text, DEBOUNCE_MS.remarks);
  useEffect(() => setText(value ?? ""), [value]);
  useEffect(() => {
    if (settled !== (value ?? "")) onChange?.(settled);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return <Input.TextArea rows={3} value={text} onChange={(e) => setText(e.target.value)} disabled={disabled} aria-label="Remarks" />;
}

/** Whether the user holds a PA action right (FINANCE.md §5; the server checks the same policy line). */
function useActionRight(action: string): boolean {
  return useCan({ resource: `api:/actions/payment-advice/${action}`, action: "POST" }).data?.can === true;
}

function VoidDialog({ open, onCancel, onVoid }: { open: boolean; onCancel: () => void; onVoid: (reason: string) => Promise<void> }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      title="Void Payment Advice"
      open={open}
      onCancel={onCancel}
      okText="Void"
      okButtonProps={{ danger: true, loading: busy }}
      destroyOnHidden
      onOk={async () => {
        const { reason } = await form.validateFields();
        setBusy(true);
        try {
          await onVoid(reason.trim());
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label="Reason" rules={[{ required: true, whitespace: true, message: PA_MESSAGES.reasonRequired }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function PaymentAdviceBuilderPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [form] = Form.useForm<BuilderValues>();
  const [record, setRecord] = useState<PaRecord | null>(null);
  const [pickerOpen, setPickerOpen] = useState(Boolean((location.state as { openPicker?: boolean } | null)?.openPicker));
  const [voidOpen, setVoidOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const edits = useFormEdits(form);

  // The record fills the form once per PA: a refetch behind the user's back (window focus, a remount) would
  // otherwise put back the stored values over what they are building (the picked classes vanished).
  const loaded = useQuery({ queryKey: ["payment-advice", id], queryFn: () => fetchPaymentAdvice(id!), enabled: Boolean(id), retry: false, gcTime: 0, staleTime: Infinity, refetchOnWindowFocus: false });
  const filledFrom = useRef<string | null>(null);
  useEffect(() => {
    if (loaded.data && filledFrom.current !== loaded.data.id) {
      filledFrom.current = loaded.data.id;
      setRecord(loaded.data);
      form.setFieldsValue(valuesFromRecord(loaded.data));
    }
  }, [loaded.data, form]);

  const values = (Form.useWatch([], form) ?? EMPTY) as BuilderValues;
  const studentId = values.studentId ?? record?.studentId ?? null;
  const companyId = values.companyId ?? record?.companyId ?? null;
  const cards: CardValues[] = values.classInformations ?? [];
  const issueDate = values.issueDate ? values.issueDate.format(DATE_FORMAT) : null;

  const discounts = useQuery({ queryKey: ["pa-discounts", companyId], queryFn: () => fetchDiscounts(companyId!), enabled: Boolean(companyId), retry: false });
  // Before its first save a new PA shows the company's fee, waiver period and GST (issue 37), as the server will store them.
  const feeSettings = useQuery({ queryKey: ["pa-fee-settings", companyId], queryFn: () => fetchCompanyFeeSettings(companyId!), enabled: Boolean(companyId) && !record, retry: false });
  useEffect(() => {
    if (!record && feeSettings.data) form.setFieldValue("gst", feeSettings.data.gst);
  }, [feeSettings.data, record, form]);
  const deposits = useQuery({ queryKey: ["pa-deposits", studentId], queryFn: () => fetchPaidDeposits(studentId!), enabled: Boolean(studentId), retry: false });
  const [specialIds, setSpecialIds] = useState<ReadonlySet<string>>(new Set());
  const boosterIds = [...new Set(cards.flatMap((c) => c.booterClassIds ?? []))];
  const { classes, errors } = useBuilderClasses(studentId, [...cards.map((c) => c.id), ...boosterIds], specialIds);
  const boosterOptions = useQuery({ queryKey: ["pa-boosters", companyId], queryFn: () => fetchBoosterClasses(companyId!), enabled: Boolean(companyId), retry: false });

  // The action rights of FINANCE.md §5 (policy lines the server checks too): buttons only for who may.
  const canCreate = useActionRight("create");
  const canEditDraft = useActionRight("edit-draft");
  const canIssue = useActionRight("issue");
  const canEditUnpaid = useActionRight("edit-unpaid");
  const canVoidUnpaid = useActionRight("void-unpaid");
  const canVoidPaid = useActionRight("void-paid");
  const canEmail = useActionRight("email-unpaid");
  const canDeleteDraft = useActionRight("delete-draft");

  const status = record?.paymentStatus ?? "draft";
  const received = numericToCents(record?.amountReceived ?? "0") ?? 0;
  const editable = record ? isPaEditable(status, received) : true;
  const mayWrite = !record ? canCreate : status === "draft" ? canEditDraft : status === "unpaid" ? canEditUnpaid : false;
  const disabled = !editable || !mayWrite;

  // Live preview (FINANCE.md §3) from the debounced choices; the server's figures replace it on save.
  const rowsSnapshot = useDebounced(
    JSON.stringify(cards.map((c) => [c.otherPayments, c.deductions, c.deposits])),
    DEBOUNCE_MS.rows,
  );
  const regFeeRequested = useDebounced(Boolean(values.isRegistrationFee), DEBOUNCE_MS.registrationFee);
  const depositRefs = deposits.data ?? [];
  const preview = useMemo(() => {
    if (!record) return null;
    const rows = JSON.parse(rowsSnapshot) as [CardValues["otherPayments"], CardValues["deductions"], CardValues["deposits"]][];
    const ready = cards.every((c) => classes.has(c.id) && (c.booterClassIds ?? []).every((b) => classes.has(b)));
    if (!ready) return null;
    const entries = cards.map((c, i) => cardToEntry({ ...c, otherPayments: rows[i]?.[0] ?? [], deductions: rows[i]?.[1] ?? [], deposits: rows[i]?.[2] ?? [] }, depositRefs));
    try {
      return computePaymentAdvice({
        issueDate,
        isRegistrationFee: regFeeRequested,
        registrationFee: { amount: numericToCents(record.registrationFeeConfig?.amount ?? "0") ?? 0, waiverPeriod: record.registrationFeeConfig?.waiverPeriod ?? null },
        gstPercent: values.gst ?? 0,
        entries,
        classes: classes as ReadonlyMap<string, PricedClass>,
        discounts: discounts.data ?? [],
        // A booster class is priced at its unit price for this student, as the server prices it.
        boosterPrices: new Map(boosterIds.map((b) => [b, classes.get(b)?.unitPrice ?? 0])),
      });
    } catch (err) {
      console.error("[pa preview]", err);
      return null;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record, rowsSnapshot, cards, classes, issueDate, regFeeRequested, values.gst, discounts.data, depositRefs]);

  const fields = () => valuesToFields({ ...EMPTY, ...form.getFieldsValue(true) } as BuilderValues, depositRefs);

  /** The draft behind the screen: created by POST …/init the first time it is needed. */
  const ensureRecord = async (): Promise<PaRecord> => {
    if (record) return record;
    const reply = await api<PaymentAdviceRecord>("POST", "/finances/payment-advices/init", fields());
    const created = reply.data! as PaRecord;
    // This page made the record from its form: loading it must not overwrite what the user goes on adding.
    filledFrom.current = created.id;
    setRecord(created);
    return created;
  };

  const fail = (err: unknown, fallback: string) => {
    const fieldErrors = rejectionFieldErrors(err);
    // The server names a card's field "classInformations.0.lessonStartDate": the same path in the form.
    const nested = Object.entries((err as { errors?: Record<string, string> } | null)?.errors ?? {})
      .filter(([name]) => name.includes("."))
      .map(([name, text]) => ({ name: name.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)), errors: [text] }));
    if (fieldErrors.length || nested.length) form.setFields([...fieldErrors, ...nested] as never);
    void toast.error(rejectionMessage(err, fallback));
  };

  const addClass = async () => {
    const v = form.getFieldsValue(true) as BuilderValues;
    if (!v.companyId) return void toast.warning("Please select company!");
    if (!v.studentId) return void toast.warning("Please select student!");
    if (record) return setPickerOpen(true);
    // classes are added to a saved draft: say so instead of leaving a silent "Draft … S$0.00" behind (issue 37)
    if (!(await confirmStep({ title: "Save this payment advice as a draft?", content: "Classes are added to a saved draft. A draft can be deleted later.", okText: "Save Draft" }))) return;
    setBusy("init");
    try {
      const created = await ensureRecord();
      // The same page may stay mounted on the new path (same component) or mount afresh (it reads the state).
      navigate(`${PA_PATH}/edit/${created.id}`, { replace: true, state: { openPicker: true } });
      setPickerOpen(true);
    } catch (err) {
      fail(err, "The payment advice could not be created.");
    } finally {
      setBusy(null);
    }
  };

  const onAdd = (picked: PickerClass[]) => {
    setPickerOpen(false);
    const special = picked.filter((c) => isTermless(c.classType)).map((c) => c.id);
    if (special.length) setSpecialIds((s) => new Set([...s, ...special]));
    const now = (form.getFieldValue("classInformations") as CardValues[] | undefined) ?? [];
    const next = [...now, ...picked.filter((c) => !now.some((x) => x.id === c.id)).map((c) => newCard(c.id))];
    form.setFieldValue("classInformations", next);
    edits.onValuesChange({ classInformations: next });
  };

  const save = async (action: "save" | "issue") => {
    try {
      if (action === "issue") await form.validateFields();
      else await form.validateFields(["studentId", "companyId"]);
    } catch {
      return;
    }
    if (action === "issue" && !(await confirmStep({ title: "Issue this payment advice?", content: "It gets its number and can no longer be edited.", okText: "Issue" }))) return;
    setBusy(action);
    try {
      const base = await ensureRecord();
      const reply = await api<PaymentAdviceRecord>("PUT", `/finances/payment-advices/${base.id}`, { ...fields(), action, updatedAt: base.updatedAt });
      const saved = reply.data! as PaRecord;
      setRecord(saved);
      edits.saved();
      void toast.success(action === "issue" ? "Payment advice issued." : "Payment advice saved.");
      if (!id) navigate(`${PA_PATH}/edit/${saved.id}`, { replace: true });
    } catch (err) {
      fail(err, "The payment advice could not be saved.");
    } finally {
      setBusy(null);
    }
  };

  const deleteDraft = async () => {
    if (!record || !(await confirmStep({ title: "Delete this draft?", content: "The draft payment advice is removed.", okText: "Delete" }))) return;
    setBusy("delete");
    try {
      await api("DELETE", `/finances/payment-advices/${record.id}?updatedAt=${encodeURIComponent(record.updatedAt)}`);
      void toast.success("Draft deleted.");
      edits.saved(() => navigate(PA_PATH));
    } catch (err) {
      fail(err, "The draft could not be deleted.");
    } finally {
      setBusy(null);
    }
  };

  const voidPa = async (reason: string) => {
    if (!record) return;
    try {
      const body = { id: record.id, reason, updatedAt: record.updatedAt };
      if (record.paymentStatus === "unpaid") {
        const reply = await api<PaymentAdviceRecord>("POST", "/finances/payment-advices/void-unpaid", body);
        setRecord(reply.data! as PaRecord);
      } else {
        const reply = await api<VoidPaidReply>("PATCH", "/finances/payment-advices/void-paid-pa", body);
        setRecord(reply.data!.paymentAdvice as PaRecord);
        const creditNote = reply.data!.creditNote;
        void toast.info(creditNote ? `Credit note ${creditNote.name} issued for the amount received.` : "The amount received was already credited: no new credit note.");
      }
      setVoidOpen(false);
      void toast.success("Payment advice voided.");
    } catch (err) {
      fail(err, "The payment advice could not be voided.");
    }
  };

  const emailParents = async () => {
    if (!record) return;
    setBusy("email");
    try {
      const reply = await api<EmailUnpaidReply>("POST", "/finances/email/unpaid-pa-to-parents", { paymentAdviceIds: [record.id] });
      const sent = reply.data?.queued[0];
      if (sent) void toast.success(`The payment advice will be e-mailed to ${sent.recipient}.`);
      else void toast.warning(reply.data?.skipped[0]?.reason ?? "The payment advice was not e-mailed.");
    } catch (err) {
      fail(err, "The payment advice could not be e-mailed.");
    } finally {
      setBusy(null);
    }
  };

  // A draft this page has just created is already on screen: its refetch on the new path must not unmount the page
  // (the class picker opened on it would lose its applied filters and rows).
  if (id && loaded.isLoading && record?.id !== id) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  // a deleted PA (issue 36): who deleted it and when, as the generated show pages say it
  if (id && !loaded.isLoading && !loaded.data && !record) return <Card><DeletedRecordNotice table="payment_advices" id={id} missing={<Alert type="error" message={PA_MESSAGES.notFound} />} /></Card>;

  const voidAction = record ? paVoidAction(record.paymentStatus, received) : null;
  const canVoid = (voidAction === "void_unpaid" && canVoidUnpaid) || (voidAction === "void_paid" && canVoidPaid);
  const waiverPeriod = record ? (record.registrationFeeConfig?.waiverPeriod ?? null) : (feeSettings.data?.waiverPeriod ?? null);
  // A PA that can no longer change shows the figures stored with it, not a recomputation with today's prices and discounts.
  const summary = !editable && record?.paymentSummaryStatic ? summaryFromWire(record.paymentSummaryStatic) : (preview?.summary ?? null);

  return (
    <Card
      title={id ? (editable ? "Edit Payment Advice" : "Payment Advice") : "Create Payment Advice"}
      extra={
        <Space wrap>
          {record && <HistoryDrawer table="payment_advices" id={record.id} />}
          {record && status !== "draft" && (
            <Link to={`${PA_PATH}/paper/${record.id}`}>
              <Button>Paper</Button>
            </Link>
          )}
          {record && isPaInvoiceable(status) && <InvoiceButton paymentAdviceId={record.id} />}
          {record && status === "unpaid" && canEmail && (
            <Button loading={busy === "email"} onClick={() => void emailParents()}>
              Email to Parents
            </Button>
          )}
          {canVoid && (
            <Button danger onClick={() => setVoidOpen(true)}>
              Void
            </Button>
          )}
          {record && status === "draft" && canDeleteDraft && (
            <Button danger loading={busy === "delete"} onClick={() => void deleteDraft()}>
              Delete
            </Button>
          )}
          {!disabled && status === "draft" && (
            <Button loading={busy === "save"} onClick={() => void save("save")}>
              Save Draft
            </Button>
          )}
          {!disabled && status === "draft" && canIssue && (
            <Button type="primary" loading={busy === "issue"} onClick={() => void save("issue")}>
              Issue
            </Button>
          )}
          {!disabled && status === "unpaid" && (
            <Button type="primary" loading={busy === "save"} onClick={() => void save("save")}>
              Save
            </Button>
          )}
        </Space>
      }
    >
      <Form form={form} layout="vertical" initialValues={EMPTY} aria-label="Payment advice" scrollToFirstError onValuesChange={edits.onValuesChange}>
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          <Card title="Student" size="small">
            <Form.Item name="studentId" rules={[{ required: true, message: "Please select student!" }]} style={{ marginBottom: 0 }}>
              <StudentPicker disabled={disabled || cards.length > 0} />
            </Form.Item>
          </Card>
          <PaymentInformation paId={record?.id ?? null} name={record?.name ?? null} paymentStatus={status} dueDate={record?.dueDate ?? null} disabled={disabled} companyLocked={cards.length > 0} companyId={companyId} />
          <RegistrationFee
            amount={record ? (numericToCents(record.registrationFeeConfig?.amount ?? null) ?? null) : (feeSettings.data?.registrationFee ?? null)}
            waiverPeriod={waiverPeriod}
            issueDate={issueDate}
            disabled={disabled}
          />
          <Card
            title="Class Fee"
            size="small"
            extra={
              !disabled && (
                <Button icon={<PlusOutlined />} loading={busy === "init"} onClick={() => void addClass()}>
                  Add Class
                </Button>
              )
            }
          >
            {/* The list is always mounted: a value set on an unmounted Form.List is not watched, so no card would appear. */}
            <Form.List name="classInformations">
              {(items, { remove }) =>
                items.length === 0 ? (
                  <Typography.Paragraph type="secondary" data-testid="class-fee-empty">
                    {CLASS_FEE_EMPTY_TEXT}
                  </Typography.Paragraph>
                ) : (
                  <Space direction="vertical" style={{ width: "100%" }}>
                    {items.map((item) => {
                      const card = cards[item.name];
                      const cls = card ? classes.get(card.id) : undefined;
                      return (
                        <ClassCard
                          key={item.key}
                          form={form}
                          index={item.name}
                          values={card}
                          cls={cls}
                          error={card ? errors.get(card.id) : undefined}
                          totals={preview?.cards.find((c) => c.entry.id === card?.id)?.totals}
                          issueDate={issueDate}
                          discounts={discounts.data ?? []}
                          paidDeposits={depositRefs}
                          boosterOptions={(boosterOptions.data ?? []).filter((b) => b.id !== card?.id)}
                          depositAmount={numericToCents(record?.depositSettings?.amount ?? null) ?? 0}
                          disabled={disabled}
                          onRemove={() => remove(item.name)}
                        />
                      );
                    })}
                  </Space>
                )
              }
            </Form.List>
          </Card>
          <PaymentSummaryCard summary={summary} disabled={disabled} />
          <Card title="Remarks" size="small">
            <Form.Item name="remarks" noStyle>
              <RemarksInput disabled={disabled} />
            </Form.Item>
          </Card>
          <Card title="Notes" size="small">
            <Form.Item name="notes" noStyle>
              <RichTextInput readOnly={disabled} />
            </Form.Item>
          </Card>
        </Space>
      </Form>
      {record && companyId && (
        <ClassPickerModal
          open={pickerOpen}
          companyId={companyId}
          picked={cards.map((c) => ({ programId: classes.get(c.id)?.programId ?? null }))}
          onClose={() => setPickerOpen(false)}
          onAdd={onAdd}
        />
      )}
      <VoidDialog open={voidOpen} onCancel={() => setVoidOpen(false)} onVoid={voidPa} />
    </Card>
  );
}
