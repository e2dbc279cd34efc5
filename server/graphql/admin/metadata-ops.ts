/**
 * Hasura's metadata operations as pure functions: (current metadata, args) → new metadata,
 * or an AdminError in Hasura's shape. The plugin hands the result to engine.replaceMetadata,
 * which validates it against the catalogue.
 */
import type {
  HasuraMetadata,
  PermissionEntry,
  PermissionType,
  QualifiedTable,
  RelationshipDef,
  RelationshipType,
  SourceMetadata,
  TableMetadata,
} from "./metadata-types.ts";
import { PERMISSION_TYPES } from "./metadata-types.ts";

import { emptyMetadata, qualifiedTable, tableKey } from "../metadata/types.ts";

export type { QualifiedTable } from "./metadata-types.ts";

/** An error as Hasura's admin interfaces report it: HTTP status and body {path, error, code}. */
export class AdminError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path = "$.args",
    readonly status = 400,
    readonly internal?: unknown,
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    const b: Record<string, unknown> = { path: this.path, error: this.message, code: this.code };
    if (this.internal !== undefined) b.internal = this.internal;
    return b;
  }
  /** The same error seen from inside a bulk step or a nested argument. */
  under(prefix: string): AdminError {
    const rest = this.path.startsWith("$") ? this.path.slice(1) : `.${this.path}`;
    return new AdminError(this.code, this.message, `${prefix}${rest}`, this.status, this.internal);
  }
}

export const DEFAULT_SOURCE = "default";


// ───────────────────────────── argument helpers ─────────────────────────────

type Args = Record<string, unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function asArgs(args: unknown, path = "$.args"): Args {
  if (!isObject(args)) throw new AdminError("parse-failed", "expecting an object", path);
  return args;
}

function requireString(args: Args, key: string, path = "$.args"): string {
  const v = args[key];
  if (typeof v !== "string" || v === "") throw new AdminError("parse-failed", `key "${key}" not found`, path);
  return v;
}

/** "author" | {name, schema?} → {schema, name}. */
export function parseTable(v: unknown, path = "$.args.table"): QualifiedTable {
  if (typeof v === "string" && v !== "") return { schema: "public", name: v };
  if (isObject(v) && typeof v.name === "string" && v.name !== "") {
    if (v.schema !== undefined && typeof v.schema !== "string") throw new AdminError("parse-failed", "expecting a string for schema", path);
    return { schema: (v.schema as string | undefined) ?? "public", name: v.name };
  }
  throw new AdminError("parse-failed", "expecting a table name (a string or {schema, name})", path);
}


/** How Hasura prints a table in messages: bare name in public, else schema.name. */
export function showTable(t: QualifiedTable): string {
  return t.schema === "public" ? t.name : `${t.schema}.${t.name}`;
}

function sameTable(a: QualifiedTable, b: QualifiedTable): boolean {
  return a.schema === b.schema && a.name === b.name;
}

function checkSource(args: Args): string {
  const source = args.source ?? DEFAULT_SOURCE;
  if (source !== DEFAULT_SOURCE) throw new AdminError("not-exists", `source with name "${String(source)}" does not exist`, "$.args");
  return source;
}

// ───────────────────────────── metadata access ─────────────────────────────

function clone<T>(v: T): T {
  return structuredClone(v);
}

function sourceOf(md: HasuraMetadata, name = DEFAULT_SOURCE): SourceMetadata {
  let source = md.sources.find((s) => s.name === name);
  if (!source) {
    source = { name, kind: "postgres", tables: [] };
    md.sources.push(source);
  }
  return source;
}

function findTable(md: HasuraMetadata, t: QualifiedTable): TableMetadata | undefined {
  return sourceOf(md).tables.find((e) => sameTable(e.table, t));
}

function trackedTable(md: HasuraMetadata, t: QualifiedTable, path = "$.args.table"): TableMetadata {
  const entry = findTable(md, t);
  if (!entry) throw new AdminError("not-exists", `table "${showTable(t)}" does not exist in source: ${DEFAULT_SOURCE}`, path);
  return entry;
}

const relKey = (type: RelationshipType): "object_relationships" | "array_relationships" =>
  type === "object" ? "object_relationships" : "array_relationships";
const permKey = (type: PermissionType) => `${type}_permissions` as const;

