/** A searchable select over another resource: one id, or many; optionally only the rows a `where` admits. */
import { Select } from "antd";
import { useSelect } from "@refinedev/antd";
import { useMany, type BaseKey } from "@refinedev/core";
import { useMemo, type CSSProperties } from "react";
import { parse, type DocumentNode } from "graphql";
import { findResource, relationLabelField } from "../registry.ts";

export interface RelationSelectProps {
  target: string;
  labelField?: string;
  /** A Hasura boolean expression the options must match (the field's `where`). */
  where?: Readonly<Record<string, unknown>>;
  many?: boolean;
  value?: BaseKey | BaseKey[] | null;
  onChange?: (value: BaseKey | BaseKey[] | null) => void;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  /** Each option also names its record's company ("A Level (Best Maths Education)"): targets kept per company. */
  withCompany?: boolean;
  style?: CSSProperties;
}

type OptionRecord = Record<string, unknown> & { id?: BaseKey; company?: { name?: string } | null };

const optionQueries = new Map<string, DocumentNode>();

/**
 * The options query of a target with a fixed `where`: the data provider ANDs `meta.gqlVariables.where`
 * with the select's own filters (search text, not deleted) only for a query given as a document.
 */
export function relationOptionsQuery(target: string, label: string, selection = label): DocumentNode {
  const key = `${target}.${selection}`;
  let doc = optionQueries.get(key);
  if (!doc) {
    doc = parse(`query RelationOptions($limit: Int, $offset: Int, $order_by: [${target}_order_by!], $where: ${target}_bool_exp) {
      ${target}(limit: $limit, offset: $offset, order_by: $order_by, where: $where) { id ${selection} }
      ${target}_aggregate(where: $where) { aggregate { count } }
    }`);
    optionQueries.set(key, doc);
  }
  return doc;
}

export function RelationSelect({ target, labelField, where, many, value, onChange, disabled, placeholder, id, withCompany, style }: RelationSelectProps) {
  const label = relationLabelField(target, labelField);
  const fields = withCompany ? ["id", label, { company: ["name"] }] : ["id", label];
  const optionText = (r: OptionRecord) => {
    const text = String(r[label] ?? r.id);
    return withCompany && r.company?.name ? `${text} (${r.company.name})` : text;
  };
  const softDelete = findResource(target)?.softDelete ?? false;
  const { selectProps } = useSelect({
    resource: target,
    optionLabel: optionText as never,
    optionValue: "id" as never,
    filters: softDelete ? [{ field: "status", operator: "ne", value: "deleted" }] : [],
    sorters: [{ field: label, order: "asc" }],
    onSearch: (text) => [{ field: label, operator: "contains", value: text }],
    pagination: { pageSize: 20 },
    meta: where
      ? { gqlQuery: relationOptionsQuery(target, label, withCompany ? `${label} company { name }` : label), gqlVariables: { where: { _and: [where] } } }
      : { fields: fields as never },
    debounce: 300,
  });
  // The chosen records' labels come without the options' `where`: a saved choice the filter no longer
  // admits (a tutor who lost the tutor role, a deleted company) still shows its name, not its id.
  const chosen = useMemo(() => (value == null ? [] : Array.isArray(value) ? value : [value]).map(String).sort(), [value]);
  const { result: chosenRecords } = useMany({ resource: target, ids: chosen, meta: { fields: fields as never }, queryOptions: { enabled: chosen.length > 0 } });
  const options = useMemo(() => {
    const listed = selectProps.options ?? [];
    const have = new Set(listed.map((o) => String(o.value)));
    const extra = (chosenRecords.data ?? []).filter((r) => !have.has(String(r.id))).map((r) => ({ value: r.id as BaseKey, label: optionText(r as OptionRecord) }));
    return extra.length ? [...extra, ...listed] : listed;
  }, [selectProps.options, chosenRecords.data, label, withCompany]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Select
      {...selectProps}
      options={options as never}
      id={id}
      allowClear
      mode={many ? "multiple" : undefined}
      disabled={disabled}
      placeholder={placeholder}
      style={style}
      value={(value ?? undefined) as never}
      onChange={((v: unknown) => onChange?.((v as BaseKey | BaseKey[] | undefined) ?? (many ? [] : null))) as never}
    />
  );
}
