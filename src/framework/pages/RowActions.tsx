/** Show / edit / delete of one row, each shown only when the access policy allows it. */
import { Button, Popconfirm, Space, Tooltip } from "antd";
import { DeleteOutlined, EditOutlined, EyeOutlined } from "@ant-design/icons";
import { CanAccess, useDelete, useUpdate, type BaseRecord } from "@refinedev/core";
import { Link } from "react-router";
import type { Resource } from "../types.ts";
import { fillRoute } from "../defineResource.ts";
import { prefetchFormInputs } from "../inputs/lazyInputs.tsx";
import { useReturnState } from "../returnTo.ts";

/** Pointing at Edit starts loading the form's code, so it opens without a wait. */
function prefetchEdit() {
  void import("./FormPage.tsx").catch(() => undefined);
  prefetchFormInputs();
}

export interface RowActionsProps {
  resource: Resource;
  record: BaseRecord;
  params: Record<string, string | undefined>;
  /** Called after a successful delete (the show page leaves). */
  onDeleted?: () => void;
  /** Hide the show link (on the show page itself). */
  hideShow?: boolean;
  /** Opens the edit dialog (a resource whose `dialogs` include "edit"). */
  onEdit?: (id: string) => void;
  /**
   * The page's own answer whether this row's edit page offers the user an action (a workflow's action rights,
   * FINANCE.md §5), in place of the data policy's update right. When false, a resource without a show page still
   * opens its edit page to read (View), for whoever may open that route.
   */
  mayEdit?: boolean;
}

export function RowActions({ resource, record, params, onDeleted, hideShow, onEdit, mayEdit }: RowActionsProps) {
  const id = String(record.id);
  const fromRecord = Object.entries(resource.routeFields ?? {}).map(([param, column]) => [param, String(record[column] ?? "")]);
  const routeParams = { ...params, ...Object.fromEntries(fromRecord), ...Object.fromEntries(Object.values(resource.idParams).map((p) => [p, id])) };
  const returnState = useReturnState();
  return (
    <Space size="small">
      {resource.routes.show && !hideShow && (
        <CanAccess resource={resource.table} action="show" params={{ id }} fallback={null}>
          <Tooltip title="View">
            <Link to={fillRoute(resource.routes.show, routeParams)} aria-label="View">
              <Button size="small" icon={<EyeOutlined />} />
            </Link>
          </Tooltip>
        </CanAccess>
      )}
      {resource.routes.edit && mayEdit === undefined && (
        <CanAccess resource={resource.table} action="edit" params={{ id }} fallback={null}>
          <Tooltip title="Edit">
            <Link to={fillRoute(resource.routes.edit, routeParams)} state={returnState} aria-label="Edit" onMouseEnter={prefetchEdit} onFocus={prefetchEdit}>
              <Button size="small" icon={<EditOutlined />} />
            </Link>
          </Tooltip>
        </CanAccess>
      )}
      {resource.routes.edit && mayEdit !== undefined && (mayEdit || !resource.routes.show) && (
        <CanAccess resource={resource.routes.edit} action="view" fallback={null}>
          <Tooltip title={mayEdit ? "Edit" : "View"}>
            <Link to={fillRoute(resource.routes.edit, routeParams)} state={returnState} aria-label={mayEdit ? "Edit" : "View"}>
              <Button size="small" icon={mayEdit ? <EditOutlined /> : <EyeOutlined />} />
            </Link>
          </Tooltip>
        </CanAccess>
      )}
      {onEdit && resource.dialogs?.includes("edit") && (
        <CanAccess resource={resource.table} action="edit" params={{ id }} fallback={null}>
          <Tooltip title="Edit">
            <Button size="small" aria-label="Edit" icon={<EditOutlined />} onMouseEnter={prefetchEdit} onFocus={prefetchEdit} onClick={() => onEdit(id)} />
          </Tooltip>
        </CanAccess>
      )}
      {resource.deletable && (
        <CanAccess resource={resource.table} action="delete" params={{ id }} fallback={null}>
          <DeleteRecordButton resource={resource} id={id} onDeleted={onDeleted} />
        </CanAccess>
      )}
    </Space>
  );
}

/** Soft delete (status = 'deleted') or hard delete, after a confirmation. */
export function DeleteRecordButton({ resource, id, onDeleted }: { resource: Resource; id: string; onDeleted?: () => void }) {
  const { mutate: update, mutation: updating } = useUpdate();
  const { mutate: remove, mutation: removing } = useDelete();
  const confirm = () => {
    const done = { onSuccess: () => onDeleted?.() };
    if (resource.softDelete) {
      update(
        { resource: resource.table, id, values: { status: "deleted" }, meta: { fields: ["id", "status"] }, errorNotification: false, successNotification: false },
        done,
      );
    } else {
      remove({ resource: resource.table, id, errorNotification: false, successNotification: false }, done);
    }
  };
  return (
    <Popconfirm title={`Delete this ${resource.singular.toLowerCase()}?`} description="Are you sure you want to delete this record?" okText="Yes" cancelText="No" onConfirm={confirm}>
      <Button size="small" danger aria-label="Delete" icon={<DeleteOutlined />} loading={updating.isPending || removing.isPending} />
    </Popconfirm>
  );
}