function allRelationships(entry: TableMetadata): { type: RelationshipType; rel: RelationshipDef }[] {
  return [
    ...(entry.object_relationships ?? []).map((rel) => ({ type: "object" as const, rel })),
    ...(entry.array_relationships ?? []).map((rel) => ({ type: "array" as const, rel })),
  ];
}

/** Drops empty lists so exports stay as small as Hasura's. */
function tidy(entry: TableMetadata): void {
  for (const key of ["object_relationships", "array_relationships", ...PERMISSION_TYPES.map(permKey)]) {
    const list = entry[key] as unknown[] | undefined;
    if (list && list.length === 0) delete entry[key];
  }
}

// ───────────────────────────── tables ─────────────────────────────

export function trackTable(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  // v1 accepts {schema, name}, {table: …} or a bare string.
  let table: QualifiedTable;
  let extra: Args = {};
  if (typeof rawArgs === "string") table = parseTable(rawArgs, "$.args");
  else {
    const args = asArgs(rawArgs);
    checkSource(args);
    table = args.table !== undefined ? parseTable(args.table) : parseTable(args, "$.args");
    extra = args;
  }
  const next = clone(md);
  if (findTable(next, table)) throw new AdminError("already-tracked", `view/table already tracked: "${showTable(table)}"`);
  const entry: TableMetadata = { table };
  if (extra.is_enum === true) entry.is_enum = true;
  if (isObject(extra.configuration) && Object.keys(extra.configuration).length > 0) entry.configuration = clone(extra.configuration);
  sourceOf(next).tables.push(entry);
  return next;
}

export function untrackTable(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  const next = clone(md);
  trackedTable(next, table);
  const source = sourceOf(next);
  const dependents: string[] = [];
  for (const entry of source.tables) {
    if (sameTable(entry.table, table)) continue;
    for (const { rel } of allRelationships(entry)) {
      const target = relationshipTarget(rel);
      if (target && sameTable(target, table)) dependents.push(`relationship ${showTable(entry.table)}.${rel.name}`);
    }
  }
  if (dependents.length > 0 && args.cascade !== true) {
    throw new AdminError("dependency-error", `cannot drop due to the following dependent objects : ${dependents.join(", ")}`, "$.args");
  }
  source.tables = source.tables.filter((e) => !sameTable(e.table, table));
  if (args.cascade === true) {
    for (const entry of source.tables) {
      for (const type of ["object", "array"] as const) {
        const removed = (entry[relKey(type)] ?? []).filter((rel) => sameTable(relationshipTarget(rel) ?? entry.table, table));
        for (const rel of removed) dropRelationshipAndDependents(entry, rel.name, true);
      }
      tidy(entry);
    }
  }
  return next;
}

/**
 * set_table_customization (and its older name set_table_configuration): the table's configuration replaced whole —
 * custom_name, custom_root_fields, column_config / custom_column_names. An empty one removes it.
 */
export function setTableCustomization(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  if (args.configuration !== undefined && !isObject(args.configuration)) throw new AdminError("parse-failed", "expecting an object", "$.args.configuration");
  return withConfiguration(md, table, clone(args.configuration ?? {}));
}

/** set_table_custom_fields (v1, deprecated in Hasura): custom_root_fields and custom_column_names at the top level of args. */
function setTableCustomFields(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  const entry = findTable(md, table);
  const configuration: Record<string, unknown> = { ...(entry?.configuration ?? {}) };
  for (const key of ["custom_root_fields", "custom_column_names"] as const) {
    if (args[key] === undefined) continue;
    if (!isObject(args[key])) throw new AdminError("parse-failed", "expecting an object", `$.args.${key}`);
    configuration[key] = clone(args[key]);
  }
  return withConfiguration(md, table, configuration);
}

function withConfiguration(md: HasuraMetadata, table: QualifiedTable, configuration: Record<string, unknown>): HasuraMetadata {
  const next = clone(md);
  const entry = trackedTable(next, table);
  const empty = Object.values(configuration).every((v) => v === undefined || v === null || (isObject(v) && Object.keys(v).length === 0));
  if (empty) delete entry.configuration;
  else entry.configuration = configuration;
  return next;
}

// ───────────────────────────── computed fields ─────────────────────────────

