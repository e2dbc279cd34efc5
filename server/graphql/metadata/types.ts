/** Hasura metadata v3 (export form) and the errors raised when it does not fit the database. */
export interface QualifiedTable {
  schema: string;
  name: string;
}

export type BoolExpJson = Record<string, unknown>;

/** A GraphQL name (type, field, argument): what every name the metadata makes part of the schema must be. */
export const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export interface RelationshipUsing {
  foreign_key_constraint_on?: string | string[] | { column?: string; columns?: string[]; table: QualifiedTable | string };
  manual_configuration?: { remote_table: QualifiedTable | string; column_mapping: Record<string, string> };
}
export interface RelationshipMetadata {
  name: string;
  using: RelationshipUsing;
  comment?: string;
}

export interface SelectPermissionMetadata {
  columns: string[] | "*";
  filter?: BoolExpJson;
  limit?: number;
  allow_aggregations?: boolean;
  computed_fields?: string[];
}
export interface InsertPermissionMetadata {
  columns?: string[] | "*";
  check?: BoolExpJson;
  set?: Record<string, unknown>;
  backend_only?: boolean;
}
export interface UpdatePermissionMetadata {
  columns: string[] | "*";
  filter?: BoolExpJson;
  check?: BoolExpJson | null;
  set?: Record<string, unknown>;
  backend_only?: boolean;
}
export interface DeletePermissionMetadata {
  filter?: BoolExpJson;
  backend_only?: boolean;
}
export interface RolePermission<P> {
  role: string;
  permission: P;
  comment?: string;
}

export interface TableConfiguration {
  custom_name?: string;
  custom_root_fields?: Record<string, string | { name?: string } | null>;
  column_config?: Record<string, { custom_name?: string }>;
  custom_column_names?: Record<string, string>;
}

/** Hasura's computed field: an SQL function of the row (and optionally the session) shown as a field of the table. */
export interface ComputedFieldMetadata {
  name: string;
  definition: { function: QualifiedTable | string; table_argument?: string | null; session_argument?: string | null };
  comment?: string | null;
}

export interface TableMetadata {
  table: QualifiedTable;
  is_enum?: boolean;
  configuration?: TableConfiguration;
  object_relationships?: RelationshipMetadata[];
  array_relationships?: RelationshipMetadata[];
  computed_fields?: ComputedFieldMetadata[];
  select_permissions?: RolePermission<SelectPermissionMetadata>[];
  insert_permissions?: RolePermission<InsertPermissionMetadata>[];
  update_permissions?: RolePermission<UpdatePermissionMetadata>[];
  delete_permissions?: RolePermission<DeletePermissionMetadata>[];
  [key: string]: unknown;
}

export interface SourceMetadata {
  name: string;
  kind: string;
  tables: TableMetadata[];
  functions?: unknown[];
  configuration?: unknown;
  [key: string]: unknown;
}

export interface HasuraMetadata {
  version: 3;
  sources: SourceMetadata[];
  inherited_roles?: { role_name: string; role_set: string[] }[];
  [key: string]: unknown;
}

export function emptyMetadata(): HasuraMetadata {
  return { version: 3, sources: [{ name: "default", kind: "postgres", tables: [], configuration: { connection_info: { database_url: { from_env: "HASURA_GRAPHQL_DATABASE_URL" } } } }] };
}

export class MetadataError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = "MetadataError";
  }
}

export function qualifiedTable(t: QualifiedTable | string): QualifiedTable {
  return typeof t === "string" ? { schema: "public", name: t } : { schema: t.schema ?? "public", name: t.name };
}

export function tableKey(t: QualifiedTable): string {
  return `${t.schema}.${t.name}`;
}
