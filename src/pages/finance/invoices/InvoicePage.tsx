/**
 * /finance/invoice/{id}/{invoiceId} (id: the payment advice): the invoice with its PA, the payments and
 * their receipts, the balance due; "Record payment" (S$ input, the spec's methods and card types), void a
 * payment's receipt or the invoice with a reason. The buttons shown are the caller's action rights; the
 * server decides.
 */
import { Alert, Button, Card, Descriptions, Form, Input, Modal, Select, Space, Spin, Table, Tag } from "antd";
import { toast } from "../../../framework/toast.ts";
import { useCan, useList } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { useState } from "react";
import { api, rejectionFieldErrors, rejectionMessage } from "../../../app/api.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay, todayInSingapore } from "../../../domain/dates.ts";
import { centsToNumeric, formatMoney, numericToCents, type Cents } from "../../../domain/money.ts";
import { formatMoneyValue } from "../../../domain/formats.ts";
import {
  CARD_TYPE_LABELS, CARD_TYPES, creditNoteLeft, INVOICE_STATUS_LABELS, INVOICE_STATUS_TONES, PAYMENT_METHOD_LABELS, PAYMENT_METHODS, paymentMethodLabel,
  type InvoiceDetail, type PaymentMethod,
} from "../../../domain/finance/invoice.ts";
import { BOUND_MESSAGES, MAX_DOCUMENT_CENTS, paymentDateError } from "../../../domain/finance/bounds.ts";
import { MoneyInput } from "../../../framework/inputs/MoneyInput.tsx";
import { DateInput } from "../../../framework/inputs/lazyInputs.tsx";
import { DATE_FORMAT } from "../../../domain/dates.ts";
import type { Dayjs } from "dayjs";

const TONE_COLOURS = { success: "green", warning: "orange", danger: "red", default: "default", processing: "blue" } as const;

function useInvoiceRight(action: "record-payment" | "void" | "void-payment"): boolean {
  return useCan({ resource: `api:/actions/invoice/${action}`, action: "POST" }).data?.can === true;
}

interface CreditNoteChoice { id: string; name: string; left: Cents }

/** The student's issued credit notes with what is left of each (for a payment by credit note). */
function useCreditNotes(studentId: string | null | undefined, enabled: boolean): { choices: CreditNoteChoice[]; loading: boolean } {
  const { result, query } = useList<{ id: string; name: string | null; summary: { total?: string } | null; usedAmount: string }>({
    resource: "credit_notes",
    pagination: { mode: "off" },
    sorters: [{ field: "name", order: "asc" }],
    filters: [{ field: "studentId", operator: "eq", value: studentId }, { field: "creditNoteStatus", operator: "eq", value: "issued" }, { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "name", "summary", "usedAmount"] },
    queryOptions: { enabled: enabled && Boolean(studentId) },
  });
  const choices = (result?.data ?? []).map((c) => ({ id: c.id, name: c.name ?? "", left: creditNoteLeft(numericToCents(c.summary?.total ?? "0") ?? 0, numericToCents(c.usedAmount) ?? 0) }));
  return { choices, loading: query.isLoading };
}

