/**
 * The filter bar above a list: antd's inline form as Form and Form.Item draw it (the same elements, classes,
 * labels and ids, antd's form and grid style hooks), holding its values itself. antd's Form would bring
 * rc-field-form and its validator to every list for fields that are never validated (issue 20).
 */
import { cloneElement, isValidElement, useContext, useState, type ReactElement, type ReactNode } from "react";
import { Button, ConfigProvider, Space } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import { FormItemInputContext } from "antd/es/form/context.js";
import useFormStyle from "antd/es/form/style/index.js";
import { useColStyle, useRowStyle } from "antd/es/grid/style/index.js";
import { KINDS } from "../kinds.tsx";
import type { ResolvedField } from "../types.ts";

export type FilterValues = Record<string, unknown>;

/** The value an input's onChange reports: an event's target value (text inputs) or the value itself (selects, pickers). */
const valueOf = (event: unknown) => {
  const target = (event as { target?: unknown } | null)?.target;
  return target && typeof target === "object" && "value" in target ? (target as { value: unknown }).value : event;
};

const IN_FORM_ITEM = { isFormItemInput: true } as const;

export function FilterBar({ fields, initialValues, onSearch }: { fields: readonly ResolvedField[]; initialValues: FilterValues; onSearch: (values: FilterValues) => void }) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls("form");
  const [wrapForm, hashId, cssVarCls] = useFormStyle(prefixCls, "");
  const [wrapRow] = useRowStyle(getPrefixCls("row"));
  const [wrapCol] = useColStyle(getPrefixCls("col"));
  const [values, setValues] = useState<FilterValues>(initialValues);
  const hash = [hashId, cssVarCls].filter(Boolean).join(" ");

  const item = (key: string, control: ReactNode, label?: { text: string; htmlFor: string }) => (
    <div key={key} className={`${prefixCls}-item ${hash} ${prefixCls}-item-inline`}>
      <div className={`ant-row ${prefixCls}-item-row ${hash}`}>
        {label && (
          <div className={`ant-col ${prefixCls}-item-label ${hash}`}>
            <label htmlFor={label.htmlFor} className="" title={label.text}>
              {label.text}
            </label>
          </div>
        )}
        <div className={`ant-col ${prefixCls}-item-control ${hash}`}>
          <div className={`${prefixCls}-item-control-input`}>
            <div className={`${prefixCls}-item-control-input-content`}>{control}</div>
          </div>
        </div>
      </div>
    </div>
  );

  const input = (f: ResolvedField) => {
    const node = KINDS[f.kind].filterInput!(f);
    if (!isValidElement(node)) return node;
    const onChange = (event: unknown) => setValues((v) => ({ ...v, [f.name]: valueOf(event) }));
    return <FormItemInputContext.Provider value={IN_FORM_ITEM}>{cloneElement(node as ReactElement<Record<string, unknown>>, { id: f.name, value: values[f.name], onChange })}</FormItemInputContext.Provider>;
  };

  return wrapRow(
    wrapCol(
      wrapForm(
        <form
          aria-label="Filters"
          style={{ marginBottom: 16, rowGap: 8 }}
          className={[prefixCls, `${prefixCls}-inline`, hash].join(" ")}
          onSubmit={(e) => {
            e.preventDefault();
            onSearch(values);
          }}
        >
          {fields.map((f) => item(f.name, input(f), { text: f.label, htmlFor: f.name }))}
          {item(
            "__buttons",
            <Space>
              <Button htmlType="submit" icon={<SearchOutlined />}>
                Search
              </Button>
              <Button
                onClick={() => {
                  const cleared = Object.fromEntries(fields.map((f) => [f.name, undefined]));
                  setValues(cleared);
                  onSearch(cleared);
                }}
              >
                Reset
              </Button>
            </Space>,
          )}
        </form>,
      ),
    ),
  );
}
