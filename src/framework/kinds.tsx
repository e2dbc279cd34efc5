/**
 * One entry per field kind: how its value is decoded from / encoded to GraphQL, shown in a list cell,
 * on the show page and in CSV, and filtered above lists. How each kind is edited in forms is in
 * kindInputs.tsx, which only form pages load (issue 20: a list page carries no editor code).
 */
import type { ReactNode } from "react";
import { Checkbox, Input, Select, Space, Tag } from "antd";
import type { CrudFilter } from "@refinedev/core";
import type { Dayjs } from "dayjs";
import { centsToNumeric, formatMoney, numericToCents } from "../domain/money.ts";
import { formatDiscount, formatFinanceDate, formatMoneyValue } from "../domain/formats.ts";
import { DATE_FORMAT, TIME_FORMAT, dayjs, formatTimeDate, inSingapore, singaporeWallTimeToIso } from "../domain/dates.ts";
import { TextWithLinks } from "./text.tsx";
import { Text } from "./typography.tsx";
import { LazyImage } from "./LazyImage.tsx";
import { formatPhone, type Phone } from "./inputs/phone.ts";
import { FileLinks, storedFiles } from "./storedFiles.tsx";
import { DateRangeInput, NumberInput, LazyMoneyInput as MoneyInput, LazyRelationSelect as RelationSelect, LazyRichTextView as RichTextView } from "./inputs/lazyInputs.tsx";
import { downloadMediaUrl, keyPathOf } from "./media.ts";
import type { FieldKind, ResolvedField } from "./types.ts";

/** Relation labels by field name, then id. */
export type RelationLabels = Readonly<Record<string, ReadonlyMap<string, string>>>;

export interface KindBehaviour {
  /** GraphQL value → form value. */
  decode(value: unknown, field: ResolvedField): unknown;
  /** Form value → GraphQL value. */
  encode(value: unknown, field: ResolvedField): unknown;
  /** Plain text (CSV, titles); `record` is the whole row, for values shown with a sibling (a unit). */
  toText(value: unknown, field: ResolvedField, labels?: ReadonlyMap<string, string>, record?: Readonly<Record<string, unknown>>): string;
  /** List cell / show page rendering (defaults to toText with link breaking). */
  render?(value: unknown, field: ResolvedField, labels?: ReadonlyMap<string, string>, record?: Readonly<Record<string, unknown>>): ReactNode;
  /** The filter input and its translation to/from Refine's CrudFilters. */
  filterInput?(field: ResolvedField): ReactNode;
  toFilters?(field: ResolvedField, value: unknown): CrudFilter[];
  fromFilters?(field: ResolvedField, filters: readonly CrudFilter[]): unknown;
}

const identity = (v: unknown) => (v === undefined ? null : v);
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const emptyToNull = (v: unknown) => (v === "" || v === undefined ? null : v);

const findFilter = (filters: readonly CrudFilter[], field: string, operator: string) =>
  filters.find((f) => "field" in f && f.field === field && f.operator === operator) as { value: unknown } | undefined;

/** Text-like kinds filter with "contains" (Hasura _ilike %v%). */
const containsFilter: Pick<KindBehaviour, "filterInput" | "toFilters" | "fromFilters"> = {
  filterInput: (f) => <Input allowClear placeholder={f.label} />,
  toFilters: (f, v) => [{ field: f.name, operator: "contains", value: v === "" || v === undefined ? undefined : v }],
  fromFilters: (f, filters) => findFilter(filters, f.name, "contains")?.value,
};

const eqFilter = (input: (f: ResolvedField) => ReactNode, encode: (v: unknown) => unknown = (v) => v, decode: (v: unknown) => unknown = (v) => v) => ({
  filterInput: input,
  toFilters: (f: ResolvedField, v: unknown): CrudFilter[] => [{ field: f.name, operator: "eq", value: v === null || v === undefined || v === "" ? undefined : encode(v) }],
  fromFilters: (f: ResolvedField, filters: readonly CrudFilter[]) => {
    const v = findFilter(filters, f.name, "eq")?.value;
    return v === undefined ? undefined : decode(v);
  },
});

