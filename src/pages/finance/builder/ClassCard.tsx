/**
 * One class card of the builder (spec part 2 §2, §4, §5): status tag, delete, lesson start date (regular and
 * double lesson classes; changing it resets the terms; earlier terms cannot be chosen), the term table,
 * discounts (once the issue date is set; eligible on it; each once), additional lessons (≥ 0), additional
 * discount, other payments, deductions, deposits, deduct deposit, and the card's totals from the preview.
 */
import { Alert, Button, Card, Checkbox, Col, Descriptions, Form, InputNumber, Row, Select, Skeleton, Space, Switch, Table, Tag, Typography } from "antd";
import { DateInput } from "../../../framework/inputs/DateInputs.tsx";
import { DeleteOutlined } from "@ant-design/icons";
import type { FormInstance } from "antd";
import { MoneyInput } from "../../../framework/inputs/MoneyInput.tsx";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../../domain/dates.ts";
import { centsToNumeric, formatMoney, numericToCents, type Cents } from "../../../domain/money.ts";
import { billedLessons, isTermSelectable, isTermless, type ClassCardTotals } from "../../../domain/finance/classCard.ts";
import { eligibleDiscounts } from "../../../domain/finance/discounts.ts";
import { AmountRows } from "./AmountRows.tsx";
import type { CardClass, NamedDiscount, PaidDeposit } from "./builderData.ts";
import type { CardValues } from "./builderForm.ts";

export const CLASS_STATUS_TAGS: Record<string, { label: string; color: string }> = {
  closed: { label: "Closed Class", color: "default" },
  new: { label: "New Class", color: "blue" },
  open: { label: "Open Class", color: "green" },
};

const negative = (c: Cents) => formatMoney(c === 0 ? 0 : -c);

export interface ClassCardProps {
  form: FormInstance;
  index: number;
  values: CardValues | undefined;
  cls: CardClass | undefined;
  error: string | undefined;
  totals: ClassCardTotals | undefined;
  issueDate: string | null;
  discounts: readonly NamedDiscount[];
  paidDeposits: readonly PaidDeposit[];
  boosterOptions: readonly { id: string; name: string }[];
  depositAmount: Cents;
  disabled: boolean;
  onRemove: () => void;
}

