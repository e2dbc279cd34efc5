import type { GeneratedPermissions, TableRolePermissions } from "../../auth/types.ts";
import type { Catalog, CatalogColumn } from "./catalog.ts";
import { columnModel, type ColumnModel } from "./columns.ts";
import { computedField, type ComputedFieldModel } from "./computed-fields.ts";
import {
  GRAPHQL_NAME,
  MetadataError,
  qualifiedTable,
  tableKey,
  type BoolExpJson,
  type HasuraMetadata,
  type RelationshipMetadata,
  type TableMetadata,
} from "./types.ts";

export type { ColumnModel } from "./columns.ts";
export type { ComputedFieldModel } from "./computed-fields.ts";

/** The tracked tables as the later stages see them: catalogue facts + metadata, checked against each other. */
export interface RelationshipModel {
  readonly name: string;
  readonly kind: "object" | "array";
  readonly target: string;
  /** [column of this table, column of the target] */
  readonly mapping: readonly (readonly [string, string])[];
}
/** One generated rule of a role's permission (see TableRolePermissions.rules). */
export interface PermissionRule {
  readonly columns: readonly string[];
  readonly filter: BoolExpJson;
  readonly check: BoolExpJson;
}
export interface SelectPermission {
  readonly columns: readonly string[];
  readonly filter: BoolExpJson;
  readonly limit?: number;
  readonly allowAggregations: boolean;
  /** The scalar computed fields the role may select (those returning a table follow the table's permission). */
  readonly computedFields: readonly string[];
  /** The role's rules one by one (each its columns under its filter); absent = the permission is one rule. */
  readonly rules?: readonly PermissionRule[];
}
/** Hasura's `backend_only`: the mutation exists only for requests with the admin secret and `x-hasura-use-backend-only-permissions: true`. */
interface BackendOnly {
  readonly backendOnly?: boolean;
}
export interface InsertPermission extends BackendOnly {
  readonly columns: readonly string[];
  readonly check: BoolExpJson;
  readonly set: Readonly<Record<string, unknown>>;
  readonly rules?: readonly PermissionRule[];
}
export interface UpdatePermission extends BackendOnly {
  readonly columns: readonly string[];
  readonly filter: BoolExpJson;
  readonly check?: BoolExpJson;
  readonly set: Readonly<Record<string, unknown>>;
  readonly rules?: readonly PermissionRule[];
}
export interface DeletePermission extends BackendOnly {
  readonly filter: BoolExpJson;
}
export interface RolePermissions {
  readonly select?: SelectPermission;
  readonly insert?: InsertPermission;
  readonly update?: UpdatePermission;
  readonly delete?: DeletePermission;
}
export interface RootFieldNames {
  readonly select: string;
  readonly select_by_pk: string;
  readonly select_aggregate: string;
  readonly insert: string;
  readonly insert_one: string;
  readonly update: string;
  readonly update_by_pk: string;
  readonly delete: string;
  readonly delete_by_pk: string;
}
export interface TableModel {
  readonly key: string;
  readonly schema: string;
  readonly name: string;
  readonly typeName: string;
  readonly columns: readonly ColumnModel[];
  /** By column name: permissions, presets and relationship mappings name columns so (as Hasura's metadata does). */
  readonly column: ReadonlyMap<string, ColumnModel>;
  /** By GraphQL field name: what requests say (selections, where, order_by, inputs). */
  readonly field: ReadonlyMap<string, ColumnModel>;
  readonly primaryKey: readonly string[];
  /** Primary key and unique constraints: the values of t_constraint. */
  readonly uniqueConstraints: readonly { readonly name: string; readonly columns: readonly string[] }[];
  readonly relationships: ReadonlyMap<string, RelationshipModel>;
  readonly computedFields: ReadonlyMap<string, ComputedFieldModel>;
  readonly rootFields: RootFieldNames;
  readonly permissions: ReadonlyMap<string, RolePermissions>;
  readonly notifiable: boolean;
}
export interface Model {
  readonly tables: ReadonlyMap<string, TableModel>;
  readonly inheritedRoles: ReadonlyMap<string, readonly string[]>;
}

