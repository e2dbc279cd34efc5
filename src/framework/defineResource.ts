/**
 * defineResource: a declaration in, a resource with every default filled in out. Declarations are
 * checked here (like Django's system checks): a mistake throws at start-up with a code, never shows
 * as a blank cell later. Checks against the database metadata live in `checkResources`.
 */
import type { Field, FieldKind, Resource, ResourceDeclaration, ResolvedField } from "./types.ts";
// a name nobody labelled reads in words by the label table's rule, which the server's exports follow too
import { humanize } from "../domain/enumLabels.ts";

export { humanize };

/** Kinds that make a readable list column / a sortable column / a filter by default. */
const LISTED: ReadonlySet<FieldKind> = new Set(["text", "number", "money", "date", "time", "dateTime", "enum", "boolean", "relation", "email", "phone", "image"]);
const SORTABLE: ReadonlySet<FieldKind> = new Set(["text", "number", "money", "date", "time", "dateTime", "enum", "boolean", "email"]);
/** Kinds a generated filter exists for. */
export const FILTERABLE: ReadonlySet<FieldKind> = new Set(["text", "longText", "richText", "email", "number", "money", "date", "time", "dateTime", "enum", "boolean", "relation"]);

export class ResourceDeclarationError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}


function resolveField(name: string, field: Field): ResolvedField {
  const listed = LISTED.has(field.kind) && !(field.kind === "relation" && field.many);
  const list = field.list ?? listed;
  const filter = field.filter ?? false;
  return {
    ...field,
    name,
    label: field.label ?? humanize(name),
    list,
    filter,
    form: field.form ?? true,
    show: field.show ?? true,
    sortable: field.sortable ?? (list && SORTABLE.has(field.kind)),
  };
}

/** The route parameters of a path: "/branch/:branchId/detail/class-room/:id/edit" → ["branchId", "id"]. */
export function routeParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

export function defineResource<const D extends ResourceDeclaration>(declaration: D): Resource {
  const d = declaration;
  const where = `resource ${d.table}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(d.table)) throw new ResourceDeclarationError("R001", `${where}: table must be a snake_case name`);
  if (d.name !== undefined && !/^[a-z_][a-z0-9_]*$/.test(d.name)) throw new ResourceDeclarationError("R001", `${where}: name must be a snake_case name`);
  const fieldList = Object.entries(d.fields).map(([name, f]) => resolveField(name, f));
  for (const f of fieldList) {
    if (f.filter && !FILTERABLE.has(f.kind)) throw new ResourceDeclarationError("R002", `${where}: field ${f.name} of kind ${f.kind} cannot be a filter`);
    if (f.filter && f.kind === "relation" && f.many) throw new ResourceDeclarationError("R002", `${where}: field ${f.name} (many) cannot be a filter`);
    if (f.sortable && !SORTABLE.has(f.kind)) throw new ResourceDeclarationError("R003", `${where}: field ${f.name} of kind ${f.kind} cannot be sorted`);
    if (f.kind === "enum" && Object.keys(f.values).length === 0) throw new ResourceDeclarationError("R004", `${where}: enum ${f.name} has no values`);
  }
  const parentParam = d.parent?.param;
  // The spec names the id differently per route (/user/{id}/view, /user/{userId}/update): one per page.
  const idParams: { edit?: string; show?: string } = {};
  for (const kind of ["edit", "show"] as const) {
    const path = d.routes[kind];
    if (!path) continue;
    const params = routeParams(path).filter((p) => p !== parentParam && !(p in (d.routeFields ?? {})));
    if (params.length !== 1) throw new ResourceDeclarationError("R005", `${where}: the ${kind} route ${path} must have exactly one record id parameter`);
    idParams[kind] = params[0]!;
  }
  if (parentParam) {
    for (const [kind, path] of Object.entries(d.routes)) {
      if (path && !routeParams(path).includes(parentParam)) throw new ResourceDeclarationError("R006", `${where}: the ${kind} route ${path} lacks the parent's :${parentParam}`);
    }
  }
  for (const kind of d.dialogs ?? []) {
    if (d.routes[kind]) throw new ResourceDeclarationError("R008", `${where}: ${kind} is declared both as a route and as a dialog`);
  }
  const createParams = d.routes.create ? routeParams(d.routes.create) : [];
  for (const f of fieldList) {
    if (f.fromParam && !createParams.includes(f.fromParam)) throw new ResourceDeclarationError("R009", `${where}: field ${f.name} takes :${f.fromParam}, which the create route does not have`);
  }
  for (const f of fieldList) {
    const other = f.notBefore ? fieldList.find((o) => o.name === f.notBefore) : undefined;
    if (f.notBefore && (!other || (other.kind !== "date" && other.kind !== "dateTime") || (f.kind !== "date" && f.kind !== "dateTime")))
      throw new ResourceDeclarationError("R010", `${where}: field ${f.name} may only be notBefore another date field`);
  }
  const recordLabel = d.recordLabel ?? ("name" in d.fields ? "name" : "id");
  if (d.recordLabel && !(d.recordLabel in d.fields)) throw new ResourceDeclarationError("R007", `${where}: recordLabel ${d.recordLabel} is not a declared field`);
  const defaultSort = d.defaultSort ?? { field: "updatedAt", order: "desc" as const };
  return {
    ...d,
    name: d.name ?? d.table,
    singular: d.singular ?? d.label,
    recordLabel,
    defaultSort,
    softDelete: d.softDelete ?? false,
    deletable: d.deletable ?? true,
    exportable: d.exportable ?? true,
    idParams,
    fieldList,
  };
}

/** Fields shown in one place. */
export const listFields = (r: Resource) => r.fieldList.filter((f) => f.list);
export const filterFields = (r: Resource) => r.fieldList.filter((f) => f.filter);
export const showFields = (r: Resource) => r.fieldList.filter((f) => f.show);
export const formFields = (r: Resource, action: "create" | "edit") =>
  r.fieldList.filter((f) => f.form === true || f.form === action);

/** Fills a route template: ("/branch/:branchId/detail", {branchId: "7"}) → "/branch/7/detail". */
export function fillRoute(path: string, params: Record<string, string | number | undefined>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, p: string) => encodeURIComponent(String(params[p] ?? `:${p}`)));
}
