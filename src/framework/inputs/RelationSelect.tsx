/** A searchable select over another resource: one id, or many. */
import { Select } from "antd";
import { useSelect } from "@refinedev/antd";
import type { BaseKey } from "@refinedev/core";
import { findResource, relationLabelField } from "../registry.ts";

export interface RelationSelectProps {
  target: string;
  labelField?: string;
  many?: boolean;
  value?: BaseKey | BaseKey[] | null;
  onChange?: (value: BaseKey | BaseKey[] | null) => void;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
}

export function RelationSelect({ target, labelField, many, value, onChange, disabled, placeholder, id }: RelationSelectProps) {
  const label = relationLabelField(target, labelField);
  const softDelete = findResource(target)?.softDelete ?? false;
  const { selectProps } = useSelect({
    resource: target,
    optionLabel: label as never,
    optionValue: "id" as never,
    defaultValue: value ?? undefined,
    filters: softDelete ? [{ field: "status", operator: "ne", value: "deleted" }] : [],
    sorters: [{ field: label, order: "asc" }],
    onSearch: (text) => [{ field: label, operator: "contains", value: text }],
    pagination: { pageSize: 20 },
    meta: { fields: ["id", label] },
    debounce: 300,
  });
  return (
    <Select
      {...selectProps}
      id={id}
      allowClear
      mode={many ? "multiple" : undefined}
      disabled={disabled}
      placeholder={placeholder}
      value={(value ?? undefined) as never}
      onChange={((v: unknown) => onChange?.((v as BaseKey | BaseKey[] | undefined) ?? (many ? [] : null))) as never}
    />
  );
}
