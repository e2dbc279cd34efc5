/**
 * How each field kind is edited in forms: the input Form.Item wraps, or a whole form block (rows of amounts).
 * Only form pages import this (a list page draws no editor: issue 20); values are decoded and encoded by
 * KINDS in kinds.tsx.
 */
import type { ReactNode } from "react";
import { Button, Form, Input, Select, Space, Switch, type FormRule as Rule } from "antd";
import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { TIME_FORMAT, TIME_DATE_FORMAT } from "../domain/dates.ts";
import { PhoneInput } from "./inputs/PhoneInput.tsx";
import {
  DateInput, NumberInput, LazyFilesUpload, LazyMediaUpload, LazyMoneyInput as MoneyInput, LazyRelationSelect as RelationSelect,
  LazyRichTextInput, TimeInput,
} from "./inputs/lazyInputs.tsx";
import { enumOptions } from "./kinds.tsx";
import type { FieldKind, ResolvedField } from "./types.ts";

export interface InputContext {
  disabled: boolean;
  folder: string;
}

export interface KindInput {
  /** The form input (Form.Item gives it value/onChange). */
  input(field: ResolvedField, ctx: InputContext): ReactNode;
  /** Form.Item's valuePropName (Switch uses "checked"). */
  valuePropName?: string;
  /** A whole form block instead of Form.Item + input (lists of rows). */
  formItem?(field: ResolvedField, rules: Rule[], ctx: InputContext): ReactNode;
}

const textInput: KindInput = { input: (f, c) => <Input disabled={c.disabled} placeholder={f.placeholder} /> };

export const KIND_INPUTS: Record<FieldKind, KindInput> = {
  text: textInput,
  email: { input: (f, c) => <Input type="email" disabled={c.disabled} placeholder={f.placeholder} /> },
  longText: { input: (f, c) => <Input.TextArea rows={4} disabled={c.disabled} placeholder={f.placeholder} /> },
  richText: { input: (f, c) => <LazyRichTextInput readOnly={c.disabled} placeholder={f.placeholder} /> },
  number: {
    input: (f, c) => (
      <NumberInput style={{ width: "100%" }} disabled={c.disabled} min={f.kind === "number" ? f.min : undefined} max={f.kind === "number" ? f.max : undefined} precision={f.kind === "number" && f.integer === false ? undefined : 0} />
    ),
  },
  money: { input: (f, c) => <MoneyInput disabled={c.disabled} placeholder={f.placeholder} /> },
  date: { input: (_f, c) => <DateInput disabled={c.disabled} style={{ width: "100%" }} /> },
  time: { input: (_f, c) => <TimeInput format={TIME_FORMAT} disabled={c.disabled} style={{ width: "100%" }} /> },
  dateTime: { input: (_f, c) => <DateInput showTime format={TIME_DATE_FORMAT} disabled={c.disabled} style={{ width: "100%" }} /> },
  enum: { input: (f, c) => <Select disabled={c.disabled} allowClear options={enumOptions(f)} placeholder={f.placeholder} /> },
  boolean: { valuePropName: "checked", input: (_f, c) => <Switch disabled={c.disabled} /> },
  relation: {
    input: (f, c) =>
      f.kind === "relation" ? <RelationSelect target={f.target} labelField={f.labelField} where={f.where} many={f.many} disabled={c.disabled} placeholder={f.placeholder} /> : null,
  },
  image: { input: (_f, c) => <LazyMediaUpload kind="image" folder={c.folder} disabled={c.disabled} /> },
  file: { input: (_f, c) => <LazyMediaUpload kind="file" folder={c.folder} disabled={c.disabled} /> },
  files: { input: (_f, c) => <LazyFilesUpload folder={c.folder} disabled={c.disabled} /> },
  phone: { input: (_f, c) => <PhoneInput disabled={c.disabled} /> },
  amountRows: {
    input: () => null,
    formItem: (f, rules, c) => (
      <Form.Item key={f.name} label={f.label} required={Boolean(f.required)}>
        <Form.List name={f.name} rules={rules as never}>
          {(rows, { add, remove }) => (
            <>
              {rows.map((row) => (
                <Space key={row.key} align="baseline">
                  <Form.Item name={[row.name, "name"]} rules={[{ required: true, message: "Name is required." }]}>
                    <Input placeholder="Name" disabled={c.disabled} />
                  </Form.Item>
                  <Form.Item name={[row.name, "amount"]} rules={[{ required: true, message: "Amount is required." }]}>
                    <MoneyInput placeholder="Amount" disabled={c.disabled} />
                  </Form.Item>
                  {!c.disabled && <MinusCircleOutlined aria-label="Remove row" onClick={() => remove(row.name)} />}
                </Space>
              ))}
              {!c.disabled && (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: "", amount: null })}>
                  Add
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form.Item>
    ),
  },
};