function columnsOf(list: string[] | "*" | undefined, table: TableModel | { columns: readonly ColumnModel[] }, where: string, lenient = false): string[] {
  if (list === "*" || list === undefined) return table.columns.map((c) => c.name);
  const names = new Set(table.columns.map((c) => c.name));
  if (lenient) return list.filter((c) => names.has(c));
  for (const c of list) if (!names.has(c)) throw new MetadataError("permission-error", `no such column exists: "${c}"`, where);
  return [...list];
}

function rootFieldNames(meta: TableMetadata, base: string): RootFieldNames {
  const custom = meta.configuration?.custom_root_fields ?? {};
  const pick = (k: string, d: string) => {
    const v = custom[k];
    const n = typeof v === "string" ? v : v?.name;
    return n || d;
  };
  return {
    select: pick("select", base),
    select_by_pk: pick("select_by_pk", `${base}_by_pk`),
    select_aggregate: pick("select_aggregate", `${base}_aggregate`),
    insert: pick("insert", `insert_${base}`),
    insert_one: pick("insert_one", `insert_${base}_one`),
    update: pick("update", `update_${base}`),
    update_by_pk: pick("update_by_pk", `update_${base}_by_pk`),
    delete: pick("delete", `delete_${base}`),
    delete_by_pk: pick("delete_by_pk", `delete_${base}_by_pk`),
  };
}

function relationship(meta: RelationshipMetadata, kind: "object" | "array", self: string, catalog: Catalog, where: string): RelationshipModel {
  const using = meta.using ?? {};
  const fk = using.foreign_key_constraint_on;
  const source = catalog.get(self)!;
  if (using.manual_configuration) {
    const target = tableKey(qualifiedTable(using.manual_configuration.remote_table));
    const mapping = Object.entries(using.manual_configuration.column_mapping ?? {});
    const remote = catalog.get(target);
    if (!remote) throw new MetadataError("not-exists", `table "${target}" does not exist`, where);
    for (const [a, b] of mapping) {
      if (!source.columns.some((c) => c.name === a)) throw new MetadataError("not-exists", `column "${a}" does not exist in "${self}"`, where);
      if (!remote.columns.some((c) => c.name === b)) throw new MetadataError("not-exists", `column "${b}" does not exist in "${target}"`, where);
    }
    return { name: meta.name, kind, target, mapping };
  }
  if (fk === undefined) throw new MetadataError("invalid-configuration", `relationship "${meta.name}" has no "using"`, where);
  if (typeof fk === "string" || Array.isArray(fk)) {
    // This table holds the foreign key.
    const cols = typeof fk === "string" ? [fk] : fk;
    const con = source.constraints.find((c) => c.kind === "f" && c.columns.length === cols.length && c.columns.every((x, i) => x === cols[i]))
      ?? source.constraints.find((c) => c.kind === "f" && c.columns.length === cols.length && cols.every((x) => c.columns.includes(x)));
    if (!con) {
      if (!source.columns.some((c) => cols.includes(c.name))) throw new MetadataError("not-exists", `no such column exists: ${JSON.stringify(cols.join(","))}`, where);
      throw new MetadataError("not-exists", `no foreign constraint exists on the given column(s): ${cols.join(", ")}`, where);
    }
    return { name: meta.name, kind, target: con.foreignTable!, mapping: con.columns.map((c, i) => [c, con.foreignColumns![i]] as const) };
  }
  // The other table holds the foreign key pointing here.
  const target = tableKey(qualifiedTable(fk.table));
  const remote = catalog.get(target);
  if (!remote) throw new MetadataError("not-exists", `table "${target}" does not exist`, where);
  const cols = fk.columns ?? (fk.column ? [fk.column] : []);
  const con = remote.constraints.find((c) => c.kind === "f" && c.foreignTable === self && c.columns.length === cols.length && cols.every((x) => c.columns.includes(x)));
  if (!con) throw new MetadataError("not-exists", `no foreign constraint exists on the given column(s): ${cols.join(", ")}`, where);
  return { name: meta.name, kind, target, mapping: con.columns.map((c, i) => [con.foreignColumns![i], c] as const) };
}

/** A role's generated permissions on the table "schema.name" (the policy may name a public table without its schema). */
export function generatedFor(perTable: GeneratedPermissions[string], key: string): TableRolePermissions | undefined {
  return perTable[key] ?? perTable[key.replace(/^public\./, "")];
}