/** Day range filter: two filters, gte and lte. For instants, Singapore days become UTC instants. */
const rangeFilter = (toBound: (d: Dayjs, end: boolean) => string, fromBound: (v: string) => Dayjs | null) => ({
  filterInput: () => <DateRangeInput allowEmpty={[true, true]} />,
  toFilters: (f: ResolvedField, v: unknown): CrudFilter[] => {
    const [from, to] = (Array.isArray(v) ? v : []) as (Dayjs | null)[];
    return [
      { field: f.name, operator: "gte", value: from ? toBound(from, false) : undefined },
      { field: f.name, operator: "lte", value: to ? toBound(to, true) : undefined },
    ];
  },
  fromFilters: (f: ResolvedField, filters: readonly CrudFilter[]) => {
    const from = findFilter(filters, f.name, "gte")?.value;
    const to = findFilter(filters, f.name, "lte")?.value;
    if (!from && !to) return undefined;
    return [from ? fromBound(String(from)) : null, to ? fromBound(String(to)) : null];
  },
});

const textKind: KindBehaviour = {
  decode: identity,
  encode: emptyToNull,
  toText: (v, f) => str(v) || (f.whenEmpty ?? ""),
  render: (v) => <TextWithLinks value={v} />,
  ...containsFilter,
};

const yesNo = [
  { value: true, label: "Yes" },
  { value: false, label: "No" },
];