/** add_computed_field: the function is checked against the catalogue when the metadata is installed. */
export function addComputedField(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  const name = requireString(args, "name");
  const definition = args.definition;
  if (!isObject(definition)) throw new AdminError("parse-failed", `key "definition" not found`, "$.args");
  const fn = parseTable(definition.function, "$.args.definition.function");
  const next = clone(md);
  const entry = findTable(next, table);
  if (!entry) throw new AdminError("not-exists", `table "${showTable(table)}" does not exist`, "$.args.table");
  const list = (entry.computed_fields ??= []);
  if (list.some((c) => c.name === name)) throw new AdminError("already-exists", `computed field "${name}" already exists`, "$.args.name");
  list.push({
    name,
    definition: {
      function: fn,
      table_argument: typeof definition.table_argument === "string" ? definition.table_argument : null,
      ...(typeof definition.session_argument === "string" ? { session_argument: definition.session_argument } : {}),
    },
    comment: typeof args.comment === "string" ? args.comment : null,
  });
  return next;
}

/** drop_computed_field: select permissions that grant it or filter on it are dependents (dropped with cascade). */
export function dropComputedField(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  const name = requireString(args, "name");
  const next = clone(md);
  const entry = trackedTable(next, table);
  if (!(entry.computed_fields ?? []).some((c) => c.name === name)) throw new AdminError("not-exists", `computed field "${name}" does not exist`, "$.args.name");
  const uses = (type: PermissionType, p: PermissionEntry<unknown>) =>
    (type === "select" && ((p.permission as { computed_fields?: string[] }).computed_fields ?? []).includes(name)) || permissionExpressions(type, p).some((e) => boolExpUsesField(e, name));
  const dependents = PERMISSION_TYPES.flatMap((type) => (entry[permKey(type)] ?? []).filter((p) => uses(type, p)).map((p) => `permission ${showTable(entry.table)}.${p.role}.${type}`));
  if (dependents.length > 0 && args.cascade !== true) {
    throw new AdminError("dependency-error", `cannot drop due to the following dependent objects : ${dependents.join(", ")}`, "$.args");
  }
  for (const type of PERMISSION_TYPES) {
    const list = entry[permKey(type)] as PermissionEntry<unknown>[] | undefined;
    if (list) (entry as Record<string, unknown>)[permKey(type)] = list.filter((p) => !uses(type, p));
  }
  entry.computed_fields = entry.computed_fields!.filter((c) => c.name !== name);
  if (!entry.computed_fields.length) delete entry.computed_fields;
  tidy(entry);
  return next;
}

// ───────────────────────────── relationships ─────────────────────────────

/** The remote table of a relationship when the metadata alone tells it (not for object FKs on local columns). */
export function relationshipTarget(rel: RelationshipDef): QualifiedTable | undefined {
  const { manual_configuration: manual, foreign_key_constraint_on: fk } = rel.using;
  if (manual) return parseTable(manual.remote_table);
  if (isObject(fk) && "table" in fk && fk.table !== undefined) return parseTable(fk.table);
  return undefined;
}

function fkColumns(v: unknown): string[] | undefined {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.length > 0 && v.every((c) => typeof c === "string")) return v as string[];
  return undefined;
}

/** Hasura reads `columns: x` as one column; the canonical (exported) form of one column is `column: x`. */
function canonicalColumns(fk: Record<string, unknown>): Record<string, unknown> {
  const out = clone(fk);
  if (typeof out.columns === "string") {
    out.column = out.columns;
    delete out.columns;
  }
  return out;
}

