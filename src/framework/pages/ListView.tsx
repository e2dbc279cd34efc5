/**
 * The generated list: filters, sorting and page in the URL; the counter 'Viewing from X - Y (out of
 * N records)'; an index continuing across pages; quick jump without a page-size selector; soft-deleted
 * rows excluded; CSV export of every matching row; buttons shown only when the access policy allows.
 */
import { Button, Card, Space } from "antd";
import type { TableColumnsType as ColumnsType } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { CanAccess, type BaseRecord, type CrudFilter } from "@refinedev/core";
import { getDefaultSortOrder, useTable } from "@refinedev/antd";
import { Link, useParams } from "react-router";
import { Suspense, lazy, useMemo, useState, type ReactNode } from "react";
import type { Resource } from "../types.ts";
import { fillRoute, filterFields, listFields } from "../defineResource.ts";
import { listSelection } from "../selection.ts";
import { KINDS } from "../kinds.tsx";
import { CellText } from "./CellText.tsx";
import { useRelationLabels } from "../useRelationLabels.ts";
import { RowActions } from "./RowActions.tsx";
import { CsvExportButton } from "./CsvExportButton.tsx";
import type { FormDialogProps } from "./FormDialog.tsx";
import { prefetchFormInputs } from "../inputs/lazyInputs.tsx";

import { PAGE_SIZE } from "./recordCounter.ts";
import { PagedTable } from "./PagedTable.tsx";
import { FilterBar, type FilterValues } from "./FilterBar.tsx";
import { useReturnState } from "../returnTo.ts";

export { PAGE_SIZE, recordCounter } from "./recordCounter.ts";

// The form code (and its inputs) loads when a form opens; pointing at Create or Edit starts the download.
const loadFormDialog = () => import("./FormDialog.tsx");
const FormDialog = lazy(() => loadFormDialog().then((m) => ({ default: m.FormDialog })));
const prefetchForm = () => {
  void loadFormDialog().catch(() => undefined);
  prefetchFormInputs();
};

/**
 * Filters that always apply: not soft-deleted, the parent's id, the resource's own. Each is a keyed
 * "and" group so it never merges with a user's filter on the same column (Refine merges filters by
 * field and operator; a user filtering status = new must not replace status <> deleted).
 */
export function permanentFilters(resource: Resource, parentId?: string): CrudFilter[] {
  const group = (key: string, filter: CrudFilter): CrudFilter => ({ operator: "and", key, value: [filter] });
  return [
    ...(resource.softDelete ? [group("not-deleted", { field: "status", operator: "ne", value: "deleted" })] : []),
    ...(resource.parent && parentId ? [group("parent", { field: resource.parent.field, operator: "eq", value: parentId })] : []),
    ...(resource.permanentFilters ?? []),
  ];
}

/** Whether a row of this resource has any action (show, edit page or dialog, delete). */
export function hasRowActions(resource: Resource): boolean {
  return Boolean(resource.routes.show || resource.routes.edit || resource.dialogs?.includes("edit") || resource.deletable);
}

export interface ListViewProps {
  resource: Resource;
  /** Inline under a parent's show page: no URL sync, rows of that parent only. */
  parentId?: string;
  title?: string;
  /** More buttons beside Export and Create (a page's own start: "New Suspension"). */
  extra?: ReactNode;
  /** Filters a page adds while they apply (a "Waiting for me" switch), kept apart from the user's filters. */
  extraFilters?: readonly CrudFilter[];
  /** Whether a row opens to edit, where a page decides it by its own rights instead of the data policy (see RowActions' `mayEdit`). */
  rowEditable?: (record: BaseRecord) => boolean;
}