export const KINDS: Record<FieldKind, KindBehaviour> = {
  text: textKind,
  email: { ...textKind, render: (v) => (v ? <a href={`mailto:${str(v)}`}>{str(v)}</a> : null) },
  longText: textKind,
  richText: {
    ...textKind,
    toText: (v) => str(v).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim(),
    render: (v) => <RichTextView html={v} />,
  },
  number: {
    decode: identity,
    encode: (v) => (v === "" || v === undefined ? null : v),
    toText: (v, f, _labels, record) => (f.kind === "number" && f.unitField && record ? formatDiscount(v as string | number | null, record[f.unitField] as string) : str(v)),
    ...eqFilter(() => <NumberInput style={{ width: "100%" }} />),
  },
  money: {
    decode: (v) => numericToCents(v as string | number | null | undefined),
    encode: (v) => (typeof v === "number" ? centsToNumeric(v) : null),
    toText: (v) => formatMoneyValue(v as string | number | null | undefined),
    ...eqFilter(
      () => <MoneyInput />,
      (v) => centsToNumeric(v as number),
      (v) => numericToCents(v as string),
    ),
  },
  date: {
    decode: (v) => (v ? dayjs(String(v).slice(0, 10), DATE_FORMAT) : null),
    encode: (v) => (v ? (v as Dayjs).format(DATE_FORMAT) : null),
    // a list of days (a jsonb array, the three-times-absent dates) reads as the days one after another
    toText: (v) => (Array.isArray(v) ? v.map((d) => formatFinanceDate(d as string)).join(", ") : formatFinanceDate(v as string)),
    ...rangeFilter(
      (d) => d.format(DATE_FORMAT),
      (v) => dayjs(v, DATE_FORMAT),
    ),
  },
  time: {
    decode: (v) => (v ? dayjs(`2000-01-01 ${String(v).slice(0, 8)}`, `${DATE_FORMAT} ${TIME_FORMAT}`) : null),
    encode: (v) => (v ? (v as Dayjs).format(TIME_FORMAT) : null),
    toText: (v) => (v ? String(v).slice(0, 8) : ""),
  },
  dateTime: {
    // The picker works in Singapore wall time whatever the browser's zone.
    decode: (v) => {
      const sg = inSingapore(v as string);
      return sg ? dayjs(sg.format(`${DATE_FORMAT} ${TIME_FORMAT}`), `${DATE_FORMAT} ${TIME_FORMAT}`) : null;
    },
    encode: (v) => (v ? singaporeWallTimeToIso((v as Dayjs).format(DATE_FORMAT), (v as Dayjs).format(TIME_FORMAT)) : null),
    toText: (v) => formatTimeDate(v as string),
    ...rangeFilter(
      (d, end) => singaporeWallTimeToIso(d.format(DATE_FORMAT), end ? "23:59:59" : "00:00:00")!,
      (v) => {
        const sg = inSingapore(v);
        return sg ? dayjs(sg.format(DATE_FORMAT), DATE_FORMAT) : null;
      },
    ),
  },
  enum: {
    decode: identity,
    encode: emptyToNull,
    toText: (v, f) => (f.kind === "enum" && v !== null && v !== undefined ? (f.values[String(v)] ?? String(v)) : ""),
    render: (v, f) => (f.kind === "enum" && v ? <Tag color={f.colours?.[String(v)]}>{f.values[String(v)] ?? String(v)}</Tag> : null),
    ...eqFilter((f) => <Select allowClear options={enumOptions(f)} placeholder={f.label} style={{ minWidth: 140 }} />),
  },
  boolean: {
    decode: (v) => Boolean(v),
    encode: (v) => Boolean(v),
    toText: (v) => (v === null || v === undefined ? "" : v ? "Yes" : "No"),
    render: (v) => <Checkbox checked={Boolean(v)} disabled />,
    ...eqFilter(() => <Select allowClear options={yesNo} style={{ minWidth: 100 }} />),
  },
  relation: {
    decode: (v, f) => (f.kind === "relation" && f.many ? (Array.isArray(v) ? v : []) : (v ?? null)),
    encode: (v, f) => (f.kind === "relation" && f.many ? (Array.isArray(v) ? v : []) : (v ?? null)),
    toText: (v, _f, labels) => (Array.isArray(v) ? v : v ? [v] : []).map((id) => labels?.get(String(id)) ?? String(id)).join(", "),
    ...eqFilter((f) => (f.kind === "relation" ? <RelationSelect target={f.target} labelField={f.labelField} where={f.where} placeholder={f.label} /> : null)),
  },
  image: {
    decode: identity,
    encode: emptyToNull,
    toText: str,
    render: (v) => (v ? <LazyImage src={str(v)} width={48} alt="" /> : null),
  },
  file: {
    decode: identity,
    encode: emptyToNull,
    toText: str,
    render: (v) => (v ? <a href={downloadMediaUrl(keyPathOf(str(v)))}>{keyPathOf(str(v)).split("/").pop()}</a> : null),
  },
  files: {
    decode: (v) => storedFiles(v),
    encode: (v) => storedFiles(v),
    toText: (v) => storedFiles(v).map((f) => f.name).join(", "),
    render: (v) => (storedFiles(v).length ? <FileLinks files={storedFiles(v)} /> : null),
  },
  phone: {
    decode: (v) => (v && typeof v === "object" ? v : null),
    encode: (v) => (v && (v as Phone).number ? v : null),
    toText: (v) => formatPhone(v as Phone),
  },
  amountRows: {
    decode: (v) =>
      (Array.isArray(v) ? v : []).map((row: { name?: string; amount?: string | number }) => ({ name: row.name ?? "", amount: numericToCents(row.amount ?? null) })),
    encode: (v) =>
      (Array.isArray(v) ? v : []).map((row: { name?: string; amount?: number | null }) => ({ name: row.name ?? "", amount: typeof row.amount === "number" ? centsToNumeric(row.amount) : null })),
    toText: (v) =>
      (Array.isArray(v) ? v : [])
        .map((row: { name?: string; amount?: string | number }) => `${row.name ?? ""}: ${formatMoney(numericToCents(row.amount ?? 0) ?? 0)}`)
        .join("; "),
    render: (v) => (
      <Space direction="vertical" size={0}>
        {(Array.isArray(v) ? v : []).map((row: { name?: string; amount?: string | number }, i: number) => (
          <Text key={i}>
            {row.name}: {formatMoney(numericToCents(row.amount ?? 0) ?? 0)}
          </Text>
        ))}
      </Space>
    ),
  },
};

export function enumOptions(f: ResolvedField) {
  return f.kind === "enum" ? Object.entries(f.values).map(([value, label]) => ({ value, label })) : [];
}

/** Shows a value as a list cell or show-page row. */
export function renderValue(field: ResolvedField, value: unknown, labels?: ReadonlyMap<string, string>, record?: Readonly<Record<string, unknown>>): ReactNode {
  const kind = KINDS[field.kind];
  if (kind.render) return kind.render(value, field, labels, record);
  const text = kind.toText(value, field, labels, record);
  return text === "" ? null : <TextWithLinks value={text} />;
}

/** GraphQL record → form values (only the given fields). */
export function decodeRecord(fields: readonly ResolvedField[], record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  for (const f of fields) out[f.name] = KINDS[f.kind].decode(record[f.name], f);
  return out;
}

/** Form values → GraphQL variables (only the given fields). */
export function encodeValues(fields: readonly ResolvedField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f.name in values) out[f.name] = KINDS[f.kind].encode(values[f.name], f);
  return out;
}

