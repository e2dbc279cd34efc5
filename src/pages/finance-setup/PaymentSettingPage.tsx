/**
 * /finance/payment-setting: the system settings by type, each value edited in its own small form —
 * the registration fee and its waiver period (type fee), the deposit settings (type deposit), GST,
 * payment notes. Amounts use the S$ currency input and are stored as two-decimal strings; days as
 * YYYY-MM-DD. Saving changes only the setting's value (and updatedBy, set by the server).
 */
import { Button, Card, Col, Descriptions, Empty, Form, Input, Row, Select, Space, Spin } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { useCan, useCreate, useInvalidate, useList, useUpdate } from "@refinedev/core";
import { useState } from "react";
import type { Dayjs } from "dayjs";
import { MoneyInput } from "../../framework/inputs/MoneyInput.tsx";
import { centsToNumeric, formatMoney, numericToCents } from "../../domain/money.ts";
import { DATE_FORMAT, DISPLAY_DATE_FORMAT, dayjs } from "../../domain/dates.ts";
import { endsBeforeStart, notBeforeMessage } from "../../domain/validators.ts";
import { parseReminderSchedule, REMINDER_MESSAGES, REMINDER_SETTING_KEY } from "../../domain/finance/reminders.ts";
import { ACCOUNT_CODE_SETTING_KEY, accountCodesFrom, DEFAULT_ACCOUNT_CODES, DEFAULT_TAX_RATE } from "../../domain/finance/accountingExport.ts";

type Json = Record<string, unknown>;
interface Setting {
  id: string;
  key: string;
  type: string;
  value: Json | null;
  companyId: string | null;
  company?: { name: string } | null;
}

export const GST_CHOICES = [0, 7, 8, 9] as const;
const TITLES: Record<string, string> = {
  registrationFee: "Registration Fee",
  waivePeriod: "Registration Fee Waiver Period",
  depositSettings: "Deposit Settings",
  materialFee: "Material Fee",
  lateFee: "Late Payment Fee",
  gst: "GST",
  paymentNotes: "Payment Notes",
  fee: "Fee Settings",
  reminderSchedule: "Payment Reminders",
  ledgerAccountCodes: "Ledger Account Codes",
};
/** Settings the page offers to create when the database has none. */
const REQUIRED: { key: string; type: string; value: Json }[] = [
  { key: "registrationFee", type: "fee", value: { amount: "0.00" } },
  { key: "waivePeriod", type: "fee", value: { startDate: null, endDate: null } },
  { key: "depositSettings", type: "deposit", value: { amount: "0.00" } },
  // issue 39: overdue reminders (days after the due date) and the ledger's account codes for the accounting export
  { key: REMINDER_SETTING_KEY, type: "payment", value: { days: "3,10" } },
  { key: ACCOUNT_CODE_SETTING_KEY, type: "accounting", value: { ...DEFAULT_ACCOUNT_CODES, taxRate: DEFAULT_TAX_RATE } },
];

/** A setting's value → form values (amounts in cents, days as dayjs). */
function toForm(value: Json): Json {
  const out: Json = { ...value };
  for (const [k, v] of Object.entries(value)) {
    if (k === "amount") out[k] = numericToCents(v as string);
    if ((k === "startDate" || k === "endDate") && v) out[k] = dayjs(String(v), DATE_FORMAT);
  }
  return out;
}
function fromForm(values: Json): Json {
  const out: Json = { ...values };
  for (const [k, v] of Object.entries(values)) {
    if (k === "amount") out[k] = typeof v === "number" ? centsToNumeric(v) : "0.00";
    if (k === "startDate" || k === "endDate") out[k] = v ? (v as Dayjs).format(DATE_FORMAT) : null;
  }
  return out;
}

