import { GraphQLObjectType, Kind, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import type { ColumnModel, ComputedFieldModel, Model, TableModel } from "../metadata/model.ts";
import { RequestError } from "../errors.ts";
import { fieldInfo, type RootKind } from "../schema/fields.ts";
import type {
  AggregateField,
  AggregateOutputField,
  BoolExp,
  ComputedCall,
  DeleteIR,
  InsertIR,
  InsertRow,
  MutationOutput,
  MutationOutputField,
  OperationPlan,
  RootPlan,
  RowField,
  SelectArgs,
  SelectIR,
  UpdateIR,
  UpdateOp,
  Value,
} from "./ir.ts";
import type { Access, EffectiveMutation, MutationRule } from "./permissions.ts";
import type { BoolExpJson } from "../metadata/types.ts";
import { columnNamed, parseBoolExp, type BoolExpContext } from "./boolexp.ts";
import { parseOrderBy } from "./order.ts";
import { tablesRead } from "./tables.ts";
import { parseJsonPath } from "./json-path.ts";
import { argumentsOf, collectFields, subSelections, type CollectedField, type Variables } from "./collect.ts";

export interface PlanInput {
  readonly schema: GraphQLSchema;
  readonly model: Model;
  readonly access: Access;
  readonly operation: OperationDefinitionNode;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** Raw variable values (defaults applied), keys in the order the client sent them. */
  readonly variables: Variables;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

class Planner {
  readonly tables = new Set<string>();
  constructor(private readonly input: PlanInput) {}

  private ctx(path: string): BoolExpContext {
    return { model: this.input.model, access: this.input.access, path };
  }
  private permCtx(path: string): BoolExpContext {
    return { model: this.input.model, path };
  }
  private permission(table: TableModel, json: Record<string, unknown> | null | undefined, path: string): BoolExp | null {
    return json ? parseBoolExp(this.permCtx(path), table, json) : null;
  }
  private fields(sets: readonly (SelectionSetNode | undefined)[]): CollectedField[] {
    return collectFields(sets, this.input.fragments, this.input.variables);
  }
  private args(f: CollectedField): Record<string, unknown> {
    return argumentsOf(f.nodes[0], this.input.variables);
  }

  plan(): OperationPlan {
    const op = this.input.operation.operation;
    const rootType = op === "query" ? this.input.schema.getQueryType() : op === "mutation" ? this.input.schema.getMutationType() : this.input.schema.getSubscriptionType();
    if (!rootType) throw new RequestError("validation-failed", `no ${op}s exist`);
    const fields: RootPlan[] = [];
    for (const f of this.fields([this.input.operation.selectionSet])) {
      const path = `$.selectionSet.${f.alias}`;
      if (f.name === "__typename") {
        fields.push({ kind: "typename", alias: f.alias, typename: rootType.name });
        continue;
      }
      if (f.name === "__schema" || f.name === "__type") continue; // answered by graphql-js (see execute)
      const def = rootType.getFields()[f.name];
      const info = def && fieldInfo(def);
      if (!info) throw new RequestError("validation-failed", `field '${f.name}' not found in type: '${rootType.name}'`, path);
      if (info.kind === "placeholder") {
        fields.push({ kind: "static", alias: f.alias, json: '""' });
        continue;
      }
      if (info.kind !== "root") throw new RequestError("unexpected", "unexpected root field", path);
      const table = this.input.model.tables.get(info.table)!;
      fields.push(this.root(info.root, table, f, path));
    }
    for (const f of fields) if (f.kind === "select" || f.kind === "estimate") tablesRead(f.select, this.tables);
    return { operation: op, fields, tables: [...this.tables] };
  }

  private root(root: RootKind, table: TableModel, f: CollectedField, path: string): RootPlan {
    const args = this.args(f);
    switch (root) {
      case "select":
        return { kind: "select", alias: f.alias, root, select: this.select(table, args, { kind: "rows", sets: subSelections(f) }, path) };
      case "select_aggregate":
        return { kind: "select", alias: f.alias, root, select: this.select(table, args, { kind: "aggregate", sets: subSelections(f) }, path) };
      case "select_count_estimate":
        return { kind: "estimate", alias: f.alias, select: this.select(table, { where: args.where }, { kind: "aggregate", sets: [] }, path) };
      case "select_by_pk":
        return { kind: "select", alias: f.alias, root, select: this.select(table, { where: pkWhere(table, args) }, { kind: "single", sets: subSelections(f) }, path) };
      case "insert":
      case "insert_one":
        return { kind: "mutation", alias: f.alias, root, mutation: this.insert(table, root === "insert" ? args.objects : [args.object], args.on_conflict, this.mutationOutput(table, f, root === "insert_one"), path) };
      case "update":
      case "update_by_pk":
        return { kind: "mutation", alias: f.alias, root, mutation: this.update(table, args, root === "update_by_pk", this.mutationOutput(table, f, root === "update_by_pk"), path) };
      case "delete":
      case "delete_by_pk":
        return { kind: "mutation", alias: f.alias, root, mutation: this.delete(table, root === "delete_by_pk" ? { where: pkWhere(table, args) } : args, this.mutationOutput(table, f, root === "delete_by_pk"), path) };
    }
  }

  // ---------- selects

  select(table: TableModel, args: Record<string, unknown>, out: { kind: "rows" | "single" | "aggregate"; sets: readonly (SelectionSetNode | undefined)[] }, path: string): SelectIR {
    this.tables.add(table.key);
    const sel = this.input.access.select(table);
    if (!sel) throw new RequestError("permission-error", `no select permission on "${table.name}"`, path);
    const ctx = this.ctx(`${path}.args`);
    const orderBy = parseOrderBy(ctx, table, args.order_by);
    const distinctOn = args.distinct_on === undefined || args.distinct_on === null ? undefined : (Array.isArray(args.distinct_on) ? args.distinct_on : [args.distinct_on]).map((c) => this.selectColumn(table, c, `${path}.args.distinct_on`));
    if (distinctOn?.length) {
      const lead = orderBy.slice(0, distinctOn.length);
      const matches = orderBy.length === 0 || (lead.length === distinctOn.length && lead.every((o) => o.target.kind === "column" && distinctOn.some((d) => d.name === (o.target as { column: { name: string } }).column.name)));
      if (!matches) throw new RequestError("validation-failed", '"distinct_on" columns must match initial "order_by" columns', `${path}.args`);
    }
    for (const k of ["limit", "offset"] as const) {
      const v = args[k];
      if (v !== undefined && v !== null && (typeof v !== "number" || !Number.isInteger(v) || v < 0)) throw new RequestError("validation-failed", `expected a non-negative 32-bit integer for type "Int", but found ${typeof v === "number" ? "an integer" : JSON.stringify(v)}`, `${path}.args.${k}`);
    }
    const selectArgs: SelectArgs = {
      where: isObject(args.where) ? parseBoolExp(ctx, table, args.where) : undefined,
      orderBy,
      distinctOn: distinctOn?.length ? distinctOn : undefined,
      limit: typeof args.limit === "number" ? args.limit : undefined,
      offset: typeof args.offset === "number" ? args.offset : undefined,
    };
    const permission = { filter: this.permission(table, sel.filter, path), limit: sel.limit };
    if (out.kind === "aggregate") return { table, args: selectArgs, permission, output: { kind: "aggregate", fields: this.aggregateOutput(table, out.sets, path) } };
    return { table, args: selectArgs, permission, output: { kind: "rows", fields: this.rowFields(table, out.sets, path), single: out.kind === "single" } };
  }

  /** A column named where the `<table>_select_column` enum is expected (distinct_on, count's columns): one the role may filter on. */
  private selectColumn(table: TableModel, name: unknown, path: string): ColumnModel {
    const column = columnNamed(this.ctx(path), table, String(name));
    if (!column) throw new RequestError("validation-failed", `unexpected value ${JSON.stringify(name)} for enum: '${table.typeName}_select_column'`, path);
    return column;
  }

  private typeOf(name: string): GraphQLObjectType {
    const t = this.input.schema.getType(name);
    if (!(t instanceof GraphQLObjectType)) throw new RequestError("unexpected", `type ${name} missing`);
    return t;
  }

  rowFields(table: TableModel, sets: readonly (SelectionSetNode | undefined)[], path: string): RowField[] {
    const type = this.typeOf(table.typeName);
    const sel = this.input.access.select(table)!;
    const out: RowField[] = [];
    for (const f of this.fields(sets)) {
      const p = `${path}.selectionSet.${f.alias}`;
      if (f.name === "__typename") {
        out.push({ kind: "typename", alias: f.alias, typename: table.typeName });
        continue;
      }
      const def = type.getFields()[f.name];
      const info = def && fieldInfo(def);
      if (!info) throw new RequestError("validation-failed", `field '${f.name}' not found in type: '${table.typeName}'`, p);
      if (info.kind === "column") {
        const cond = sel.columns.get(info.column);
        const path = this.args(f).path;
        out.push({ kind: "column", alias: f.alias, column: table.column.get(info.column)!, onlyWhere: cond ? this.permission(table, cond, p) : null, jsonPath: typeof path === "string" ? parseJsonPath(path, `${p}.args.path`) : undefined });
      } else if (info.kind === "computed" || info.kind === "computed_aggregate") {
        const field = table.computedFields.get(info.field)!;
        const args = this.args(f);
        const call: ComputedCall = { field, table, args: computedArguments(field, args.args) };
        if (field.returns.kind === "scalar") out.push({ kind: "computed", alias: f.alias, call });
        else {
          const kind = info.kind === "computed" ? "rows" : "aggregate";
          const select = this.select(this.input.model.tables.get(field.returns.table)!, args, { kind, sets: subSelections(f) }, p);
          out.push({ kind: "computed_set", alias: f.alias, select: { ...select, source: call } });
        }
      } else if (info.kind === "relationship" || info.kind === "relationship_aggregate") {
        const rel = table.relationships.get(info.rel)!;
        const target = this.input.model.tables.get(rel.target)!;
        const sub = subSelections(f);
        if (info.kind === "relationship_aggregate") out.push({ kind: "array_aggregate", alias: f.alias, rel, select: this.select(target, this.args(f), { kind: "aggregate", sets: sub }, p) });
        else if (rel.kind === "object") out.push({ kind: "object_rel", alias: f.alias, rel, select: this.select(target, {}, { kind: "single", sets: sub }, p) });
        else out.push({ kind: "array_rel", alias: f.alias, rel, select: this.select(target, this.args(f), { kind: "rows", sets: sub }, p) });
      }
    }
    return out;
  }

  private aggregateOutput(table: TableModel, sets: readonly (SelectionSetNode | undefined)[], path: string): AggregateOutputField[] {
    const out: AggregateOutputField[] = [];
    for (const f of this.fields(sets)) {
      const p = `${path}.selectionSet.${f.alias}`;
      if (f.name === "__typename") out.push({ kind: "typename", alias: f.alias, typename: `${table.typeName}_aggregate` });
      else if (f.name === "nodes") out.push({ kind: "nodes", alias: f.alias, fields: this.rowFields(table, subSelections(f), p) });
      else if (f.name === "aggregate") {
        const fields: AggregateField[] = [];
        for (const a of this.fields(subSelections(f))) {
          if (a.name === "__typename") fields.push({ kind: "typename", alias: a.alias, typename: `${table.typeName}_aggregate_fields` });
          else if (a.name === "count") {
            const args = this.args(a);
            const cols = args.columns === undefined || args.columns === null ? [] : Array.isArray(args.columns) ? args.columns : [args.columns];
            fields.push({ kind: "count", alias: a.alias, columns: cols.map((c) => this.selectColumn(table, c, `${p}.args.columns`)), distinct: args.distinct === true });
          } else {
            const columns = this.fields(subSelections(a)).map((c) => {
              if (c.name === "__typename") return { alias: c.alias, column: null, typename: `${table.typeName}_${a.name}_fields` };
              const column = columnNamed(this.ctx(p), table, c.name);
              if (!column) throw new RequestError("validation-failed", `field '${c.name}' not found in type: '${table.typeName}_${a.name}_fields'`, p);
              return { alias: c.alias, column };
            });
            fields.push({ kind: "op", alias: a.alias, op: a.name as "sum", columns });
          }
        }
        out.push({ kind: "aggregate", alias: f.alias, fields });
      } else throw new RequestError("validation-failed", `field '${f.name}' not found in type: '${table.typeName}_aggregate'`, p);
    }
    return out;
  }

  // ---------- mutations

  private mutationOutput(table: TableModel, f: CollectedField, single: boolean): MutationOutput {
    const sel = this.input.access.select(table);
    const rowFilter = sel ? this.permission(table, sel.filter, "$") : null;
    const path = `$.selectionSet.${f.alias}`;
    if (single) return { kind: "row", fields: this.rowFields(table, subSelections(f), path), rowFilter };
    const fields: MutationOutputField[] = [];
    for (const c of this.fields(subSelections(f))) {
      if (c.name === "affected_rows") fields.push({ kind: "affected_rows", alias: c.alias });
      else if (c.name === "returning") fields.push({ kind: "returning", alias: c.alias, fields: this.rowFields(table, subSelections(c), `${path}.selectionSet.${c.alias}`) });
      else if (c.name === "__typename") fields.push({ kind: "typename", alias: c.alias, typename: `${table.typeName}_mutation_response` });
    }
    return { kind: "response", fields, rowFilter };
  }

  private presets(table: TableModel, set: Readonly<Record<string, unknown>>): Map<string, Value> {
    const out = new Map<string, Value>();
    for (const [col, v] of Object.entries(set)) {
      if (!table.column.has(col)) continue;
      out.set(col, typeof v === "string" && /^x-hasura-/i.test(v) ? { kind: "session", name: v.toLowerCase() } : { kind: "literal", value: v });
    }
    return out;
  }

  /** `determined`: the columns a parent row fills (a nested array relationship's foreign key), which the objects may not set. */
  insert(table: TableModel, objects: unknown, onConflict: unknown, output: MutationOutput, path: string, determined: ReadonlySet<string> = new Set()): InsertIR {
    this.tables.add(table.key);
    const perm = this.input.access.insert(table);
    if (!perm) throw new RequestError("permission-error", `no insert permission on "${table.name}"`, path);
    const list = Array.isArray(objects) ? objects : objects ? [objects] : [];
    const presets = this.presets(table, perm.set);
    const rows: InsertRow[] = list.map((obj, i) => {
      if (!isObject(obj)) throw new RequestError("validation-failed", "expected an object", `${path}.args.objects[${i}]`);
      const columns = new Map<string, Value>();
      const objectRels: InsertRow["objectRels"][number][] = [];
      const arrayRels: InsertRow["arrayRels"][number][] = [];
      for (const [key, v] of Object.entries(obj)) {
        if (v === undefined) continue;
        const rel = table.relationships.get(key);
        if (rel && v === null) continue; // Hasura: a null relationship inserts nothing there
        if (rel && isObject(v)) {
          const target = this.input.model.tables.get(rel.target)!;
          const filled = new Set(rel.kind === "array" ? rel.mapping.map(([, tgt]) => tgt) : []);
          const nested = this.insert(target, rel.kind === "object" ? [v.data] : v.data, v.on_conflict, { kind: "response", fields: [], rowFilter: null }, `${path}.args.objects[${i}].${key}`, filled);
          (rel.kind === "object" ? objectRels : arrayRels).push({ rel, insert: nested });
          continue;
        }
        const column = table.field.get(key);
        if (!column || (!this.input.access.isAdmin && !perm.columns.includes(column.name)))
          throw new RequestError("validation-failed", `field '${key}' not found in type: '${table.typeName}_insert_input'`, `${path}.args.objects[${i}]`);
        if (!presets.has(column.name)) columns.set(column.name, { kind: "literal", value: v });
      }
      // Hasura's refusals: a value set by hand where a parent row or an object relationship's row determines it
      const given = new Set(columns.keys());
      const clash = [...determined].filter((c) => given.has(c));
      if (clash.length) throw new RequestError("validation-failed", `cannot insert ${quotedList(clash)} columns as their values are already being determined by parent insert`, `${path}.args.objects[${i}]`);
      for (const { rel } of objectRels) {
        const set = rel.mapping.map(([src]) => src).filter((c) => given.has(c) || determined.has(c));
        if (set.length) throw new RequestError("validation-failed", `cannot insert object relationship ${JSON.stringify(rel.name)} as ${quotedList(set)} column values are already determined`, `${path}.args.objects[${i}].${rel.name}`);
      }
      for (const [k, v] of presets) columns.set(k, v);
      return { columns, objectRels, arrayRels };
    });
    const written = new Set(rows.flatMap((r) => [...r.columns.keys()].filter((c) => !presets.has(c))));
    const rules = applicableRules(perm, written, table, "insert", path);
    let conflict: InsertIR["onConflict"];
    if (isObject(onConflict)) {
      const upd = this.input.access.update(table);
      const given = (Array.isArray(onConflict.update_columns) ? onConflict.update_columns : onConflict.update_columns ? [onConflict.update_columns] : []).map(String);
      if (given.length && !upd) throw new RequestError("permission-error", `upsert is not allowed: no update permission on "${table.name}"`, `${path}.args.on_conflict`);
      const cols = given.map((f) => {
        const column = table.field.get(f);
        if (!column) throw new RequestError("validation-failed", `unexpected value ${JSON.stringify(f)} for enum: '${table.typeName}_update_column'`, `${path}.args.on_conflict.update_columns`);
        return column.name;
      });
      const updateRules = upd && cols.length ? applicableRules(upd, new Set(cols), table, "update", `${path}.args.on_conflict`) : undefined;
      // As an update: the role's update presets are written too (Hasura's upsert), and an updated row meets its check
      const updatePresets = upd && cols.length ? this.presets(table, upd.set) : new Map<string, Value>();
      conflict = {
        constraint: String(onConflict.constraint),
        updateColumns: cols.filter((c) => !updatePresets.has(c)).map((c) => table.column.get(c)!),
        where: isObject(onConflict.where) ? parseBoolExp(this.ctx(`${path}.args.on_conflict.where`), table, onConflict.where) : undefined,
        updateFilter: updateRules ? this.permission(table, anyRule(updateRules.map((r) => r.filter)), path) : upd ? this.permission(table, upd.filter, path) : null,
        updateCheck: updateRules ? this.permission(table, anyRule(updateRules.map((r) => r.check)), path) : null,
        updatePresets,
      };
    }
    return { kind: "insert", table, rows, onConflict: conflict, check: this.permission(table, anyRule(rules.map((r) => r.check)), path), output };
  }

  update(table: TableModel, args: Record<string, unknown>, byPk: boolean, output: MutationOutput, path: string): UpdateIR {
    this.tables.add(table.key);
    const perm = this.input.access.update(table);
    if (!perm) throw new RequestError("permission-error", `no update permission on "${table.name}"`, path);
    const where = parseBoolExp(this.ctx(`${path}.args.where`), table, byPk ? pkWhere(table, isObject(args.pk_columns) ? args.pk_columns : {}) : args.where);
    const assignments: UpdateIR["assignments"][number][] = [];
    const presets = this.presets(table, perm.set);
    const seen = new Map<string, string>();
    for (const op of ["_set", "_inc", "_append", "_prepend", "_delete_key", "_delete_elem", "_delete_at_path"] as UpdateOp[]) {
      const obj = args[op];
      if (!isObject(obj)) continue;
      for (const [key, v] of Object.entries(obj)) {
        if (v === undefined) continue;
        const column = table.field.get(key);
        if (!column || (!this.input.access.isAdmin && !perm.columns.includes(column.name))) throw new RequestError("validation-failed", `field '${key}' not found in type: '${table.typeName}${op}_input'`, `${path}.args.${op}`);
        if (seen.has(key)) throw new RequestError("validation-failed", `column found in multiple operators; "${key}" in ${seen.get(key)} and ${op}`, `${path}.args`);
        seen.set(key, op);
        if (presets.has(column.name)) continue;
        assignments.push({ column, op, value: { kind: "literal", value: v } });
      }
    }
    for (const [col, value] of presets) assignments.push({ column: table.column.get(col)!, op: "_set", value });
    const rules = applicableRules(perm, new Set(assignments.filter((a) => !presets.has(a.column.name)).map((a) => a.column.name)), table, "update", path);
    const filter = this.permission(table, anyRule(rules.map((r) => r.filter)), path);
    // One check for all: the filter of any rule and the common check. Different checks: each row meets the check of a rule that admitted it.
    const checks = new Set(rules.map((r) => JSON.stringify(r.check)));
    if (checks.size <= 1) return { kind: "update", table, where, filter, check: this.permission(table, rules[0]?.check, path), assignments, output };
    const alternatives = rules.map((r) => ({ filter: this.permission(table, r.filter, path) ?? { kind: "true" as const }, check: this.permission(table, r.check, path) ?? { kind: "true" as const } }));
    return { kind: "update", table, where, filter, check: null, alternatives, assignments, output };
  }

  delete(table: TableModel, args: Record<string, unknown>, output: MutationOutput, path: string): DeleteIR {
    this.tables.add(table.key);
    const perm = this.input.access.delete(table);
    if (!perm) throw new RequestError("permission-error", `no delete permission on "${table.name}"`, path);
    const where = parseBoolExp(this.ctx(`${path}.args.where`), table, args.where);
    return { kind: "delete", table, where, filter: this.permission(table, perm.filter, path), output };
  }
}

/**
 * The rules a write may go through: those granting every column it writes. None: the write mixes
 * columns that no single rule grants together, and is refused as a whole.
 */
function applicableRules(perm: EffectiveMutation, written: ReadonlySet<string>, table: TableModel, kind: "insert" | "update", path: string): readonly MutationRule[] {
  const rules = perm.rules.filter((r) => [...written].every((c) => r.columns.includes(c)));
  if (!rules.length) throw new RequestError("permission-error", `no ${kind} permission on "${table.name}" allows writing these columns together: ${[...written].sort().join(", ")}`, path);
  return rules;
}

/** The filters (or checks) of rules as one: any unrestricted rule lets everything through. */
function anyRule(list: readonly (BoolExpJson | null)[]): BoolExpJson | null {
  if (list.some((f) => !f)) return null;
  const unique = [...new Map(list.map((f) => [JSON.stringify(f), f!])).values()];
  return unique.length === 1 ? unique[0] : { _or: unique };
}

/** A computed field's `args` by parameter name (GraphQL validation has checked the names, types and required ones). */
function computedArguments(field: ComputedFieldModel, args: unknown): Map<string, Value> {
  const out = new Map<string, Value>();
  if (!isObject(args)) return out;
  for (const p of field.params) if (p.kind === "input" && args[p.name] !== undefined && args[p.name] !== null) out.set(p.name, { kind: "literal", value: args[p.name] });
  return out;
}

/** Column names as Hasura lists them in messages: "a", "b". */
const quotedList = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(", ");

/** The where of a *_by_pk field, in the JSON form parseBoolExp reads for a request (GraphQL field names). */
function pkWhere(table: TableModel, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(table.primaryKey.map((c) => table.column.get(c)!.field).map((f) => [f, { _eq: args[f] }]));
}

/** Turns one validated operation into the plan: root fields with the role's permission attached. */
export function planOperation(input: PlanInput): OperationPlan {
  return new Planner(input).plan();
}

export function fragmentsOf(definitions: readonly { kind: string }[]): Map<string, FragmentDefinitionNode> {
  const m = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) m.set((d as FragmentDefinitionNode).name.value, d as FragmentDefinitionNode);
  return m;
}