const withoutPresets = (columns: string[], set: Readonly<Record<string, unknown>>) => columns.filter((c) => !(c in set));

function normalisePermissions(meta: TableMetadata, generated: GeneratedPermissions, key: string, cols: Pick<TableModel, "name" | "columns" | "computedFields">, where: string) {
  const perms = new Map<string, { select?: SelectPermission; insert?: InsertPermission; update?: UpdatePermission; delete?: DeletePermission }>();
  const get = (role: string) => {
    let p = perms.get(role);
    if (!p) perms.set(role, (p = {}));
    return p;
  };
  for (const [role, tables] of Object.entries(generated)) {
    const g = generatedFor(tables, key);
    if (!g) continue;
    const p = get(role);
    const rules = (list: { columns: string[] | "*"; filter?: BoolExpJson; check?: BoolExpJson }[] | undefined) =>
      list?.map((r) => ({ columns: columnsOf(r.columns, cols, where, true), filter: r.filter ?? {}, check: r.check ?? {} }));
    if (g.select) p.select = { columns: columnsOf(g.select.columns, cols, where, true), filter: g.select.filter ?? {}, limit: g.select.limit, allowAggregations: !!g.select.allow_aggregations, computedFields: [], rules: rules(g.select.rules) };
    if (g.insert) p.insert = { columns: columnsOf(g.insert.columns, cols, where, true), check: g.insert.check ?? {}, set: g.insert.set ?? {}, rules: rules(g.insert.rules) };
    if (g.update) p.update = { columns: columnsOf(g.update.columns, cols, where, true), filter: g.update.filter ?? {}, check: g.update.check, set: g.update.set ?? {}, rules: rules(g.update.rules) };
    if (g.delete) p.delete = { filter: g.delete.filter ?? {} };
  }
  // Metadata written by hand wins over the generated permission of the same role and kind.
  for (const s of meta.select_permissions ?? []) {
    const p = s.permission ?? { columns: [] };
    const computedFields = (p.computed_fields ?? []).map((name) => {
      const at = `in table ${JSON.stringify(cols.name)}: in permission for role ${JSON.stringify(s.role)}: `;
      const field = cols.computedFields.get(name);
      if (!field) throw new MetadataError("constraint-violation", `${at}computed field ${JSON.stringify(name)} does not exist`, "$.args");
      if (field.returns.kind === "table") {
        const target = field.returns.table.replace(/^public\./, "");
        throw new MetadataError("constraint-violation", `${at}select permissions on computed field ${JSON.stringify(name)} are auto-derived from the permissions on its returning table ${JSON.stringify(target)} and cannot be specified manually`, "$.args");
      }
      return name;
    });
    get(s.role).select = { columns: columnsOf(p.columns, cols, `${where}.select_permissions`), filter: p.filter ?? {}, limit: p.limit ?? undefined, allowAggregations: !!p.allow_aggregations, computedFields };
  }
  for (const s of meta.insert_permissions ?? []) {
    const p = s.permission ?? {};
    // Hasura: no `columns` = every column; a preset column is no input of the role
    const set = p.set ?? {};
    get(s.role).insert = { columns: withoutPresets(columnsOf(p.columns, cols, `${where}.insert_permissions`), set), check: p.check ?? {}, set, backendOnly: p.backend_only === true };
  }
  for (const s of meta.update_permissions ?? []) {
    const p = s.permission ?? { columns: [] };
    const set = p.set ?? {};
    get(s.role).update = { columns: withoutPresets(columnsOf(p.columns, cols, `${where}.update_permissions`), set), filter: p.filter ?? {}, check: p.check ?? undefined, set, backendOnly: p.backend_only === true };
  }
  for (const s of meta.delete_permissions ?? []) get(s.role).delete = { filter: s.permission?.filter ?? {}, backendOnly: s.permission?.backend_only === true };
  return perms as Map<string, RolePermissions>;
}

