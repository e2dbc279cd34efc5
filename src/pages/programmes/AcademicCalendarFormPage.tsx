/**
 * /programme/academic-term/create and /{id}/edit: the academic calendar's fields (as declared in
 * resources/programmes.ts, rendered by the framework's field kinds) and its terms — name, start, end and
 * number of lessons — as rows. Saving writes the calendar, then inserts new terms, updates changed ones
 * and soft-deletes removed ones.
 */
import { Button, Card, Form, Input, InputNumber, Space, Spin } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useCreate, useCreateMany, useInvalidate, useList, useOne, useUpdate, useTranslate } from "@refinedev/core";
import { useNavigate, useParams } from "react-router";
import { cloneElement, isValidElement, useMemo, useState, type ReactElement, type ReactNode } from "react";
import type { Dayjs } from "dayjs";
import { getResource } from "../../framework/registry.ts";
import { formFields } from "../../framework/defineResource.ts";
import { decodeRecord, encodeValues } from "../../framework/kinds.tsx";
import { KIND_INPUTS } from "../../framework/kindInputs.tsx";
import { fieldRules } from "../../framework/pages/FormPage.tsx";
import { DATE_FORMAT, dayjs } from "../../domain/dates.ts";
import { endsBeforeStart, notBeforeMessage } from "../../domain/validators.ts";

interface TermRow {
  id?: string;
  name: string;
  startDate: Dayjs | null;
  endDate: Dayjs | null;
  numberOfLessons: number | null;
}

const LIST = "/programme/academic-term";