/** Section titles by setting type. */
const TYPE_TITLES: Record<string, string> = { fee: "Fees", deposit: "Deposit", gst: "GST", payment: "Payment Notes", accounting: "Accounting" };
/** Labels of the values inside a setting, in the order a person reads them (a period's start before its end). */
const VALUE_LABELS: Record<string, string> = {
  amount: "Amount",
  per: "Charged Per",
  startDate: "Start Date",
  endDate: "End Date",
  percentage: "GST (%)",
  default: "Default GST (%)",
  options: "GST Choices",
  notes: "Notes",
  description: "Description",
  days: "Days After Due Date",
};
const VALUE_ORDER = Object.keys(VALUE_LABELS);
const humanise = (key: string) => key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());
const valueLabel = (key: string) => VALUE_LABELS[key] ?? humanise(key);
const orderedKeys = (value: Json) =>
  Object.keys(value).sort((a, b) => (VALUE_ORDER.indexOf(a) + 1 || 99) - (VALUE_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
const gstLabel = (g: number) => (g === 0 ? "No GST (0)" : `${g}%`);
const day = (v: unknown) => dayjs(String(v)).format(DISPLAY_DATE_FORMAT);

/** The setting in words: "S$10.00 per week", "from 15/11/2026 to 31/12/2026", "9% (choices: No GST (0), 7%, 8%, 9%)". */
function describe(value: Json | null): string {
  if (!value) return "";
  const parts: string[] = [];
  if (value.amount !== undefined) parts.push(formatMoney(numericToCents(value.amount as string) ?? 0) + (value.per ? ` per ${String(value.per)}` : ""));
  if (value.startDate || value.endDate) parts.push(`from ${value.startDate ? day(value.startDate) : "--"} to ${value.endDate ? day(value.endDate) : "--"}`);
  if (typeof value.percentage === "number") parts.push(gstLabel(value.percentage));
  if (Array.isArray(value.options)) parts.push(`(choices: ${(value.options as number[]).map(gstLabel).join(", ")})`);
  return parts.join(" ");
}

function SettingEditor({ setting }: { setting: Setting }) {
  // the row decides too: finance_staff edits every setting but the ledger's account codes (access/policy.csv)
  const { data: can } = useCan({ resource: "system_settings", action: "edit", params: { row: { key: setting.key, type: setting.type, companyId: setting.companyId } } });
  const canEdit = Boolean(can?.can);
  const [form] = Form.useForm();
  const { mutateAsync } = useUpdate();
  const invalidate = useInvalidate();
  const [saving, setSaving] = useState(false);
  const value = setting.value ?? {};
  const keys = orderedKeys(value);
  const onFinish = async (values: Json) => {
    if (endsBeforeStart(values.endDate as Dayjs | undefined, values.startDate as Dayjs | undefined)) {
      form.setFields([{ name: "endDate", errors: [notBeforeMessage("End date", "Start date")] }]);
      return;
    }
    if (setting.key === REMINDER_SETTING_KEY && parseReminderSchedule(values.days as string) === null) {
      form.setFields([{ name: "days", errors: [REMINDER_MESSAGES.badSchedule] }]);
      return;
    }
    const codes = setting.key === ACCOUNT_CODE_SETTING_KEY ? accountCodesFrom(values) : null;
    if (codes && "error" in codes) {
      void toast.error(codes.error);
      return;
    }
    setSaving(true);
    try {
      const saved = await mutateAsync({
        resource: "system_settings",
        id: setting.id,
        values: { value: { ...value, ...fromForm(values) } },
        meta: { fields: ["id", "value"] },
        successNotification: false,
        errorNotification: false,
      });
      // a row the caller's policy line does not admit (finance_staff and the account codes) is left as it was
      if (!saved?.data) {
        void toast.error(`You are not allowed to change ${TITLES[setting.key] ?? setting.key}.`);
        return;
      }
      void toast.success(`${TITLES[setting.key] ?? setting.key} saved.`);
      await invalidate({ resource: "system_settings", invalidates: ["list"] });
    } catch (err) {
      console.error("[payment-setting] save failed", err);
    } finally {
      setSaving(false);
    }
  };
  const title = TITLES[setting.key] ?? setting.key;
  return (
    <Card size="small" title={title} data-testid={`setting-${setting.key}${setting.companyId ? `-${setting.companyId}` : ""}`}>
      {setting.company?.name && <p>Company: {setting.company.name}</p>}
      <Form form={form} layout="vertical" initialValues={toForm(value)} onFinish={onFinish} disabled={!canEdit} aria-label={title}>
        {keys.map((k) => {
          if (k === "amount")
            return (
              <Form.Item key={k} name={k} label="Amount" rules={[{ required: true, message: "Amount is required." }]}>
                <MoneyInput aria-label={`${title} amount`} />
              </Form.Item>
            );
          if (k === "startDate" || k === "endDate")
            return (
              <Form.Item key={k} name={k} label={valueLabel(k)}>
                <DateInput aria-label={`${title} ${k === "startDate" ? "start date" : "end date"}`} style={{ width: "100%" }} />
              </Form.Item>
            );
          if (k === "percentage" || k === "default")
            return (
              <Form.Item key={k} name={k} label={valueLabel(k)}>
                <Select options={GST_CHOICES.map((g) => ({ value: g, label: gstLabel(g) }))} />
              </Form.Item>
            );
          if (typeof value[k] === "string")
            return (
              <Form.Item key={k} name={k} label={valueLabel(k)}>
                {k === "notes" || k === "description" ? <Input.TextArea rows={3} /> : <Input />}
              </Form.Item>
            );
          return (
            <Descriptions key={k} size="small" column={1}>
              <Descriptions.Item label={valueLabel(k)}>{k === "options" && Array.isArray(value[k]) ? (value[k] as number[]).map(gstLabel).join(", ") : JSON.stringify(value[k])}</Descriptions.Item>
            </Descriptions>
          );
        })}
        {canEdit && (
          <Button type="primary" htmlType="submit" loading={saving}>
            Save
          </Button>
        )}
      </Form>
      <p style={{ marginTop: 8, color: "#888" }}>{describe(setting.value)}</p>
    </Card>
  );
}

export default function PaymentSettingPage() {
  const { data: canCreate } = useCan({ resource: "system_settings", action: "create" });
  const { mutateAsync: create } = useCreate();
  const { result, query } = useList<Setting>({
    resource: "system_settings",
    filters: [{ field: "status", operator: "ne", value: "deleted" }],
    sorters: [{ field: "type", order: "asc" }],
    pagination: { mode: "off" },
    meta: { fields: ["id", "key", "type", "value", "companyId", "parentId", { company: ["id", "name"] }] },
    queryOptions: { retry: false },
  });
  if (query.isLoading) return <Spin size="large" />;
  const settings = (result?.data ?? []).filter((s) => s.key !== "fee" || Object.keys(s.value ?? {}).some((k) => k !== "description"));
  const types = [...new Set(settings.map((s) => s.type))];
  const missing = REQUIRED.filter((r) => !settings.some((s) => s.key === r.key && !s.companyId));
  return (
    <Card title="Payment Setting">
      {settings.length === 0 && <Empty />}
      {missing.length > 0 && canCreate?.can && (
        <Space style={{ marginBottom: 16 }}>
          {missing.map((m) => (
            <Button key={m.key} onClick={() => void create({ resource: "system_settings", values: m, meta: { fields: ["id"] }, successNotification: false }).then(() => query.refetch())}>
              Add {TITLES[m.key]}
            </Button>
          ))}
        </Space>
      )}
      {types.map((type) => (
        <div key={type} style={{ marginBottom: 24 }}>
          <h3>{TYPE_TITLES[type] ?? humanise(type)}</h3>
          <Row gutter={[16, 16]}>
            {settings
              .filter((s) => s.type === type)
              .map((s) => (
                <Col key={s.id} xs={24} md={12} xl={8}>
                  <SettingEditor setting={s} />
                </Col>
              ))}
          </Row>
        </div>
      ))}
    </Card>
  );
}