export function ClassCard({ form, index, values, cls, error, totals, issueDate, discounts, paidDeposits, boosterOptions, depositAmount, disabled, onRemove }: ClassCardProps) {
  // Inside the cards' Form.List item names are relative to it; setFieldValue takes the whole path.
  const path = (k: string) => [index, k];
  const fullPath = (k: string) => ["classInformations", index, k];
  if (!cls) {
    return (
      <Card size="small" extra={!disabled && <Button type="text" danger icon={<DeleteOutlined />} aria-label="Delete class" onClick={onRemove} />}>
        {error ? <Alert type="error" message={error} /> : <Skeleton active paragraph={{ rows: 3 }} />}
      </Card>
    );
  }
  const termless = isTermless(cls.classType);
  const lessonStart = values?.lessonStartDate ? values.lessonStartDate.format("YYYY-MM-DD") : null;
  const termIds = values?.termIds ?? [];
  // At least one term before discounts, extras and lesson inputs (special/others: an empty term is set).
  const termsChosen = termless || termIds.length > 0;
  const tag = CLASS_STATUS_TAGS[cls.classStatus];
  const discountOptions = eligibleDiscounts(discounts, issueDate).map((d) => ({ value: d.id, label: `${d.name} (${d.unit === "percent" ? `${centsToNumeric(d.value)}%` : formatMoney(d.value)})` }));
  const lessonsOfTerm = (termId: string) => billedLessons({ classType: cls.classType, lessonStartDate: lessonStart, termIds: [termId], lessons: cls.lessons }).length;
  const line = (termId: string) => totals?.termLines.find((t) => t.id === termId);

  return (
    <Card
      size="small"
      data-testid="class-card"
      title={
        <Space wrap>
          <span>{cls.name}</span>
          {tag && <Tag color={tag.color}>{tag.label}</Tag>}
          {cls.programName && <Typography.Text type="secondary">{cls.programName}</Typography.Text>}
        </Space>
      }
      extra={!disabled && <Button type="text" danger icon={<DeleteOutlined />} aria-label="Delete class" onClick={onRemove} />}
    >
      <Form.Item name={path("id")} hidden>
        <input />
      </Form.Item>
      {!termless && (
        <Form.Item name={path("lessonStartDate")} label="Lesson Start Date" rules={[{ required: true, message: "Please input lesson start date!" }]}>
          <DateInput
            disabled={disabled}
            onChange={() => {
              // A new lesson start date resets the chosen terms (spec part 2 §4).
              form.setFieldValue(fullPath("termIds"), []);
            }}
          />
        </Form.Item>
      )}
      {!termless && (
        <Form.Item name={path("termIds")} label="Terms" style={{ marginBottom: 12 }}>
          <TermTable
            terms={cls.terms.map((t) => ({
              ...t,
              selectable: Boolean(lessonStart) && isTermSelectable(t, lessonStart),
              lessons: lessonsOfTerm(t.id),
              line: line(t.id),
            }))}
            disabled={disabled}
          />
        </Form.Item>
      )}
      {termless && (
        <Typography.Paragraph type="secondary">
          {totals ? `${totals.lessons} lesson(s) from ${formatCalendarDay(totals.period?.startDate ?? null, DISPLAY_DATE_FORMAT) || "--"}` : ""}
        </Typography.Paragraph>
      )}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name={path("discountIds")} label="Discount" extra={issueDate ? undefined : "Select the issue date to add discounts."}>
            <Select mode="multiple" allowClear showSearch optionFilterProp="label" placeholder="Discount" options={discountOptions} disabled={disabled || !issueDate || !termsChosen} />
          </Form.Item>
          {totals && totals.discounts.length > 0 && (
            <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
              {totals.discounts.map((d) => (
                <Descriptions.Item key={d.id} label={d.name ?? ""}>
                  {negative(d.amount)}
                </Descriptions.Item>
              ))}
            </Descriptions>
          )}
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={path("quantityAdditionalLesson")} label="Additional Lesson" rules={[{ type: "integer", min: 0, message: "Additional lesson must be a number of at least 0." }]}>
            <InputNumber min={0} precision={0} style={{ width: "100%" }} disabled={disabled || !termsChosen} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={path("additionalDiscount")} label="Additional Discount">
            <MoneyInput placeholder="S$00.00" disabled={disabled || !termsChosen} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name={path("booterClassIds")} label="Booster Lessons">
        <Select mode="multiple" allowClear showSearch optionFilterProp="label" placeholder="Booster Lessons" disabled={disabled || !termsChosen} options={boosterOptions.map((b) => ({ value: b.id, label: b.name }))} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} lg={8}>
          <AmountRows name={[index, "otherPayments"]} title="Other Payments" addLabel="Add Other Payment" disabled={disabled || !termsChosen} />
        </Col>
        <Col xs={24} lg={8}>
          <AmountRows name={[index, "deductions"]} title="Deduction" addLabel="Add Deduction" negative disabled={disabled || !termsChosen} />
        </Col>
        <Col xs={24} lg={8}>
          <AmountRows name={[index, "deposits"]} title="Deposit" addLabel="Add Deposit" disabled={disabled || !termsChosen} defaults={{ name: "Deposit", amount: depositAmount }} />
        </Col>
      </Row>
      <Space align="start" wrap style={{ marginTop: 12 }}>
        <Form.Item name={path("isDeductedDeposit")} label="Deduct Deposit" valuePropName="checked">
          <Switch disabled={disabled || !termsChosen || paidDeposits.length === 0} />
        </Form.Item>
        {values?.isDeductedDeposit && (
          <Form.Item name={path("deductedDepositIds")} label="Deposits to deduct" style={{ minWidth: 280 }}>
            <Select mode="multiple" disabled={disabled} options={paidDeposits.map((d) => ({ value: d.id, label: `${d.name} (${formatMoney(numericToCents(d.amount) ?? 0)})` }))} />
          </Form.Item>
        )}
      </Space>
      {totals && (
        <Descriptions size="small" bordered column={{ xs: 1, sm: 2, md: 3 }} data-testid="class-totals">
          <Descriptions.Item label="Lessons">{totals.lessons}</Descriptions.Item>
          <Descriptions.Item label="Price per Lesson">{formatMoney(totals.unitPrice)}</Descriptions.Item>
          <Descriptions.Item label="Class Fee">{formatMoney(totals.classBase)}</Descriptions.Item>
          <Descriptions.Item label="Additional Lessons">{formatMoney(totals.additional)}</Descriptions.Item>
          <Descriptions.Item label="Booster Lessons">{formatMoney(totals.boosters)}</Descriptions.Item>
          <Descriptions.Item label="Total Discount">{negative(totals.totalDiscount)}</Descriptions.Item>
          <Descriptions.Item label="Total">
            <strong data-testid="class-total">{formatMoney(totals.classTotal)}</strong>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

interface TermRow {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  selectable: boolean;
  lessons: number;
  line: { lessons: number; pricing: Cents; total: Cents } | undefined;
}

/** The term table as a form control: value = chosen term ids. */
function TermTable({ terms, value, onChange, disabled }: { terms: TermRow[]; value?: string[]; onChange?: (ids: string[]) => void; disabled: boolean }) {
  const chosen = value ?? [];
  return (
    <Table<TermRow>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={terms}
      data-testid="term-table"
      columns={[
        {
          title: "",
          key: "pick",
          width: 48,
          render: (_v, t) => (
            <Checkbox
              aria-label={`Term ${t.name}`}
              checked={chosen.includes(t.id)}
              disabled={disabled || !t.selectable}
              onChange={(e) => onChange?.(e.target.checked ? [...chosen, t.id] : chosen.filter((x) => x !== t.id))}
            />
          ),
        },
        { title: "Term", key: "name", render: (_v, t) => t.name },
        { title: "Start Date", key: "start", render: (_v, t) => formatCalendarDay(t.startDate, DISPLAY_DATE_FORMAT) },
        { title: "End Date", key: "end", render: (_v, t) => formatCalendarDay(t.endDate, DISPLAY_DATE_FORMAT) },
        { title: "Lessons", key: "lessons", render: (_v, t) => (t.selectable ? (t.line?.lessons ?? t.lessons) : "") },
        { title: "Price per Lesson", key: "pricing", render: (_v, t) => (t.line ? formatMoney(t.line.pricing) : "") },
        { title: "Total", key: "total", render: (_v, t) => (t.line ? formatMoney(t.line.total) : "") },
      ]}
    />
  );
}
