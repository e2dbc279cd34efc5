/** The generated show page: a description layout, edit/delete buttons, inline child lists. */
import { Card, Descriptions, Space, Spin } from "antd";
import { useShow, type BaseRecord } from "@refinedev/core";
import { useNavigate, useParams } from "react-router";
import type { Resource } from "../types.ts";
import { showFields } from "../defineResource.ts";
import { showSelection } from "../selection.ts";
import { renderValue } from "../kinds.tsx";
import { useRelationLabels } from "../useRelationLabels.ts";
import { getResource } from "../registry.ts";
import { RowActions } from "./RowActions.tsx";
import { ListView } from "./ListView.tsx";
import { backPath } from "./FormPage.tsx";
import { DeletedRecordNotice, HistoryDrawer, fieldLabels } from "./HistoryDrawer.tsx";

export default function ShowPage({ resource }: { resource: Resource }) {
  const params = useParams();
  const navigate = useNavigate();
  const id = params[resource.idParams.show ?? "id"];
  const fields = showFields(resource);
  const { query } = useShow<BaseRecord>({ resource: resource.table, id, meta: { fields: showSelection(resource) }, queryOptions: { retry: false } });
  const record = query.data?.data;
  const labels = useRelationLabels(fields, record ? [record] : []);
  if (query.isLoading) return <Spin size="large" />;
  if (!record || (resource.softDelete && record.status === "deleted"))
    return <Card title={resource.singular}>{id ? <DeletedRecordNotice table={resource.table} id={id} labels={fieldLabels(resource)} /> : "This record does not exist."}</Card>;
  const back = backPath(resource, params);
  return (
    <Space direction="vertical" style={{ width: "100%" }} size="large">
      <Card
        title={String(record[resource.recordLabel] ?? resource.singular)}
        extra={
          <Space>
            <HistoryDrawer table={resource.table} id={String(record.id)} labels={fieldLabels(resource)} />
            <RowActions resource={resource} record={record} params={params} hideShow onDeleted={() => back && navigate(back)} />
          </Space>
        }
      >
        <Descriptions bordered column={1} size="middle">
          {fields.map((f) => (
            <Descriptions.Item key={f.name} label={f.label}>
              {renderValue(f, record[f.name], labels[f.name], record)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Card>
      {(resource.inlines ?? []).map((table) => {
        const child = getResource(table);
        return <ListView key={table} resource={child} parentId={String(record.id)} title={child.label} />;
      })}
    </Space>
  );
}