export default function AcademicCalendarFormPage() {
  const { id } = useParams();
  const action = id ? "edit" : "create";
  const resource = getResource("academic_calendars");
  const fields = useMemo(() => formFields(resource, action), [resource, action]);
  const translate = useTranslate();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: createMany } = useCreateMany();
  const { mutateAsync: update } = useUpdate();

  const calendar = useOne<Record<string, unknown>>({
    resource: "academic_calendars",
    id,
    meta: { fields: ["id", "status", ...fields.map((f) => f.name)] },
    queryOptions: { enabled: Boolean(id), retry: false },
  });
  const termList = useList<Record<string, unknown>>({
    resource: "terms",
    filters: [
      { field: "academicCalendarId", operator: "eq", value: id },
      { field: "status", operator: "ne", value: "deleted" },
    ],
    sorters: [{ field: "startDate", order: "asc" }],
    pagination: { mode: "off" },
    meta: { fields: ["id", "name", "startDate", "endDate", "numberOfLessons"] },
    queryOptions: { enabled: Boolean(id), retry: false },
  });

  const initialValues = useMemo(() => {
    if (action === "create") {
      return { ...Object.fromEntries(fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue])), terms: [] };
    }
    const record = calendar.query.data?.data;
    if (!record) return undefined;
    const terms: TermRow[] = (termList.result?.data ?? []).map((t) => ({
      id: String(t.id),
      name: String(t.name),
      startDate: t.startDate ? dayjs(String(t.startDate), DATE_FORMAT) : null,
      endDate: t.endDate ? dayjs(String(t.endDate), DATE_FORMAT) : null,
      numberOfLessons: (t.numberOfLessons as number) ?? null,
    }));
    return { ...decodeRecord(fields, record), terms };
  }, [action, fields, calendar.query.data, termList.result]);

  const title = action === "create" ? "Create Academic Term" : "Edit Academic Term";
  if (action === "edit" && (calendar.query.isLoading || termList.query.isLoading)) return <Spin size="large" />;
  if (action === "edit" && (!calendar.query.data?.data || calendar.query.data.data.status === "deleted")) return <Card title={title}>This record does not exist.</Card>;

  const onFinish = async (values: Record<string, unknown>) => {
    setSaving(true);
    try {
      const variables = encodeValues(fields, values);
      let calendarId = id;
      if (action === "create") {
        const res = await create({ resource: "academic_calendars", values: variables, meta: { fields: ["id"] }, successNotification: false, errorNotification: false });
        calendarId = String(res.data.id);
      } else {
        await update({ resource: "academic_calendars", id: id!, values: variables, meta: { fields: ["id"] }, successNotification: false, errorNotification: false });
      }
      const rows = (values.terms as TermRow[] | undefined) ?? [];
      const encodeTerm = (t: TermRow) => ({
        name: t.name.trim(),
        startDate: t.startDate ? t.startDate.format(DATE_FORMAT) : null,
        endDate: t.endDate ? t.endDate.format(DATE_FORMAT) : null,
        numberOfLessons: t.numberOfLessons ?? 0,
      });
      const added = rows.filter((t) => !t.id).map((t) => ({ ...encodeTerm(t), academicCalendarId: calendarId }));
      if (added.length) await createMany({ resource: "terms", values: added, meta: { fields: ["id"] }, successNotification: false, errorNotification: false });
      for (const t of rows.filter((r) => r.id)) {
        await update({ resource: "terms", id: t.id!, values: encodeTerm(t), meta: { fields: ["id"] }, successNotification: false, errorNotification: false });
      }
      const kept = new Set(rows.map((r) => r.id).filter(Boolean));
      for (const old of termList.result?.data ?? []) {
        if (!kept.has(String(old.id))) {
          await update({ resource: "terms", id: String(old.id), values: { status: "deleted" }, meta: { fields: ["id"] }, successNotification: false, errorNotification: false });
        }
      }
      void toast.success(action === "create" ? "Academic term created." : "Academic term updated.");
      await invalidate({ resource: "academic_calendars", invalidates: ["list", "detail"], id: calendarId });
      await invalidate({ resource: "terms", invalidates: ["list"] });
      navigate(LIST);
    } catch (err) {
      console.error("[academic-term] save failed", err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={title}>
      <Form form={form} layout="vertical" initialValues={initialValues} onFinish={onFinish} aria-label={title} scrollToFirstError>
        {fields.map((f) => {
          const kind = KIND_INPUTS[f.kind];
          const ctx = { disabled: false, folder: resource.table };
          return (
            <Form.Item key={f.name} name={f.name} label={f.label} rules={fieldRules(f, translate)} valuePropName={kind.valuePropName} htmlFor={`field-${f.name}`}>
              {withId(kind.input(f, ctx), `field-${f.name}`)}
            </Form.Item>
          );
        })}
        <Form.Item label="Terms">
          <Form.List name="terms">
            {(rows, { add, remove }) => (
              <Space direction="vertical" style={{ width: "100%" }}>
                {rows.map((row, i) => (
                  <Space key={row.key} align="baseline" wrap data-testid="term-row">
                    <Form.Item name={[row.name, "name"]} rules={[{ required: true, message: "Please input term name!" }]}>
                      <Input placeholder="Term name" aria-label={`Term ${i + 1} name`} />
                    </Form.Item>
                    <Form.Item name={[row.name, "startDate"]} rules={[{ required: true, message: "Please select start date!" }]}>
                      <DateInput placeholder="Start date" aria-label={`Term ${i + 1} start date`} />
                    </Form.Item>
                    <Form.Item
                      name={[row.name, "endDate"]}
                      dependencies={[["terms", row.name, "startDate"]]}
                      rules={[
                        { required: true, message: "Please select end date!" },
                        ({ getFieldValue }) => ({
                          validator: async (_r, v: Dayjs | null) => {
                            const start = getFieldValue(["terms", row.name, "startDate"]) as Dayjs | null;
                            if (endsBeforeStart(v, start)) throw new Error(notBeforeMessage("End date", "Start date"));
                          },
                        }),
                      ]}
                    >
                      <DateInput placeholder="End date" aria-label={`Term ${i + 1} end date`} />
                    </Form.Item>
                    <Form.Item name={[row.name, "numberOfLessons"]} rules={[{ required: true, message: "Please input number of lessons!" }]}>
                      <InputNumber min={0} precision={0} placeholder="Lessons" aria-label={`Term ${i + 1} number of lessons`} />
                    </Form.Item>
                    <MinusCircleOutlined aria-label="Remove term" onClick={() => remove(row.name)} />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: `Term ${rows.length + 1}`, startDate: null, endDate: null, numberOfLessons: null })}>
                  Add term
                </Button>
              </Space>
            )}
          </Form.List>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            Save
          </Button>
          <Button onClick={() => navigate(LIST)}>Cancel</Button>
        </Space>
      </Form>
    </Card>
  );
}

function withId(node: ReactNode, id: string): ReactNode {
  return isValidElement(node) ? cloneElement(node as ReactElement<{ id?: string }>, { id }) : node;
}
