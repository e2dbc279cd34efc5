/**
 * The GraphQL selection (`meta.fields` of the data provider) derived from the declared fields:
 * never written by hand. Relations select the id column only; labels are fetched by `useRelationLabels`.
 */
import type { Resource, ResolvedField } from "./types.ts";
import { formFields, listFields, showFields } from "./defineResource.ts";

const AUDIT = ["updatedAt"];

function columns(resource: Resource, fields: readonly ResolvedField[], extra: readonly string[]): string[] {
  const names = new Set<string>(["id", ...fields.map((f) => f.name), ...extra]);
  if (resource.softDelete) names.add("status");
  if (resource.parent) names.add(resource.parent.field);
  for (const column of Object.values(resource.routeFields ?? {})) names.add(column);
  return [...names];
}

export const listSelection = (r: Resource) => columns(r, listFields(r), [...AUDIT, r.recordLabel]);
export const showSelection = (r: Resource) => columns(r, showFields(r), [...AUDIT, "createdAt", r.recordLabel]);
export const formSelection = (r: Resource, action: "create" | "edit") => columns(r, formFields(r, action), []);
/** Every column the resource names anywhere (used by the metadata check). */
export const allColumns = (r: Resource) => columns(r, r.fieldList, [...AUDIT, "createdAt", r.recordLabel, r.defaultSort.field]);