export default function InvoicePage() {
  const { invoiceId } = useParams();
  const client = useQueryClient();
  const key = ["invoice-detail", invoiceId];
  const { data, isLoading, error } = useQuery({
    queryKey: key,
    queryFn: async () => (await api<InvoiceDetail>("GET", `/finances/invoices/${invoiceId}`)).data!,
    enabled: Boolean(invoiceId),
    retry: false,
  });
  const canPay = useInvoiceRight("record-payment");
  const canVoid = useInvoiceRight("void");
  const canVoidPayment = useInvoiceRight("void-payment");
  const canCreditOverpaid = useCan({ resource: "api:/actions/credit-note/create-overpaid", action: "POST" }).data?.can === true;
  const [paying, setPaying] = useState(false);
  const [voiding, setVoiding] = useState<{ kind: "invoice" } | { kind: "receipt"; id: string; name: string } | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: key });

  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message={rejectionMessage(error, "Invoice not found.")} />;
  const { invoice, paymentAdvice: pa, student, payments } = data;
  const voided = invoice.invoiceStatus === "voided";
  const live = payments.filter((p) => p.status !== "deleted");
  const lastReceipt = live.at(-1)?.receipt?.id;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={
          <Space>
            <span data-testid="invoice-number">{invoice.name}</span>
            <Tag color={TONE_COLOURS[INVOICE_STATUS_TONES[invoice.invoiceStatus]]} data-testid="invoice-status">
              {INVOICE_STATUS_LABELS[invoice.invoiceStatus]}
            </Tag>
          </Space>
        }
        extra={
          <Space>
            {canPay && !voided && (
              <Button type="primary" onClick={() => setPaying(true)}>
                Record payment
              </Button>
            )}
            {canCreditOverpaid && invoice.invoiceStatus === "overpaid" && lastReceipt && <OverpaidCreditNoteButton receiptId={lastReceipt} onDone={refresh} />}
            {canVoid && !voided && live.length === 0 && (
              <Button danger onClick={() => setVoiding({ kind: "invoice" })}>
                Void invoice
              </Button>
            )}
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label="Student">{student ? `${student.fullName ?? ""}${student.studentId ? ` (${student.studentId})` : ""}` : "--"}</Descriptions.Item>
          <Descriptions.Item label="Payment Advice">
            <Link to={`/finance/payment-advice/edit/${pa.id}`}>{pa.name ?? "Draft"}</Link>
          </Descriptions.Item>
          <Descriptions.Item label="Invoice Date">{formatCalendarDay(invoice.invoiceDate, DISPLAY_DATE_FORMAT)}</Descriptions.Item>
          <Descriptions.Item label="Due Date">{formatCalendarDay(pa.dueDate, DISPLAY_DATE_FORMAT)}</Descriptions.Item>
          <Descriptions.Item label="Total">{formatMoneyValue(invoice.total)}</Descriptions.Item>
          <Descriptions.Item label="Amount Received">{formatMoneyValue(invoice.paidAmount)}</Descriptions.Item>
          <Descriptions.Item label="Balance Due">
            <strong data-testid="balance-due">{formatMoneyValue(data.balanceDue)}</strong>
          </Descriptions.Item>
          {numericToCents(data.overpaid)! > 0 && <Descriptions.Item label="Overpaid">{formatMoneyValue(data.overpaid)}</Descriptions.Item>}
          {voided && <Descriptions.Item label="Void reason">{invoice.reasons}</Descriptions.Item>}
        </Descriptions>
      </Card>
      <Card title="Payments">
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={payments}
          columns={[
            { title: "Date", dataIndex: "paymentDate", render: (v: string) => formatCalendarDay(v, DISPLAY_DATE_FORMAT) },
            { title: "Method", key: "method", render: (_: unknown, p: InvoiceDetail["payments"][number]) => `${paymentMethodLabel(p)}${p.creditNoteName ? ` ${p.creditNoteName}` : ""}` },
            { title: "Reference No.", dataIndex: "referenceNo", render: (v: string | null) => v ?? "--" },
            { title: "Amount", dataIndex: "amount", align: "right" as const, render: (v: string) => formatMoneyValue(v) },
            {
              title: "Receipt",
              key: "receipt",
              render: (_: unknown, p: InvoiceDetail["payments"][number]) =>
                p.receipt ? (
                  <Space>
                    <Link to={`/finance/receipt/${invoice.id}/${p.receipt.id}`}>{p.receipt.name}</Link>
                    {p.receipt.status === "voided" && <Tag title={p.receipt.voidReason ?? undefined}>Voided</Tag>}
                  </Space>
                ) : (
                  "--"
                ),
            },
            {
              title: "Actions",
              key: "actions",
              render: (_: unknown, p: InvoiceDetail["payments"][number]) =>
                canVoidPayment && p.receipt && p.receipt.status !== "voided" ? (
                  <Button size="small" danger onClick={() => setVoiding({ kind: "receipt", id: p.receipt!.id, name: p.receipt!.name })}>
                    Void
                  </Button>
                ) : null,
            },
          ]}
        />
      </Card>
      {/* keyed by the balance: after each payment the dialog starts again from what is left to pay */}
      <RecordPaymentDialog key={data.balanceDue} open={paying} detail={data} onClose={() => setPaying(false)} onDone={refresh} />
      <VoidDialog target={voiding} invoiceId={invoice.id} onClose={() => setVoiding(null)} onDone={refresh} />
    </Space>
  );
}

interface PaymentForm { amount: Cents | null; paymentMethod: PaymentMethod; cardType?: string; paymentDate: Dayjs | null; referenceNo?: string; creditNoteId?: string }

