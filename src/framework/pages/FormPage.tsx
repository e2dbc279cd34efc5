/**
 * The generated create and edit pages: antd form, messages under fields, relation selects, a warning
 * before leaving with unsaved changes (useForm's warnWhen, shown by the app's UnsavedChangesNotifier),
 * save errors as toasts (the data provider shows GraphQL errors).
 */
import { Button, Card, Form, Space, Spin } from "antd";
import type { Rule } from "antd/es/form/index.js";
import { useForm } from "@refinedev/antd";
import { useTranslate, useWarnAboutChange, type BaseRecord, type HttpError } from "@refinedev/core";
import { useNavigate, useParams } from "react-router";
import { cloneElement, isValidElement, useEffect, useMemo, useState, type ReactElement, type ReactNode } from "react";
import type { Resource, ResolvedField } from "../types.ts";
import { fillRoute, formFields } from "../defineResource.ts";
import { formSelection } from "../selection.ts";
import { KINDS, decodeRecord, encodeValues } from "../kinds.tsx";
import { findResource } from "../registry.ts";

/** Where to go after saving or cancelling: the list, else the parent's show page. */
export function backPath(resource: Resource, params: Record<string, string | undefined>): string | undefined {
  if (resource.routes.list) return fillRoute(resource.routes.list, params);
  const parent = resource.parent && findResource(resource.parent.table);
  const parentShow = parent?.routes.show;
  if (parent && parentShow) return fillRoute(parentShow, { ...params, [parent.idParams.show ?? "id"]: params[resource.parent!.param] });
  return undefined;
}

export function fieldRules(field: ResolvedField, translate: (key: string, fallback: string) => string): Rule[] {
  const rules: Rule[] = [];
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

export default function FormPage({ resource, action }: { resource: Resource; action: "create" | "edit" }) {
  const params = useParams();
  const navigate = useNavigate();
  const translate = useTranslate();
  const id = action === "edit" ? params[resource.idParams.edit ?? "id"] : undefined;
  const fields = useMemo(() => formFields(resource, action), [resource, action]);
  const [savedTo, setSavedTo] = useState<string | null>(null);
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const back = backPath(resource, params);

  const { formProps, saveButtonProps, formLoading, query } = useForm<BaseRecord, HttpError, Record<string, unknown>>({
    resource: resource.table,
    action,
    id,
    redirect: false,
    warnWhenUnsavedChanges: true,
    meta: { fields: formSelection(resource, action) },
    queryOptions: { select: (data) => ({ ...data, data: decodeRecord(fields, data.data) }), retry: false },
    // The app's data provider already shows GraphQL errors as the spec's toast (message + ".").
    errorNotification: false,
    onMutationSuccess: () => {
      setWarnWhen(false);
      setSavedTo(back ?? null);
    },
  });

  // Leave only once the unsaved-changes guard is off, so saving never asks "leave?".
  useEffect(() => {
    if (savedTo && !warnWhen) navigate(savedTo);
  }, [savedTo, warnWhen, navigate]);

  const defaults = useMemo(
    () => Object.fromEntries(fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue])),
    [fields],
  );

  const onFinish = (values: Record<string, unknown>) => {
    const editable = action === "edit" ? fields.filter((f) => !f.readOnly) : fields;
    const variables = encodeValues(editable, values);
    if (resource.parent && action === "create") variables[resource.parent.field] = params[resource.parent.param];
    return formProps.onFinish?.(variables);
  };

  const title = `${action === "create" ? "Create" : "Edit"} ${resource.singular}`;
  if (action === "edit" && query?.isLoading) return <Spin size="large" />;
  if (action === "edit" && query?.isError) return <Card title={title}>This record could not be loaded.</Card>;
  return (
    <Card title={title}>
      <Form
        {...formProps}
        initialValues={action === "create" ? defaults : formProps.initialValues}
        onFinish={onFinish}
        layout="vertical"
        scrollToFirstError
        aria-label={title}
      >
        {fields.map((f) => {
          const kind = KINDS[f.kind];
          const rules = fieldRules(f, translate);
          const ctx = { disabled: action === "edit" && Boolean(f.readOnly), folder: f.kind === "image" || f.kind === "file" ? (f.folder ?? resource.table) : resource.table };
          if (kind.formItem) return kind.formItem(f, rules, ctx);
          return (
            <Form.Item key={f.name} name={f.name} label={f.label} rules={rules} valuePropName={kind.valuePropName} help={f.help} htmlFor={`field-${f.name}`}>
              {withId(kind.input(f, ctx), `field-${f.name}`)}
            </Form.Item>
          );
        })}
        <Space>
          <Button type="primary" htmlType="submit" loading={formLoading} disabled={saveButtonProps.disabled}>
            Save
          </Button>
          {back && <Button onClick={() => navigate(back)}>Cancel</Button>}
        </Space>
      </Form>
    </Card>
  );
}

function withId(node: ReactNode, id: string): ReactNode {
  return isValidElement(node) ? cloneElement(node as ReactElement<{ id?: string }>, { id }) : node;
}
