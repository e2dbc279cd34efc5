/**
 * The filter bar above a list: antd's inline Form, driven by the search form props of @refinedev/antd's
 * useTable (submitting sets the list's filters and goes back to page 1; the URL keeps them).
 */
import { Button, Form, Space, type FormProps } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import { KINDS } from "../kinds.tsx";
import type { ResolvedField } from "../types.ts";

export type FilterValues = Record<string, unknown>;

export function FilterBar({ fields, formProps, initialValues }: { fields: readonly ResolvedField[]; formProps: FormProps<FilterValues>; initialValues: FilterValues }) {
  const { form } = formProps;
  return (
    <Form {...formProps} initialValues={initialValues} layout="inline" style={{ marginBottom: 16, rowGap: 8 }} aria-label="Filters">
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label}>
          {KINDS[f.kind].filterInput!(f)}
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button htmlType="submit" icon={<SearchOutlined />}>
            Search
          </Button>
          <Button
            onClick={() => {
              // Reset clears every filter (not back to the values the page opened with) and searches.
              form?.setFieldsValue(Object.fromEntries(fields.map((f) => [f.name, undefined])));
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