function validateUsing(type: RelationshipType, using: unknown): RelationshipDef["using"] {
  const path = "$.args.using";
  if (!isObject(using)) throw new AdminError("parse-failed", "expecting an object for using", path);
  const hasFk = using.foreign_key_constraint_on !== undefined;
  const hasManual = using.manual_configuration !== undefined;
  if (hasFk === hasManual) {
    throw new AdminError("parse-failed", "expecting exactly one of foreign_key_constraint_on and manual_configuration", path);
  }
  if (hasManual) {
    const m = using.manual_configuration;
    const mpath = `${path}.manual_configuration`;
    if (!isObject(m)) throw new AdminError("parse-failed", "expecting an object for manual_configuration", mpath);
    parseTable(m.remote_table, `${mpath}.remote_table`);
    if (!isObject(m.column_mapping) || Object.keys(m.column_mapping).length === 0 || !Object.values(m.column_mapping).every((c) => typeof c === "string")) {
      throw new AdminError("parse-failed", "expecting a non-empty object of column names for column_mapping", `${mpath}.column_mapping`);
    }
    return clone(using) as RelationshipDef["using"];
  }
  const fk = using.foreign_key_constraint_on;
  const fpath = `${path}.foreign_key_constraint_on`;
  if (type === "array") {
    if (!isObject(fk) || fk.table === undefined || (fk.column === undefined && fk.columns === undefined)) {
      throw new AdminError("parse-failed", "Expecting object { table, columns }.", fpath);
    }
    parseTable(fk.table, `${fpath}.table`);
    if (!fkColumns(fk.column ?? fk.columns)) throw new AdminError("parse-failed", "expecting a column name or a list of column names", fpath);
    return { foreign_key_constraint_on: canonicalColumns(fk) } as RelationshipDef["using"];
  }
  if (fkColumns(fk)) return clone(using) as RelationshipDef["using"];
  if (isObject(fk) && fkColumns(fk.column ?? fk.columns)) {
    if (fk.table !== undefined) parseTable(fk.table, `${fpath}.table`);
    return { foreign_key_constraint_on: canonicalColumns(fk) } as RelationshipDef["using"];
  }
  throw new AdminError("parse-failed", "expecting a column name, a list of column names or { table, columns }", fpath);
}

function createRelationship(type: RelationshipType) {
  return (md: HasuraMetadata, rawArgs: unknown): HasuraMetadata => {
    const args = asArgs(rawArgs);
    checkSource(args);
    const table = parseTable(args.table);
    const name = requireString(args, "name");
    const using = validateUsing(type, args.using);
    const next = clone(md);
    const entry = trackedTable(next, table);
    if (allRelationships(entry).some(({ rel }) => rel.name === name)) {
      throw new AdminError("already-exists", `relationship "${name}" of table "${showTable(table)}" already exists`, "$.args.name");
    }
    const rel: RelationshipDef = { name, using };
    if (typeof args.comment === "string") rel.comment = args.comment;
    (entry[relKey(type)] ??= []).push(rel);
    return next;
  };
}

export const createObjectRelationship = createRelationship("object");
export const createArrayRelationship = createRelationship("array");

/** Does a boolean expression mention `field` at its top level (through _and/_or/_not)? */
export function boolExpUsesField(exp: unknown, field: string): boolean {
  if (Array.isArray(exp)) return exp.some((e) => boolExpUsesField(e, field));
  if (!isObject(exp)) return false;
  for (const [key, value] of Object.entries(exp)) {
    const k = key.startsWith("$") ? `_${key.slice(1)}` : key;
    if (k === "_and" || k === "_or" || k === "_not") {
      if (boolExpUsesField(value, field)) return true;
    } else if (key === field) return true;
  }
  return false;
}

function permissionExpressions(type: PermissionType, p: PermissionEntry<unknown>): unknown[] {
  const perm = p.permission as Record<string, unknown>;
  return type === "insert" ? [perm.check] : [perm.filter, perm.check];
}

/** Removes a relationship; permissions that use it go too when cascading, else it is an error. */
function dropRelationshipAndDependents(entry: TableMetadata, name: string, cascade: boolean): void {
  const dependents: string[] = [];
  for (const type of PERMISSION_TYPES) {
    for (const p of entry[permKey(type)] ?? []) {
      if (permissionExpressions(type, p).some((e) => boolExpUsesField(e, name))) {
        dependents.push(`permission ${showTable(entry.table)}.${p.role}.${type}`);
      }
    }
  }
  if (dependents.length > 0 && !cascade) {
    throw new AdminError("dependency-error", `cannot drop due to the following dependent objects : ${dependents.join(", ")}`, "$.args");
  }
  for (const type of PERMISSION_TYPES) {
    const list = entry[permKey(type)] as PermissionEntry<unknown>[] | undefined;
    if (list) (entry as Record<string, unknown>)[permKey(type)] = list.filter((p) => !permissionExpressions(type, p).some((e) => boolExpUsesField(e, name)));
  }
  entry.object_relationships = (entry.object_relationships ?? []).filter((r) => r.name !== name);
  entry.array_relationships = (entry.array_relationships ?? []).filter((r) => r.name !== name);
  tidy(entry);
}

