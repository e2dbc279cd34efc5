/**
 * The filter bar above a list: antd's inline Form, driven by the search form props of @refinedev/antd's
 * useTable (submitting sets the list's filters and goes back to page 1; the URL keeps them).
 */
import type { ReactNode } from "react";
import { Button, Form, Space, type FormProps } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import { KINDS } from "../kinds.tsx";
import type { ResolvedField } from "../types.ts";

export type FilterValues = Record<string, unknown>;

/**
 * The filter form of a list with its Search and Reset buttons: the fields are the children. Reset clears every
 * filter (not back to the values the page opened with) and searches.
 */
export function FilterForm<V extends object>({ formProps, initialValues, children }: { formProps: FormProps<V>; initialValues?: Partial<V>; children: ReactNode }) {
  const { form } = formProps;
  return (
    <Form {...formProps} initialValues={initialValues} layout="inline" style={{ marginBottom: 16, rowGap: 8 }} aria-label="Filters">
      {children}
      <Form.Item>
        <Space>
          <Button htmlType="submit" icon={<SearchOutlined />}>
            Search
          </Button>
          <Button
            onClick={() => {
              form?.setFieldsValue(Object.fromEntries(Object.keys(form.getFieldsValue(true) as object).map((name) => [name, undefined])) as Parameters<typeof form.setFieldsValue>[0]);
              form?.submit();
            }}
          >
            Reset
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

/** The filter bar of a generated list: one input per declared filter field, each by its kind. */
export function FilterBar({ fields, formProps, initialValues }: { fields: readonly ResolvedField[]; formProps: FormProps<FilterValues>; initialValues: FilterValues }) {
  return (
    <FilterForm formProps={formProps} initialValues={initialValues}>
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label}>
          {KINDS[f.kind].filterInput!(f)}
        </Form.Item>
      ))}
    </FilterForm>
  );
}
