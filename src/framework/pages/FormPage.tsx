/**
 * The generated create and edit pages: antd form, messages under fields, relation selects, a warning
 * before leaving with unsaved changes (useForm's warnWhen, shown by the app's UnsavedChangesNotifier),
 * save errors as toasts (the data provider shows GraphQL errors).
 */
import { Button, Card, Form, Space, Spin, type FormRule as Rule } from "antd";
import { useForm } from "@refinedev/antd";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslate, useWarnAboutChange, type BaseRecord, type HttpError } from "@refinedev/core";
import { useLocation, useNavigate, useParams } from "react-router";
import { cloneElement, isValidElement, useCallback, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from "react";
import type { Dayjs } from "dayjs";
import type { Resource, ResolvedField } from "../types.ts";
import { fillRoute, formFields } from "../defineResource.ts";
import { formSelection } from "../selection.ts";
import { decodeRecord, encodeValues } from "../kinds.tsx";
import { KIND_INPUTS } from "../kindInputs.tsx";
import { findResource } from "../registry.ts";
import { HistoryDrawer, fieldLabels } from "./HistoryDrawer.tsx";
import { returnTarget } from "../returnTo.ts";
import { clearEditedErrors } from "../formEdits.ts";
import { endsBeforeStart, notBeforeMessage } from "../../domain/validators.ts";

/** Where to go after saving or cancelling: the list, else the parent's show page. */
export function backPath(resource: Resource, params: Record<string, string | undefined>): string | undefined {
  if (resource.routes.list) return fillRoute(resource.routes.list, params);
  const parent = resource.parent && findResource(resource.parent.table);
  const parentShow = parent?.routes.show;
  if (parent && parentShow) return fillRoute(parentShow, { ...params, [parent.idParams.show ?? "id"]: params[resource.parent!.param] });
  return undefined;
}

export function fieldRules(field: ResolvedField, translate: (key: string, fallback: string) => string, others: readonly ResolvedField[] = []): Rule[] {
  const rules: Rule[] = [];
  if (field.notBefore) {
    const other = field.notBefore;
    const otherLabel = others.find((o) => o.name === other)?.label ?? other;
    const text = notBeforeMessage(field.label, otherLabel);
    rules.push(({ getFieldValue }) => ({
      validator: async (_r, value: Dayjs | null | undefined) => {
        if (endsBeforeStart(value, getFieldValue(other) as Dayjs | null | undefined, field.kind === "dateTime" ? "minute" : "day")) throw new Error(translate(text, text));
      },
    }));
  }
  if (field.required) {
    const text = typeof field.required === "string" ? field.required : `Please input ${field.label}!`;
    rules.push({ required: true, message: translate(text, text) });
  }
  if (field.kind === "email") rules.push({ type: "email", message: translate("Please enter a valid email!", "Please enter a valid email!") });
  for (const rule of field.rules ?? []) {
    rules.push({
      validator: async (_r, value) => {
        const message = rule(value);
        if (message) throw new Error(translate(message, message));
      },
    });
  }
  return rules;
}

/** A new record's values: each field's `defaultValue`, or its `fromParam` route parameter. */
export function createDefaults(fields: readonly ResolvedField[], params: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = f.fromParam ? params[f.fromParam] : undefined;
    if (raw !== undefined && raw !== "") {
      if (f.kind === "number") {
        const n = Number(raw);
        if (Number.isFinite(n) && (f.integer === false || Number.isInteger(n)) && (f.min === undefined || n >= f.min)) out[f.name] = n;
      } else out[f.name] = raw;
    }
    if (!(f.name in out) && f.defaultValue !== undefined) out[f.name] = f.defaultValue;
  }
  return out;
}

export interface ResourceFormProps {
  resource: Resource;
  action: "create" | "edit";
  /** The record being edited. */
  id?: string;
  /** Route parameters: the parent's id and `fromParam` defaults. */
  params: Record<string, string | undefined>;
  /** After a successful save (the unsaved-changes guard is already off). */
  onSaved: () => void;
  onCancel?: () => void;
  /** Ask before leaving the page with unsaved changes (pages yes; a dialog asks on its own, see onChange). */
  guardUnsaved?: boolean;
  /** The user changed a value. */
  onChange?: () => void;
}