export function dropRelationship(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  const name = typeof args.relationship === "string" ? args.relationship : requireString(args, "name");
  const next = clone(md);
  const entry = trackedTable(next, table);
  if (!allRelationships(entry).some(({ rel }) => rel.name === name)) {
    throw new AdminError("not-exists", `relationship "${name}" does not exist in table "${showTable(table)}"`, "$.args.relationship");
  }
  dropRelationshipAndDependents(entry, name, args.cascade === true);
  return next;
}

export function setRelationshipComment(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  checkSource(args);
  const table = parseTable(args.table);
  const name = typeof args.relationship === "string" ? args.relationship : requireString(args, "name");
  const next = clone(md);
  const entry = trackedTable(next, table);
  const found = allRelationships(entry).find(({ rel }) => rel.name === name);
  if (!found) throw new AdminError("not-exists", `relationship "${name}" does not exist in table "${showTable(table)}"`, "$.args.name");
  if (typeof args.comment === "string") found.rel.comment = args.comment;
  else delete found.rel.comment;
  return next;
}

// ───────────────────────────── permissions ─────────────────────────────

function validatePermission(type: PermissionType, p: unknown): Record<string, unknown> {
  const path = "$.args.permission";
  if (!isObject(p)) throw new AdminError("parse-failed", "expecting an object for permission", path);
  const columns = p.columns;
  const columnsOk = columns === "*" || (Array.isArray(columns) && columns.every((c) => typeof c === "string"));
  if (type === "select" || type === "update") {
    if (!columnsOk) throw new AdminError("parse-failed", 'key "columns" not found or not a list of column names or "*"', path);
  } else if (type === "insert" && columns !== undefined && !columnsOk) {
    throw new AdminError("parse-failed", 'expecting a list of column names or "*" for columns', `${path}.columns`);
  }
  const exprKey = type === "insert" ? "check" : "filter";
  const expr = p[exprKey] ?? (type === "insert" ? undefined : {});
  if (expr === undefined || !isObject(expr)) throw new AdminError("parse-failed", `key "${exprKey}" not found or not an object`, path);
  if (p.limit !== undefined && p.limit !== null && !(Number.isInteger(p.limit) && (p.limit as number) >= 0)) {
    throw new AdminError("parse-failed", "expecting a non-negative integer for limit", `${path}.limit`);
  }
  const out = clone(p);
  out[exprKey] = expr;
  return out;
}

function createPermission(type: PermissionType) {
  return (md: HasuraMetadata, rawArgs: unknown): HasuraMetadata => {
    const args = asArgs(rawArgs);
    checkSource(args);
    const table = parseTable(args.table);
    const role = requireString(args, "role");
    if (role === "admin") throw new AdminError("constraint-violation", `"admin" is the admin role and cannot have permissions`, "$.args.role");
    const permission = validatePermission(type, args.permission);
    const next = clone(md);
    const entry = trackedTable(next, table);
    const list = ((entry as Record<string, unknown>)[permKey(type)] ??= []) as PermissionEntry<unknown>[];
    if (list.some((p) => p.role === role)) {
      throw new AdminError("already-exists", `${type} permission already defined on table "${showTable(table)}" with role "${role}"`, "$.args");
    }
    const e: PermissionEntry<unknown> = { role, permission };
    if (typeof args.comment === "string") e.comment = args.comment;
    list.push(e);
    return next;
  };
}

function dropPermission(type: PermissionType) {
  return (md: HasuraMetadata, rawArgs: unknown): HasuraMetadata => {
    const args = asArgs(rawArgs);
    checkSource(args);
    const table = parseTable(args.table);
    const role = requireString(args, "role");
    const next = clone(md);
    const entry = trackedTable(next, table);
    const list = (entry[permKey(type)] ?? []) as PermissionEntry<unknown>[];
    if (!list.some((p) => p.role === role)) {
      throw new AdminError("not-exists", `${type} permission on "${showTable(table)}" for role "${role}" does not exist`, "$.args");
    }
    (entry as Record<string, unknown>)[permKey(type)] = list.filter((p) => p.role !== role);
    tidy(entry);
    return next;
  };
}