/** Checks metadata against the catalogue and resolves it; throws MetadataError (the first problem found). */
export function buildModel(metadata: HasuraMetadata, catalog: Catalog, generated: GeneratedPermissions = {}): Model {
  const source = metadata.sources.find((s) => s.name === "default") ?? metadata.sources[0];
  const tables = new Map<string, TableModel>();
  const metas = source?.tables ?? [];
  const typeNames = new Set<string>();
  metas.forEach((meta, i) => {
    const q = qualifiedTable(meta.table);
    const key = tableKey(q);
    const where = `$.sources[0].tables[${i}]`;
    if (tables.has(key)) throw new MetadataError("already-tracked", `view/table already tracked: ${JSON.stringify(q.name)}`, where);
    const cat = catalog.get(key);
    if (!cat) throw new MetadataError("not-exists", `no such table/view exists in source: ${JSON.stringify(q.name)}`, where);
    const base = meta.configuration?.custom_name ?? (q.schema === "public" ? q.name : `${q.schema}_${q.name}`);
    if (!GRAPHQL_NAME.test(base)) throw new MetadataError("invalid-configuration", `the table name ${JSON.stringify(base)} is not a valid GraphQL name; set a custom_name`, where);
    if (typeNames.has(base)) throw new MetadataError("invalid-configuration", `the GraphQL type name ${JSON.stringify(base)} is used by two tables`, where);
    typeNames.add(base);
    const custom = customColumnNames(meta, cat.columns, where);
    const columns = cat.columns.map((c) => columnModel(c, custom.get(c.name)));
    const pk = cat.constraints.find((c) => c.kind === "p");
    tables.set(key, {
      key,
      schema: q.schema,
      name: q.name,
      typeName: base,
      columns,
      column: new Map(columns.map((c) => [c.name, c])),
      field: new Map(columns.map((c) => [c.field, c])),
      primaryKey: pk?.columns ?? [],
      uniqueConstraints: cat.constraints.filter((c) => c.kind !== "f").map((c) => ({ name: c.name, columns: c.columns })),
      relationships: new Map(),
      computedFields: new Map(),
      rootFields: rootFieldNames(meta, base),
      permissions: new Map(),
      notifiable: cat.kind === "r" || cat.kind === "p",
    });
  });
  metas.forEach((meta, i) => {
    const key = tableKey(qualifiedTable(meta.table));
    const t = tables.get(key)! as { -readonly [K in keyof TableModel]: TableModel[K] };
    const where = `$.sources[0].tables[${i}]`;
    const rels = new Map<string, RelationshipModel>();
    for (const [kind, list] of [["object", meta.object_relationships], ["array", meta.array_relationships]] as const) {
      for (const r of list ?? []) {
        const clash = t.field.get(r.name) ?? (kind === "array" ? t.field.get(`${r.name}_aggregate`) : undefined);
        if (rels.has(r.name) || (clash && clash.field === clash.name && clash.name === r.name)) throw new MetadataError("already-exists", `field with name "${r.name}" already exists in table "${t.name}"`, where);
        if (clash && clash.field !== clash.name) throw new MetadataError("invalid-configuration", `field definition conflicts with custom field name for postgres column ${JSON.stringify(clash.name)}`, `${where}.${kind}_relationships`);
        if (!GRAPHQL_NAME.test(r.name)) throw new MetadataError("invalid-configuration", `relationship name ${JSON.stringify(r.name)} is not a valid GraphQL name`, where);
        const rel = relationship(r, kind, key, catalog, `${where}.${kind}_relationships`);
        if (!tables.has(rel.target)) throw new MetadataError("not-exists", `table "${rel.target}" is not tracked`, where);
        rels.set(r.name, rel);
      }
    }
    t.relationships = rels;
    const computed = new Map<string, ComputedFieldModel>();
    for (const c of meta.computed_fields ?? []) {
      if (t.field.has(c.name)) throw new MetadataError("constraint-violation", "field definition conflicts with postgres column", "$.args");
      if (rels.has(c.name) || computed.has(c.name)) throw new MetadataError("constraint-violation", "field definition conflicts with another field of the table", "$.args");
      computed.set(c.name, computedField(c, t, catalog, (k) => tables.has(k)));
    }
    t.computedFields = computed;
    t.permissions = normalisePermissions(meta, generated, key, t, where);
  });
  return { tables, inheritedRoles: inheritedRoles(metadata.inherited_roles ?? []) };
}