function RecordPaymentDialog({ open, detail, onClose, onDone }: { open: boolean; detail: InvoiceDetail; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<PaymentForm>();
  const [saving, setSaving] = useState(false);
  const method = Form.useWatch("paymentMethod", form);
  const creditNotes = useCreditNotes(detail.student?.id, open && method === "credit_note");
  // The server's bounds (FINANCE.md §1), shown before sending; the server checks them again.
  const amountWithinBound = {
    validator: async (_: unknown, v: Cents | null) => {
      if (v !== null && v > MAX_DOCUMENT_CENTS) throw new Error(BOUND_MESSAGES.payment);
    },
  };
  const dateInWindow = {
    validator: async (_: unknown, v: Dayjs | null) => {
      const error = v ? paymentDateError(v.format(DATE_FORMAT), detail.paymentAdvice.issueDate, todayInSingapore()) : null;
      if (error) throw new Error(error);
    },
  };
  const submit = async (values: PaymentForm) => {
    setSaving(true);
    try {
      const body = { ...values, amount: values.amount === null ? "" : centsToNumeric(values.amount), paymentDate: values.paymentDate?.format(DATE_FORMAT) };
      const res = await api<{ receipt: { name: string } }>("POST", `/finances/invoices/${detail.invoice.id}/payments`, body);
      void toast.success(`Payment recorded: receipt ${res.data!.receipt.name}.`);
      form.resetFields();
      onClose();
      onDone();
    } catch (err) {
      form.setFields(rejectionFieldErrors(err) as Parameters<typeof form.setFields>[0]);
      void toast.error(rejectionMessage(err, "The payment could not be recorded."));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal title="Record payment" open={open} onCancel={onClose} onOk={() => form.submit()} okText="Record" confirmLoading={saving} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ paymentMethod: "cash", amount: numericToCents(detail.balanceDue) || null }}>
        <Form.Item name="amount" label="Amount" rules={[{ required: true, message: "Please enter the amount." }, amountWithinBound]}>
          <MoneyInput aria-label="Amount" />
        </Form.Item>
        <Form.Item name="paymentMethod" label="Payment Method" rules={[{ required: true, message: "Please select the payment method." }]}>
          <Select aria-label="Payment Method" options={PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))} />
        </Form.Item>
        {method === "credit_card" && (
          <Form.Item name="cardType" label="Card Type" rules={[{ required: true, message: "Please select the card type." }]}>
            <Select aria-label="Card Type" options={CARD_TYPES.map((c) => ({ value: c, label: CARD_TYPE_LABELS[c] }))} />
          </Form.Item>
        )}
        {method === "credit_note" && (
          <Form.Item name="creditNoteId" label="Credit Note" rules={[{ required: true, message: "Please select a credit note." }]}>
            <Select aria-label="Credit Note" loading={creditNotes.loading} options={creditNotes.choices.map((c) => ({ value: c.id, label: `${c.name} (${formatMoney(c.left)} left)` }))} />
          </Form.Item>
        )}
        <Form.Item name="paymentDate" label="Payment Date" rules={[dateInWindow]}>
          <DateInput format={DATE_FORMAT} style={{ width: "100%" }} placeholder={todayInSingapore()} />
        </Form.Item>
        <Form.Item name="referenceNo" label="Reference No.">
          <Input aria-label="Reference No." maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function VoidDialog({ target, invoiceId, onClose, onDone }: { target: { kind: "invoice" } | { kind: "receipt"; id: string; name: string } | null; invoiceId: string; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async ({ reason }: { reason: string }) => {
    if (!target) return;
    setSaving(true);
    try {
      await api("POST", target.kind === "invoice" ? `/finances/invoices/${invoiceId}/void` : `/finances/receipts/${target.id}/void`, { reason });
      void toast.success(target.kind === "invoice" ? "The invoice was voided." : `Receipt ${target.name} was voided.`);
      form.resetFields();
      onClose();
      onDone();
    } catch (err) {
      form.setFields(rejectionFieldErrors(err) as Parameters<typeof form.setFields>[0]);
      void toast.error(rejectionMessage(err, "It could not be voided."));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title={target?.kind === "receipt" ? `Void receipt ${target.name}` : "Void invoice"}
      open={target !== null}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="Void"
      okButtonProps={{ danger: true }}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="reason" label="Reason" rules={[{ required: true, whitespace: true, message: "Please enter the reason." }]}>
          <Input.TextArea aria-label="Reason" rows={3} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Overpaid: what was paid beyond the total becomes a credit note for finance approval (FINANCE.md §4). */
function OverpaidCreditNoteButton({ receiptId, onDone }: { receiptId: string; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const reply = await api<{ summary: { total: string } }>("POST", "/credit-notes", { type: "overpaid", receiptId });
          void toast.success(`Overpaid credit note of ${formatMoneyValue(reply.data!.summary.total)} created: awaiting finance approval.`);
          onDone();
        } catch (err) {
          void toast.error(rejectionMessage(err, "The credit note could not be created."));
        } finally {
          setBusy(false);
        }
      }}
    >
      Create overpaid credit note
    </Button>
  );
}