export const createSelectPermission = createPermission("select");
export const createInsertPermission = createPermission("insert");
export const createUpdatePermission = createPermission("update");
export const createDeletePermission = createPermission("delete");
export const dropSelectPermission = dropPermission("select");
export const dropInsertPermission = dropPermission("insert");
export const dropUpdatePermission = dropPermission("update");
export const dropDeletePermission = dropPermission("delete");

// ───────────────────────────── inherited roles ─────────────────────────────

/** `add_inherited_role`: a role made of other roles (the union of their permissions, as for a user with several roles). */
export function addInheritedRole(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const args = asArgs(rawArgs);
  const name = requireString(args, "role_name");
  const set = args.role_set;
  if (!Array.isArray(set) || set.some((r) => typeof r !== "string")) throw new AdminError("parse-failed", 'expected an array of role names in "role_set"', "$.args.role_set");
  if (set.includes(name)) throw new AdminError("invalid-params", "an inherited role name cannot be in the role combination", "$.args");
  if ((md.inherited_roles ?? []).some((r) => r.role_name === name)) throw new AdminError("already-exists", `the inherited role "${name}" already exists`, "$.args");
  const next = clone(md);
  next.inherited_roles = [...(next.inherited_roles ?? []), { role_name: name, role_set: [...new Set(set as string[])] }];
  return next;
}

export function dropInheritedRole(md: HasuraMetadata, rawArgs: unknown): HasuraMetadata {
  const name = requireString(asArgs(rawArgs), "role_name");
  if (!(md.inherited_roles ?? []).some((r) => r.role_name === name)) throw new AdminError("not-exists", `the inherited role "${name}" does not exist`, "$.args");
  const next = clone(md);
  next.inherited_roles = next.inherited_roles!.filter((r) => r.role_name !== name);
  if (next.inherited_roles.length === 0) delete next.inherited_roles;
  return next;
}

// ───────────────────────────── whole metadata ─────────────────────────────

export function clearMetadata(md: HasuraMetadata): HasuraMetadata {
  const next = emptyMetadata();
  const configuration = md.sources.find((s) => s.name === DEFAULT_SOURCE)?.configuration;
  if (configuration !== undefined) next.sources[0].configuration = clone(configuration);
  else delete next.sources[0].configuration;
  return next;
}

/** replace_metadata accepts v1/v2 ({tables}), v3 ({sources}) and {metadata, allow_inconsistent_metadata}. */
export function normaliseMetadata(raw: unknown, path = "$.args"): HasuraMetadata {
  if (!isObject(raw)) throw new AdminError("parse-failed", "expecting an object for metadata", path);
  if (isObject(raw.metadata) && raw.sources === undefined && raw.tables === undefined) return normaliseMetadata(raw.metadata, `${path}.metadata`);
  if (Array.isArray(raw.sources)) {
    if (raw.version !== undefined && raw.version !== 3) throw new AdminError("parse-failed", `unsupported metadata version ${String(raw.version)}`, `${path}.version`);
    const md = clone(raw) as unknown as HasuraMetadata;
    md.version = 3;
    for (const [i, s] of md.sources.entries()) {
      if (!isObject(s) || typeof s.name !== "string") throw new AdminError("parse-failed", "expecting {name, kind, tables} for a source", `${path}.sources[${i}]`);
      s.tables = (s.tables ?? []).map((t, j) => normaliseTable(t, `${path}.sources[${i}].tables[${j}]`));
    }
    if (!md.sources.some((s) => s.name === DEFAULT_SOURCE)) md.sources.unshift({ name: DEFAULT_SOURCE, kind: "postgres", tables: [] });
    return md;
  }
  if (raw.version !== undefined && raw.version !== 1 && raw.version !== 2) {
    throw new AdminError("parse-failed", `unsupported metadata version ${String(raw.version)}`, `${path}.version`);
  }
  const tables = Array.isArray(raw.tables) ? raw.tables : [];
  const source: SourceMetadata = { name: DEFAULT_SOURCE, kind: "postgres", tables: tables.map((t, j) => normaliseTable(t, `${path}.tables[${j}]`)) };
  if (Array.isArray(raw.functions) && raw.functions.length > 0) source.functions = clone(raw.functions);
  const md: HasuraMetadata = { version: 3, sources: [source] };
  for (const key of ["remote_schemas", "actions", "custom_types", "allowlist", "query_collections", "cron_triggers"]) {
    const v = raw[key];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) md[key] = clone(v);
  }
  return md;
}