/**
 * The custom GraphQL names of columns: `column_config.<column>.custom_name`, or the older `custom_column_names`
 * (column_config wins where both name a column). Every name must be a column, a valid GraphQL name and unique.
 */
function customColumnNames(meta: TableMetadata, columns: readonly CatalogColumn[], where: string): Map<string, string> {
  const config = meta.configuration ?? {};
  const names = new Map<string, string>(Object.entries(config.custom_column_names ?? {}));
  for (const [column, c] of Object.entries(config.column_config ?? {})) if (c?.custom_name) names.set(column, c.custom_name);
  const known = new Set(columns.map((c) => c.name));
  const missing = [...names.keys()].filter((c) => !known.has(c));
  if (missing.length) throw new MetadataError("not-exists", `the following columns referenced in column_config do not exist: ${missing.join(", ")}`, `${where}.configuration`);
  for (const name of names.values()) {
    if (!GRAPHQL_NAME.test(name)) throw new MetadataError("invalid-configuration", `${JSON.stringify(name)} is not a valid GraphQL name`, `${where}.configuration`);
  }
  const fields = columns.map((c) => names.get(c.name) ?? c.name);
  const twice = fields.filter((f, i) => fields.indexOf(f) !== i);
  if (twice.length) throw new MetadataError("invalid-configuration", `the following custom column names conflict with existing column names: ${[...new Set(twice)].join(", ")}`, `${where}.configuration`);
  return names;
}

/** Inherited roles by name, refused when one names itself or they form a cycle (Hasura resolves them in order). */
function inheritedRoles(list: NonNullable<HasuraMetadata["inherited_roles"]>): Map<string, readonly string[]> {
  const roles = new Map(list.map((r) => [r.role_name, r.role_set]));
  list.forEach((r, i) => {
    if (r.role_set.includes(r.role_name)) throw new MetadataError("invalid-params", "an inherited role name cannot be in the role combination", `$.inherited_roles[${i}]`);
  });
  const done = new Set<string>();
  const visit = (role: string, path: readonly string[]) => {
    if (path.includes(role)) throw new MetadataError("invalid-configuration", `found cycle(s) in roles: ${[...path.slice(path.indexOf(role)), role].join(" → ")}`, "$.inherited_roles");
    if (done.has(role)) return;
    for (const parent of roles.get(role) ?? []) visit(parent, [...path, role]);
    done.add(role);
  };
  for (const role of roles.keys()) visit(role, []);
  return roles;
}

/** After the schema changed under run_sql: drop what vanished, as Hasura does with cascade. */
export function pruneMetadata(metadata: HasuraMetadata, catalog: Catalog): HasuraMetadata {
  const copy = structuredClone(metadata);
  for (const source of copy.sources) {
    source.tables = source.tables.filter((t) => catalog.has(tableKey(qualifiedTable(t.table))));
    const alive = new Set(source.tables.map((t) => tableKey(qualifiedTable(t.table))));
    for (const t of source.tables) {
      const self = tableKey(qualifiedTable(t.table));
      const cat = catalog.get(self)!;
      const names = new Set(cat.columns.map((c) => c.name));
      const keep = (r: RelationshipMetadata, kind: "object" | "array") => {
        try {
          const m = relationship(r, kind, self, catalog, "");
          return alive.has(m.target);
        } catch {
          return false;
        }
      };
      t.object_relationships = t.object_relationships?.filter((r) => keep(r, "object"));
      t.array_relationships = t.array_relationships?.filter((r) => keep(r, "array"));
      t.computed_fields = t.computed_fields?.filter((c) => catalog.functions.has(tableKey(qualifiedTable(c.definition.function))));
      const computed = new Set((t.computed_fields ?? []).map((c) => c.name));
      const fix = (p: { columns?: string[] | "*"; computed_fields?: string[] }) => {
        if (Array.isArray(p.columns)) p.columns = p.columns.filter((c) => names.has(c));
        if (Array.isArray(p.computed_fields)) p.computed_fields = p.computed_fields.filter((c) => computed.has(c));
      };
      for (const list of [t.select_permissions, t.insert_permissions, t.update_permissions]) for (const p of list ?? []) fix(p.permission as { columns?: string[] });
    }
  }
  return copy;
}
