/**
 * /finance/pricing, edited in place: the price per lesson by academic calendar, programme type and company,
 * and the special-class price per student type. A price is saved when its input loses focus (or Enter);
 * only the value and updatedBy change.
 */
import { Card, Space, Tabs } from "antd";
import { toast } from "../../framework/toast.ts";
import { useTable } from "@refinedev/antd";
import { useCan, useUpdate, type BaseRecord } from "@refinedev/core";
import { useState } from "react";
import { MoneyInput } from "../../framework/inputs/MoneyInput.tsx";
import { centsToNumeric, formatMoney, numericToCents } from "../../domain/money.ts";
import { PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";

type Row = BaseRecord & Record<string, unknown>;

function PriceCell({ resource, row, field }: { resource: string; row: Row; field: string }) {
  const { data: can } = useCan({ resource, action: "edit" });
  const { mutateAsync } = useUpdate();
  const saved = numericToCents(row[field] as string | null);
  const [value, setValue] = useState<number | null>(saved);
  const [saving, setSaving] = useState(false);
  if (!can?.can) return <>{saved === null ? "" : formatMoney(saved)}</>;
  const save = async () => {
    if (value === saved || value === null) return;
    setSaving(true);
    try {
      await mutateAsync({
        resource,
        id: String(row.id),
        values: { [field]: centsToNumeric(value) },
        meta: { fields: ["id", field] },
        successNotification: false,
        errorNotification: false,
      });
      void toast.success("Price saved.");
    } catch (err) {
      console.error("[pricing] save failed", err);
      setValue(saved);
    } finally {
      setSaving(false);
    }
  };
  return (
    <span onBlur={() => void save()} onKeyDown={(e) => e.key === "Enter" && void save()}>
      <MoneyInput value={value} onChange={(v) => setValue(v ?? null)} disabled={saving} aria-label={`${field} ${String(row.id)}`} />
    </span>
  );
}

function PricingTable({ resource, fields, columns, priceField }: { resource: string; fields: (string | object)[]; columns: { title: string; render: (r: Row) => string }[]; priceField: string }) {
  const { tableProps, currentPage, pageSize, result } = useTable<Row>({
    resource,
    syncWithLocation: false,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    filters: { permanent: [{ field: "status", operator: "ne", value: "deleted" }] },
    meta: { fields: ["id", priceField, "updatedAt", ...fields] },
    queryOptions: { retry: false },
  });
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <PagedTable
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        columns={[
          ...columns.map((c) => ({ title: c.title, key: c.title, render: (_v: unknown, r: Row) => c.render(r) })),
          { title: priceField === "pricePerLesson" ? "Price per Lesson" : "Price per Student", key: "price", render: (_v, r) => <PriceCell key={`${String(r.id)}-${String(r[priceField])}`} resource={resource} row={r} field={priceField} /> },
        ]}
      />
    </Space>
  );
}

const nameOf = (v: unknown, key = "name") => String((v as Record<string, unknown> | null)?.[key] ?? "");

export default function PricingPage() {
  return (
    <Card title="Pricing">
      <Tabs
        items={[
          {
            key: "academic",
            label: "Academic Programme",
            children: (
              <PricingTable
                resource="academic_program_type_pricings"
                priceField="pricePerLesson"
                fields={[{ academicCalendar: ["id", "name", "year"] }, { programType: ["id", "name"] }, { company: ["id", "name"] }]}
                columns={[
                  { title: "Academic Calendar", render: (r) => nameOf(r.academicCalendar) },
                  { title: "Programme Type", render: (r) => nameOf(r.programType) },
                  { title: "Company", render: (r) => nameOf(r.company) },
                ]}
              />
            ),
          },
          {
            key: "special",
            label: "Special Class",
            children: (
              <PricingTable
                resource="special_class_pricings"
                priceField="pricePerStudent"
                fields={["studentType", { class: ["id", "name"] }, { program: ["id", "name"] }, { company: ["id", "name"] }]}
                columns={[
                  { title: "Class", render: (r) => nameOf(r.class) },
                  { title: "Programme", render: (r) => nameOf(r.program) },
                  { title: "Student Type", render: (r) => String(r.studentType ?? "") },
                  { title: "Company", render: (r) => nameOf(r.company) },
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