function normaliseTable(raw: unknown, path: string): TableMetadata {
  if (!isObject(raw)) throw new AdminError("parse-failed", "expecting an object for a table", path);
  const entry = clone(raw) as TableMetadata;
  entry.table = parseTable(raw.table, `${path}.table`);
  tidy(entry);
  return entry;
}

// ───────────────────────────── after run_sql ─────────────────────────────

/** What run_sql's consistency check needs to know about the catalogue after the SQL ran. */
export interface CatalogSnapshot {
  /** schema.name → its column names */
  tables: Map<string, Set<string>>;
  foreignKeys: { table: QualifiedTable; columns: string[]; refTable: QualifiedTable; refColumns: string[] }[];
  /** schema.name of every function */
  functions: Set<string>;
}

function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

/** Resolves where a relationship points and whether its columns and constraint still exist. */
function resolveRelationship(catalog: CatalogSnapshot, owner: QualifiedTable, rel: RelationshipDef): QualifiedTable | undefined {
  const ownColumns = catalog.tables.get(tableKey(owner));
  if (!ownColumns) return undefined;
  const { manual_configuration: manual, foreign_key_constraint_on: fk } = rel.using;
  if (manual) {
    const remote = parseTable(manual.remote_table);
    const remoteColumns = catalog.tables.get(tableKey(remote));
    if (!remoteColumns) return undefined;
    const ok = Object.entries(manual.column_mapping).every(([l, r]) => ownColumns.has(l) && remoteColumns.has(r));
    return ok ? remote : undefined;
  }
  if (isObject(fk) && "table" in fk && fk.table !== undefined) {
    // the foreign key lives on the remote table and points at the owner
    const remote = parseTable(fk.table);
    const columns = fkColumns(fk.column ?? fk.columns) ?? [];
    const found = catalog.foreignKeys.some((k) => sameTable(k.table, remote) && sameTable(k.refTable, owner) && sameColumns(k.columns, columns));
    return found ? remote : undefined;
  }
  const columns = fkColumns(isObject(fk) ? (fk.column ?? fk.columns) : fk) ?? [];
  const key = catalog.foreignKeys.find((k) => sameTable(k.table, owner) && sameColumns(k.columns, columns));
  if (!key || !catalog.tables.has(tableKey(key.refTable))) return undefined;
  return key.refTable;
}

/**
 * After run_sql: tables that no longer exist leave the metadata; objects on the remaining tables that
 * depend on what was dropped (relationships, permissions) are an error unless `cascade`, in which case
 * they are removed too. Returns the metadata to keep (the same object when nothing changed).
 */