/** The generated form of a resource: the page's body, or a dialog's. */
export function ResourceForm({ resource, action, id, params, onSaved, onCancel, guardUnsaved = true, onChange }: ResourceFormProps) {
  const translate = useTranslate();
  const fields = useMemo(() => formFields(resource, action), [resource, action]);
  const [saved, setSaved] = useState(false);
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const title = `${action === "create" ? "Create" : "Edit"} ${resource.singular}`;

  const loaded = useRef<BaseRecord | undefined>(undefined);
  const { formProps, mutation, query } = useForm<BaseRecord, HttpError, Record<string, unknown>>({
    resource: resource.table,
    action,
    id,
    redirect: false,
    warnWhenUnsavedChanges: guardUnsaved,
    meta: { fields: formSelection(resource, action), ...(resource.restWrites ? { restWrites: resource.restWrites } : {}) },
    // useForm resets every field whenever the record it was given changes, and the record is refetched
    // behind the user's back (a live event on the list under a dialog invalidates every query of the
    // table). The form keeps the record as first fetched after it opened (never a cached copy: gcTime 0)
    // so what the user types stays; it needs no live subscription of its own.
    liveMode: "off",
    queryOptions: {
      select: (data) => {
        loaded.current ??= decodeRecord(fields, data.data);
        return { ...data, data: loaded.current };
      },
      gcTime: 0,
      retry: false,
      refetchOnWindowFocus: false,
    },
    // The app's data provider already shows GraphQL errors as the spec's toast (message + ".").
    errorNotification: false,
    onMutationSuccess: () => {
      setWarnWhen(false);
      setSaved(true);
    },
  });

  // Leave only once the unsaved-changes guard is off, so saving never asks "leave?".
  useEffect(() => {
    if (saved && !warnWhen) {
      setSaved(false);
      onSaved();
    }
  }, [saved, warnWhen, onSaved]);

  const defaults = useMemo(() => createDefaults(fields, params), [fields, params]);

  const onFinish = (values: Record<string, unknown>) => {
    const editable = action === "edit" ? fields.filter((f) => !f.readOnly) : fields;
    const variables = encodeValues(editable, values);
    if (resource.parent && action === "create") variables[resource.parent.field] = params[resource.parent.param];
    return formProps.onFinish?.(variables);
  };

  if (action === "edit" && query?.isLoading) return <Spin size="large" />;
  if (action === "edit" && query?.isError) return <>This record could not be loaded.</>;
  return (
    <Form
      {...formProps}
      initialValues={action === "create" ? defaults : formProps.initialValues}
      onFinish={onFinish}
      onValuesChange={(changed, all) => {
        formProps.onValuesChange?.(changed, all);
        if (formProps.form) clearEditedErrors(formProps.form, changed);
        onChange?.();
      }}
      layout="vertical"
      scrollToFirstError
      aria-label={title}
    >
      {fields.map((f) => {
        const kind = KIND_INPUTS[f.kind];
        const rules = fieldRules(f, translate, fields);
        const ctx = { disabled: action === "edit" && Boolean(f.readOnly), folder: "folder" in f && f.folder ? f.folder : resource.table };
        if (kind.formItem) return kind.formItem(f, rules, ctx);
        return (
          <Form.Item
            key={f.name}
            name={f.name}
            label={f.label}
            rules={rules}
            dependencies={f.notBefore ? [f.notBefore] : undefined}
            valuePropName={kind.valuePropName}
            extra={f.help}
            htmlFor={`field-${f.name}`}
          >
            {withId(kind.input(f, ctx), `field-${f.name}`)}
          </Form.Item>
        );
      })}
      <Space>
        {/* Busy while saving only: a background refetch of the record changes nothing in the form. */}
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          Save
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </Space>
    </Form>
  );
}

export default function FormPage({ resource, action }: { resource: Resource; action: "create" | "edit" }) {
  const params = useParams();
  const navigate = useNavigate();
  const id = action === "edit" ? params[resource.idParams.edit ?? "id"] : undefined;
  const back = returnTarget(useLocation().state, backPath(resource, params));
  const queryClient = useQueryClient();
  const onSaved = useCallback(() => {
    // The list cached from before the save would show its old rows and total until refetched: it starts afresh.
    queryClient.removeQueries({ queryKey: ["data", "default", resource.table, "list"] });
    if (back) navigate(back);
  }, [back, navigate, queryClient, resource.table]);
  const title = `${action === "create" ? "Create" : "Edit"} ${resource.singular}`;
  return (
    <Card title={title} extra={id ? <HistoryDrawer table={resource.table} id={id} labels={fieldLabels(resource)} /> : undefined}>
      {/* A new path (another :order, another record) is a new form with its own defaults. */}
      <ResourceForm key={JSON.stringify(params)} resource={resource} action={action} id={id} params={params} onSaved={onSaved} onCancel={back ? () => navigate(back) : undefined} />
    </Card>
  );
}

function withId(node: ReactNode, id: string): ReactNode {
  return isValidElement(node) ? cloneElement(node as ReactElement<{ id?: string }>, { id }) : node;
}
