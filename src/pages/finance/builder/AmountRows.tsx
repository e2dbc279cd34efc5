/**
 * Other payments, deductions and deposits of a class card: rows of name and amount (spec part 2 §5:
 * 'Name is required.', 'Amount is required.'; rows validated 300 ms after typing stops, §9).
 */
import { Button, Form, Input, Space, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { MoneyInput } from "../../../framework/inputs/MoneyInput.tsx";
import type { Cents } from "../../../domain/money.ts";
import { lineBoundError } from "../../../domain/finance/bounds.ts";

export const ROW_VALIDATE_DEBOUNCE_MS = 300;

/** A row is a line: at most S$1,000,000.00 (FINANCE.md §1), shown before the server refuses it. */
const lineWithinBound = {
  validator: async (_: unknown, v: Cents | null) => {
    const error = v === null || v === undefined ? null : lineBoundError(v);
    if (error) throw new Error(error);
  },
};

export interface AmountRowsProps {
  /** Path of the list inside the card: ["classInformations", i, "deductions"] relative to Form.List. */
  name: (string | number)[];
  title: string;
  addLabel: string;
  disabled?: boolean;
  /** Amounts shown negative (deductions). */
  negative?: boolean;
  /** A new row's name and amount. */
  defaults?: { name?: string; amount?: Cents | null };
}

export function AmountRows({ name, title, addLabel, disabled, negative, defaults }: AmountRowsProps) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <Space direction="vertical" style={{ width: "100%" }} size={4}>
          <Typography.Text strong>{title}</Typography.Text>
          {fields.map((f) => (
            <Space key={f.key} align="start" wrap>
              <Form.Item name={[f.name, "name"]} rules={[{ required: true, whitespace: true, message: "Name is required." }]} validateDebounce={ROW_VALIDATE_DEBOUNCE_MS} style={{ marginBottom: 8 }}>
                <Input placeholder="Name" disabled={disabled} aria-label={`${title} name`} />
              </Form.Item>
              <Form.Item name={[f.name, "amount"]} rules={[{ required: true, message: "Amount is required." }, lineWithinBound]} validateDebounce={ROW_VALIDATE_DEBOUNCE_MS} style={{ marginBottom: 8 }}>
                <MoneyInput placeholder={negative ? "-S$00.00" : "S$00.00"} disabled={disabled} aria-label={`${title} amount`} />
              </Form.Item>
              {!disabled && <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Remove ${title}`} onClick={() => remove(f.name)} />}
            </Space>
          ))}
          {!disabled && (
            <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add({ name: defaults?.name ?? "", amount: defaults?.amount ?? null })}>
              {addLabel}
            </Button>
          )}
        </Space>
      )}
    </Form.List>
  );
}