export function reconcileWithCatalog(md: HasuraMetadata, catalog: CatalogSnapshot, cascade: boolean): HasuraMetadata {
  const source = md.sources.find((s) => s.name === DEFAULT_SOURCE);
  if (!source) return md;
  const surviving = source.tables.filter((e) => catalog.tables.has(tableKey(e.table)));
  const dependents: string[] = [];
  const next = clone(md);
  const nextSource = sourceOf(next);
  nextSource.tables = clone(surviving);

  const targets = new Map<string, Map<string, QualifiedTable | undefined>>();
  for (const entry of nextSource.tables) {
    const m = new Map<string, QualifiedTable | undefined>();
    for (const { rel } of allRelationships(entry)) m.set(rel.name, resolveRelationship(catalog, entry.table, rel));
    targets.set(tableKey(entry.table), m);
  }

  /** Is every column and relationship a boolean expression names still there? */
  const expressionOk = (exp: unknown, table: QualifiedTable): boolean => {
    if (Array.isArray(exp)) return exp.every((e) => expressionOk(e, table));
    if (!isObject(exp)) return true;
    const columns = catalog.tables.get(tableKey(table));
    if (!columns) return false;
    for (const [key, value] of Object.entries(exp)) {
      const k = key.startsWith("$") ? `_${key.slice(1)}` : key;
      if (k === "_and" || k === "_or" || k === "_not") {
        if (!expressionOk(value, table)) return false;
      } else if (k.startsWith("_")) {
        continue; // _exists and operators
      } else if (!columns.has(key)) {
        const rels = targets.get(tableKey(table));
        if (rels?.has(key)) {
          const target = rels.get(key);
          if (!target || !expressionOk(value, target)) return false;
        } else {
          // unknown field: a computed field or a column that was dropped — only the latter is ours to judge
          const entry = nextSource.tables.find((e) => sameTable(e.table, table));
          const computed = Array.isArray(entry?.computed_fields) ? (entry.computed_fields as unknown[]) : [];
          if (!computed.some((c) => isObject(c) && c.name === key)) return false;
        }
      }
    }
    return true;
  };

  // computed fields whose function is gone first: permissions anywhere may use them
  for (const entry of nextSource.tables) {
    if (!entry.computed_fields) continue;
    entry.computed_fields = entry.computed_fields.filter((c) => {
      if (catalog.functions.has(tableKey(qualifiedTable(c.definition.function)))) return true;
      dependents.push(`computed field ${showTable(entry.table)}.${c.name}`);
      return false;
    });
    if (!entry.computed_fields.length) delete entry.computed_fields;
  }

  for (const entry of nextSource.tables) {
    const columns = catalog.tables.get(tableKey(entry.table))!;
    const rels = targets.get(tableKey(entry.table))!;
    const computed = new Set((entry.computed_fields ?? []).map((c) => c.name));
    for (const type of ["object", "array"] as const) {
      const list = entry[relKey(type)];
      if (!list) continue;
      entry[relKey(type)] = list.filter((rel) => {
        if (rels.get(rel.name)) return true;
        dependents.push(`relationship ${showTable(entry.table)}.${rel.name}`);
        return false;
      });
    }
    for (const type of PERMISSION_TYPES) {
      const list = entry[permKey(type)] as PermissionEntry<Record<string, unknown>>[] | undefined;
      if (!list) continue;
      (entry as Record<string, unknown>)[permKey(type)] = list.filter((p) => {
        const perm = p.permission;
        const cols = Array.isArray(perm.columns) ? (perm.columns as string[]) : [];
        const presetCols = isObject(perm.set) ? Object.keys(perm.set) : [];
        const granted = Array.isArray(perm.computed_fields) ? (perm.computed_fields as string[]) : [];
        const ok =
          [...cols, ...presetCols].every((c) => columns.has(c)) &&
          granted.every((c) => computed.has(c)) &&
          permissionExpressions(type, p as PermissionEntry<unknown>).every((e) => expressionOk(e, entry.table));
        if (!ok) dependents.push(`permission ${showTable(entry.table)}.${p.role}.${type}`);
        return ok;
      });
    }
    tidy(entry);
  }
  if (dependents.length > 0 && !cascade) {
    throw new AdminError("dependency-error", `cannot drop due to the following dependent objects : ${dependents.join(", ")}`, "$.args");
  }
  if (surviving.length === source.tables.length && dependents.length === 0) return md;
  return next;
}

// ───────────────────────────── dispatch ─────────────────────────────

export type MetadataOp = (md: HasuraMetadata, args: unknown) => HasuraMetadata;

/** The metadata operations by their /v1/query names; /v1/metadata uses the same with a pg_ prefix. */
export const METADATA_OPS: Record<string, MetadataOp> = {
  track_table: trackTable,
  add_existing_table_or_view: trackTable,
  untrack_table: untrackTable,
  set_table_customization: setTableCustomization,
  set_table_configuration: setTableCustomization,
  set_table_custom_fields: setTableCustomFields,
  add_computed_field: addComputedField,
  drop_computed_field: dropComputedField,
  create_object_relationship: createObjectRelationship,
  create_array_relationship: createArrayRelationship,
  drop_relationship: dropRelationship,
  set_relationship_comment: setRelationshipComment,
  create_select_permission: createSelectPermission,
  create_insert_permission: createInsertPermission,
  create_update_permission: createUpdatePermission,
  create_delete_permission: createDeletePermission,
  drop_select_permission: dropSelectPermission,
  drop_insert_permission: dropInsertPermission,
  drop_update_permission: dropUpdatePermission,
  drop_delete_permission: dropDeletePermission,
  add_inherited_role: addInheritedRole,
  drop_inherited_role: dropInheritedRole,
  clear_metadata: (md) => clearMetadata(md),
  replace_metadata: (_md, args) => normaliseMetadata(args),
};