export function ListView({ resource, parentId, title, extra, extraFilters, rowEditable }: ListViewProps) {
  const routeParams = useParams();
  const params = { ...routeParams, ...(resource.parent && parentId ? { [resource.parent.param]: parentId } : {}) };
  const inline = parentId !== undefined;
  const columnsFields = listFields(resource);
  const filters = filterFields(resource);
  const permanent = useMemo(
    () => [...permanentFilters(resource, parentId), ...(extraFilters?.length ? [{ operator: "and" as const, key: "page", value: [...extraFilters] }] : [])],
    [resource, parentId, extraFilters],
  );
  const [dialog, setDialog] = useState<FormDialogProps["open"]>(null);

  const { tableProps, searchFormProps, filters: activeFilters, sorters, currentPage, pageSize, result } = useTable<BaseRecord, never, FilterValues>({
    resource: resource.table,
    syncWithLocation: !inline,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [resource.defaultSort] },
    filters: { permanent },
    meta: { fields: listSelection(resource) },
    queryOptions: { retry: false },
    onSearch: (values) => filters.flatMap((f) => KINDS[f.kind].toFilters!(f, values[f.name])),
  });

  const rows = (tableProps.dataSource ?? []) as BaseRecord[];
  const labels = useRelationLabels(columnsFields, rows);
  const total = result.total ?? 0;
  const filterInitialValues = useMemo(
    () => Object.fromEntries(filters.map((f) => [f.name, KINDS[f.kind].fromFilters!(f, activeFilters)])),
    // Only on first render: afterwards the form owns its values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const columns: ColumnsType<BaseRecord> = [
    ...columnsFields.map((f) => ({
      title: f.label,
      dataIndex: f.name,
      key: f.name,
      sorter: f.sortable ? { multiple: 1 } : undefined,
      sortOrder: f.sortable ? (getDefaultSortOrder(f.name, sorters) ?? null) : undefined,
      render: (v: unknown, record: BaseRecord) => <CellText field={f} value={v} labels={labels[f.name]} record={record} />,
    })),
    // No Actions column where a row has no action (a list without show, edit or delete).
    ...(hasRowActions(resource)
      ? [
          {
            title: "Actions",
            key: "__actions",
            width: 140,
            fixed: "right" as const,
            render: (_v: unknown, record: BaseRecord) => <RowActions resource={resource} record={record} params={params} mayEdit={rowEditable?.(record)} onEdit={(id) => setDialog({ action: "edit", id })} />,
          },
        ]
      : []),
  ];

  const createParams = resource.nextNumberParam ? { ...params, [resource.nextNumberParam]: String(total + 1) } : params;
  // Until the count is known, a create route that needs it is not offered (it would open with an unfilled parameter).
  const createReady = !resource.nextNumberParam || result.total !== undefined;
  const createPath = resource.routes.create && createReady ? fillRoute(resource.routes.create, createParams) : undefined;
  const returnState = useReturnState();

  return (
    <Card
      title={title ?? resource.label}
      extra={
        <Space>
          {extra}
          {resource.exportable && <CsvExportButton resource={resource} filters={activeFilters} sorters={sorters} />}
          {createPath && (
            <CanAccess resource={resource.table} action="create" fallback={null}>
              <Link to={createPath} state={returnState} onMouseEnter={prefetchForm} onFocus={prefetchForm}>
                <Button type="primary" icon={<PlusOutlined />}>
                  Create
                </Button>
              </Link>
            </CanAccess>
          )}
          {resource.dialogs?.includes("create") && (
            <CanAccess resource={resource.table} action="create" fallback={null}>
              <Button type="primary" icon={<PlusOutlined />} onMouseEnter={prefetchForm} onFocus={prefetchForm} onClick={() => setDialog({ action: "create" })}>
                Create
              </Button>
            </CanAccess>
          )}
        </Space>
      }
    >
      {filters.length > 0 && <FilterBar fields={filters} formProps={searchFormProps} initialValues={filterInitialValues} />}
      <PagedTable
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={total}
        columns={columns}
        scroll={{ x: "max-content" }}
        size={resource.dense ? "small" : "middle"}
        sticky={!inline}
      />
      {resource.dialogs && dialog && (
        <Suspense fallback={null}>
          <FormDialog resource={resource} open={dialog} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </Card>
  );
}
