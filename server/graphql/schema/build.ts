import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from "graphql";
import type { ColumnModel, ComputedFieldModel, Model, TableModel } from "../metadata/model.ts";
import { needsArguments } from "../metadata/computed-fields.ts";
import { followsRelationship, seesComputedField, type Access } from "../plan/permissions.ts";
import { NUMERIC_AGGREGATES, type FieldInfo, type RootKind } from "./fields.ts";
import { scalarRegistry } from "./scalars.ts";

const nn = <T extends GraphQLInputType | GraphQLOutputType>(t: T) => new GraphQLNonNull(t);
const list = <T extends GraphQLInputType | GraphQLOutputType>(t: T) => new GraphQLList(t);
const info = (i: FieldInfo) => ({ hasura: i });

const STRING_OPS = ["_like", "_nlike", "_ilike", "_nilike", "_similar", "_nsimilar", "_regex", "_nregex", "_iregex", "_niregex"];

/** The GraphQL schema one permission set sees: no permission, no field (Hasura's schema per role). */
export function buildSchema(model: Model, access: Access): GraphQLSchema {
  const scalar = scalarRegistry();
  const cache = new Map<string, unknown>();
  const once = <T>(name: string, make: () => T): T => {
    if (!cache.has(name)) cache.set(name, make());
    return cache.get(name) as T;
  };
  const selectable = (t: TableModel) => access.select(t);
  const visibleColumns = (t: TableModel): ColumnModel[] => {
    const s = selectable(t);
    return s ? t.columns.filter((c) => s.columns.has(c.name)) : [];
  };
  /** What inputs may name (where, order_by, distinct_on, aggregates): columns shown on every row, not only on some. */
  const filterableColumns = (t: TableModel): ColumnModel[] => {
    const s = selectable(t);
    return s ? t.columns.filter((c) => s.filterable.has(c.name)) : [];
  };
  const target = (t: TableModel, rel: string) => model.tables.get(t.relationships.get(rel)!.target)!;
  const visibleRels = (t: TableModel) => [...t.relationships.values()].filter((r) => followsRelationship(access, model, t, r));
  const visibleComputed = (t: TableModel) => [...t.computedFields.values()].filter((c) => seesComputedField(access, model, t, c));
  const argumentFree = (c: ComputedFieldModel) => !needsArguments(c);

  const orderByEnum = once("order_by", () =>
    new GraphQLEnumType({
      name: "order_by",
      description: "column ordering options",
      values: Object.fromEntries(["asc", "asc_nulls_first", "asc_nulls_last", "desc", "desc_nulls_first", "desc_nulls_last"].map((v) => [v, { value: v }])),
    }),
  );

  const comparison = (c: ColumnModel): GraphQLInputObjectType => {
    const s = scalar(c.scalar);
    return once(`${c.scalar}_comparison_exp`, () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const op of ["_eq", "_neq", "_gt", "_lt", "_gte", "_lte"]) fields[op] = { type: s };
      fields._in = { type: list(nn(s)) };
      fields._nin = { type: list(nn(s)) };
      fields._is_null = { type: GraphQLBoolean };
      if (c.textual) for (const op of STRING_OPS) fields[op] = { type: GraphQLString };
      if (c.jsonb) {
        fields._contains = { type: s };
        fields._contained_in = { type: s };
        fields._has_key = { type: GraphQLString };
        fields._has_keys_any = { type: list(nn(GraphQLString)) };
        fields._has_keys_all = { type: list(nn(GraphQLString)) };
        fields._cast = {
          type: once("jsonb_cast_exp", () => new GraphQLInputObjectType({ name: "jsonb_cast_exp", fields: () => ({ String: { type: comparison({ scalar: "String", textual: true } as ColumnModel) } }) })),
        };
      }
      return new GraphQLInputObjectType({ name: `${c.scalar}_comparison_exp`, description: `Boolean expression to compare columns of type "${c.scalar}". All fields are combined with logical 'AND'.`, fields });
    });
  };

  const boolExp = (t: TableModel): GraphQLInputObjectType =>
    once(`${t.typeName}_bool_exp`, () =>
      new GraphQLInputObjectType({
        name: `${t.typeName}_bool_exp`,
        description: `Boolean expression to filter rows from the table "${t.name}". All fields are combined with a logical 'AND'.`,
        fields: () => {
          const self = boolExp(t);
          const fields: GraphQLInputFieldConfigMap = { _and: { type: list(nn(self)) }, _not: { type: self }, _or: { type: list(nn(self)) } };
          for (const c of filterableColumns(t)) fields[c.field] = { type: comparison(c) };
          for (const r of visibleRels(t)) fields[r.name] = { type: boolExp(model.tables.get(r.target)!) };
          for (const c of visibleComputed(t).filter(argumentFree)) fields[c.name] = { type: c.returns.kind === "scalar" ? comparison(c.returns.type) : boolExp(model.tables.get(c.returns.table)!) };
          // Aggregation predicates: where the role may aggregate the target (Hasura's rule), and no column has the name.
          for (const r of visibleRels(t)) {
            const tt = model.tables.get(r.target)!;
            const predicates = r.kind === "array" && !t.field.has(`${r.name}_aggregate`) && access.select(tt)?.allowAggregations ? aggregateBoolExp(tt) : undefined;
            if (predicates) fields[`${r.name}_aggregate`] = { type: predicates };
          }
          return fields;
        },
      }),
    );

  /** `t_aggregate_bool_exp`: count, and bool_and / bool_or where the role sees a boolean column; undefined when none applies. */
  const aggregateBoolExp = (t: TableModel): GraphQLInputObjectType | undefined => {
    const cols = filterableColumns(t);
    if (!cols.length) return undefined;
    const name = `${t.typeName}_aggregate_bool_exp`;
    return once(name, () => {
      const bools = cols.filter((c) => c.udt === "bool");
      const common = () => ({ distinct: { type: GraphQLBoolean }, filter: { type: boolExp(t) } });
      const fields: GraphQLInputFieldConfigMap = {};
      for (const fn of bools.length ? (["bool_and", "bool_or"] as const) : []) {
        const argsEnum = new GraphQLEnumType({
          name: `${t.typeName}_select_column_${name}_${fn}_arguments_columns`,
          description: `select "${name}_${fn}_arguments_columns" columns of table "${t.name}"`,
          values: Object.fromEntries(bools.map((c) => [c.field, { value: c.field, description: "column name" }])),
        });
        fields[fn] = {
          type: new GraphQLInputObjectType({
            name: `${name}_${fn}`,
            fields: () => ({ arguments: { type: nn(argsEnum) }, ...common(), predicate: { type: nn(comparison({ scalar: "Boolean" } as ColumnModel)) } }),
          }),
        };
      }
      fields.count = {
        type: new GraphQLInputObjectType({
          name: `${name}_count`,
          fields: () => ({ arguments: { type: list(nn(selectColumn(t))) }, ...common(), predicate: { type: nn(comparison({ scalar: "Int" } as ColumnModel)) } }),
        }),
      };
      return new GraphQLInputObjectType({ name, fields });
    });
  };

  const selectColumn = (t: TableModel) =>
    once(`${t.typeName}_select_column`, () =>
      new GraphQLEnumType({
        name: `${t.typeName}_select_column`,
        description: `select columns of table "${t.name}"`,
        values: Object.fromEntries(filterableColumns(t).map((c) => [c.field, { value: c.field, description: "column name" }])),
      }),
    );

  const aggregateOrderBy = (t: TableModel): GraphQLInputObjectType =>
    once(`${t.typeName}_aggregate_order_by`, () =>
      new GraphQLInputObjectType({
        name: `${t.typeName}_aggregate_order_by`,
        description: `order by aggregate values of table "${t.name}"`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = { count: { type: orderByEnum } };
          const cols = filterableColumns(t);
          const numeric = cols.filter((c) => c.numeric);
          const orderable = cols.filter((c) => c.comparable);
          for (const op of [...NUMERIC_AGGREGATES, "max", "min"]) {
            const use = op === "max" || op === "min" ? orderable : numeric;
            if (!use.length) continue;
            fields[op] = {
              type: once(`${t.typeName}_${op}_order_by`, () =>
                new GraphQLInputObjectType({ name: `${t.typeName}_${op}_order_by`, fields: Object.fromEntries(use.map((c) => [c.field, { type: orderByEnum }])) }),
              ),
            };
          }
          return fields;
        },
      }),
    );

  const orderBy = (t: TableModel): GraphQLInputObjectType =>
    once(`${t.typeName}_order_by`, () =>
      new GraphQLInputObjectType({
        name: `${t.typeName}_order_by`,
        description: `Ordering options when selecting data from "${t.name}".`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {};
          for (const c of filterableColumns(t)) fields[c.field] = { type: orderByEnum };
          for (const c of visibleComputed(t).filter(argumentFree)) {
            if (c.returns.kind === "scalar") {
              if (c.returns.type.orderable) fields[c.name] = { type: orderByEnum };
            } else if (access.select(model.tables.get(c.returns.table)!)?.allowAggregations) fields[`${c.name}_aggregate`] = { type: aggregateOrderBy(model.tables.get(c.returns.table)!) };
          }
          for (const r of visibleRels(t)) {
            const tt = model.tables.get(r.target)!;
            if (r.kind === "object") fields[r.name] = { type: orderBy(tt) };
            else if (access.select(tt)?.allowAggregations) fields[`${r.name}_aggregate`] = { type: aggregateOrderBy(tt) };
          }
          return fields;
        },
      }),
    );

  const selectArgs = (t: TableModel) => ({
    distinct_on: { type: list(nn(selectColumn(t))), description: "distinct select on columns" },
    limit: { type: GraphQLInt, description: "limit the number of rows returned" },
    offset: { type: GraphQLInt, description: "skip the first n rows. Use only with order_by" },
    order_by: { type: list(nn(orderBy(t))), description: "sort the rows by one or more columns" },
    where: { type: boolExp(t), description: "filter the rows returned" },
  });

  const aggregateType = (t: TableModel): GraphQLObjectType =>
    once(`${t.typeName}_aggregate`, () => {
      const cols = filterableColumns(t);
      const numeric = cols.filter((c) => c.numeric);
      const orderable = cols.filter((c) => c.comparable);
      const fieldsType = new GraphQLObjectType({
        name: `${t.typeName}_aggregate_fields`,
        description: `aggregate fields of "${t.name}"`,
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {
            count: { type: nn(GraphQLInt), args: { columns: { type: list(nn(selectColumn(t))) }, distinct: { type: GraphQLBoolean } }, extensions: info({ kind: "agg_count" }) },
          };
          for (const op of [...NUMERIC_AGGREGATES, "max", "min"] as const) {
            const use = op === "max" || op === "min" ? orderable : numeric;
            if (!use.length) continue;
            const colType = (c: ColumnModel) => (op === "max" || op === "min" || op === "sum" ? scalar(c.scalar) : scalar("Float"));
            fields[op] = {
              type: new GraphQLObjectType({
                name: `${t.typeName}_${op}_fields`,
                description: `aggregate ${op} on columns`,
                fields: Object.fromEntries(use.map((c) => [c.field, { type: colType(c), extensions: info({ kind: "agg_column", column: c.name }) }])),
              }),
              extensions: info({ kind: "agg_op", op }),
            };
          }
          return fields;
        },
      });
      return new GraphQLObjectType({
        name: `${t.typeName}_aggregate`,
        description: `aggregated selection of "${t.name}"`,
        fields: () => ({
          aggregate: { type: fieldsType, extensions: info({ kind: "agg_aggregate" }) },
          nodes: { type: nn(list(nn(objectType(t)))), extensions: info({ kind: "agg_nodes" }) },
        }),
      });
    });

  const objectType = (t: TableModel): GraphQLObjectType =>
    once(`${t.typeName}`, () =>
      new GraphQLObjectType({
        name: t.typeName,
        description: `columns and relationships of "${t.name}"`,
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
          for (const c of visibleColumns(t)) {
            const s: GraphQLScalarType = scalar(c.scalar);
            const json = c.udt === "json" || c.udt === "jsonb";
            fields[c.field] = {
              type: c.nullable || json ? s : nn(s),
              ...(json ? { args: { path: { type: GraphQLString, description: "JSON select path" } } } : {}),
              extensions: info({ kind: "column", column: c.name }),
            };
          }
          for (const c of visibleComputed(t)) {
            const args = computedArgs(t, c);
            const extensions = info({ kind: "computed", field: c.name });
            if (c.returns.kind === "scalar") fields[c.name] = { type: scalar(c.returns.type.scalar), args, description: "A computed field, executes function", extensions };
            else {
              const tt = model.tables.get(c.returns.table)!;
              fields[c.name] = { type: nn(list(nn(objectType(tt)))), args: { ...args, ...selectArgs(tt) }, description: "A computed field, executes function", extensions };
              if (access.select(tt)?.allowAggregations) {
                fields[`${c.name}_aggregate`] = {
                  type: nn(aggregateType(tt)),
                  args: { ...args, ...selectArgs(tt) },
                  description: "A computed field, executes function",
                  extensions: info({ kind: "computed_aggregate", field: c.name }),
                };
              }
            }
          }
          for (const r of visibleRels(t)) {
            const tt = target(t, r.name);
            if (r.kind === "object") {
              fields[r.name] = { type: objectType(tt), description: "An object relationship", extensions: info({ kind: "relationship", rel: r.name }) };
            } else {
              fields[r.name] = { type: nn(list(nn(objectType(tt)))), args: selectArgs(tt), description: "An array relationship", extensions: info({ kind: "relationship", rel: r.name }) };
              if (access.select(tt)?.allowAggregations) {
                fields[`${r.name}_aggregate`] = { type: nn(aggregateType(tt)), args: selectArgs(tt), description: "An aggregate relationship", extensions: info({ kind: "relationship_aggregate", rel: r.name }) };
              }
            }
          }
          return fields;
        },
      }),
    );

  /** The `args` of a computed field whose function takes arguments from the request: `<function>_args`. */
  const computedArgs = (t: TableModel, c: ComputedFieldModel): Record<string, { type: GraphQLInputType; description?: string }> => {
    const inputs = c.params.flatMap((p) => (p.kind === "input" ? [p] : []));
    if (!inputs.length) return {};
    const type = once(`${c.function.name}_args`, () =>
      new GraphQLInputObjectType({ name: `${c.function.name}_args`, fields: Object.fromEntries(inputs.map((p) => [p.name, { type: p.optional ? scalar(p.type.scalar) : nn(scalar(p.type.scalar)) }])) }),
    );
    return { args: { type: inputs.some((p) => !p.optional) ? nn(type) : type, description: `input parameters for computed field "${c.name}" defined on table "${t.name}"` } };
  };

  const pkArgs = (t: TableModel, cols: readonly string[]) =>
    Object.fromEntries(cols.map((name) => t.column.get(name)!).map((c) => [c.field, { type: nn(scalar(c.scalar)) }]));

  // ---- mutations
  const mutationResponse = (t: TableModel) =>
    once(`${t.typeName}_mutation_response`, () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {
        affected_rows: { type: nn(GraphQLInt), description: "number of rows affected by the mutation", extensions: info({ kind: "affected_rows" }) },
      };
      if (selectable(t)) fields.returning = { type: nn(list(nn(objectType(t)))), description: "data from the rows affected by the mutation", extensions: info({ kind: "returning" }) };
      return new GraphQLObjectType({ name: `${t.typeName}_mutation_response`, description: `response of any mutation on the table "${t.name}"`, fields });
    });

  const updateColumnEnum = (t: TableModel) => {
    const cols = access.update(t)?.columns ?? [];
    return once(`${t.typeName}_update_column`, () =>
      new GraphQLEnumType({
        name: `${t.typeName}_update_column`,
        description: `update columns of table "${t.name}"`,
        values: cols.length ? Object.fromEntries(cols.map((c) => t.column.get(c)!.field).map((f) => [f, { value: f, description: "column name" }])) : { _PLACEHOLDER: { value: "_PLACEHOLDER", description: "placeholder (do not use)" } },
      }),
    );
  };

  const onConflict = (t: TableModel): GraphQLInputObjectType | undefined => {
    if (!t.uniqueConstraints.length || (!access.isAdmin && !access.update(t) && false)) return undefined;
    return once(`${t.typeName}_on_conflict`, () =>
      new GraphQLInputObjectType({
        name: `${t.typeName}_on_conflict`,
        description: `on_conflict condition type for table "${t.name}"`,
        fields: () => ({
          constraint: {
            type: nn(
              once(`${t.typeName}_constraint`, () =>
                new GraphQLEnumType({ name: `${t.typeName}_constraint`, description: `unique or primary key constraints on table "${t.name}"`, values: Object.fromEntries(t.uniqueConstraints.map((c) => [c.name, { value: c.name }])) }),
              ),
            ),
          },
          update_columns: { type: nn(list(nn(updateColumnEnum(t)))), defaultValue: [] },
          where: { type: selectable(t) ? boolExp(t) : GraphQLBoolean },
        }),
      }),
    );
  };

  /** A role inserts into a table when some column is its to give (all preset: no input type can exist, GraphQL types have fields). */
  const insertable = (t: TableModel) => !!access.insert(t)?.columns.some((name) => !t.column.get(name)!.generated);

  const insertInput = (t: TableModel): GraphQLInputObjectType =>
    once(`${t.typeName}_insert_input`, () =>
      new GraphQLInputObjectType({
        name: `${t.typeName}_insert_input`,
        description: `input type for inserting data into table "${t.name}"`,
        fields: () => {
          const perm = access.insert(t)!;
          const fields: GraphQLInputFieldConfigMap = {};
          for (const name of perm.columns) {
            const c = t.column.get(name)!;
            if (!c.generated) fields[c.field] = { type: scalar(c.scalar) };
          }
          for (const r of t.relationships.values()) {
            const tt = model.tables.get(r.target)!;
            if (!insertable(tt)) continue;
            const conflict = onConflict(tt);
            if (r.kind === "object") {
              fields[r.name] = {
                type: once(`${tt.typeName}_obj_rel_insert_input`, () =>
                  new GraphQLInputObjectType({
                    name: `${tt.typeName}_obj_rel_insert_input`,
                    description: `input type for inserting object relation for remote table "${tt.name}"`,
                    fields: () => ({ data: { type: nn(insertInput(tt)) }, ...(conflict ? { on_conflict: { type: conflict } } : {}) }),
                  }),
                ),
              };
            } else {
              fields[r.name] = {
                type: once(`${tt.typeName}_arr_rel_insert_input`, () =>
                  new GraphQLInputObjectType({
                    name: `${tt.typeName}_arr_rel_insert_input`,
                    description: `input type for inserting array relation for remote table "${tt.name}"`,
                    fields: () => ({ data: { type: nn(list(nn(insertInput(tt)))) }, ...(conflict ? { on_conflict: { type: conflict } } : {}) }),
                  }),
                ),
              };
            }
          }
          return fields;
        },
      }),
    );

  const columnInput = (name: string, cols: ColumnModel[], type: (c: ColumnModel) => GraphQLInputType) =>
    cols.length ? once(name, () => new GraphQLInputObjectType({ name, fields: Object.fromEntries(cols.map((c) => [c.field, { type: type(c) }])) })) : undefined;

  const updateArgs = (t: TableModel) => {
    const cols = (access.update(t)?.columns ?? []).map((c) => t.column.get(c)!).filter((c) => !c.generated);
    const jsonb = cols.filter((c) => c.jsonb);
    const args: Record<string, { type: GraphQLInputType; description?: string }> = {};
    const add = (arg: string, type: GraphQLInputType | undefined, description: string) => {
      if (type) args[arg] = { type, description };
    };
    add("_append", columnInput(`${t.typeName}_append_input`, jsonb, (c) => scalar(c.scalar)), "append existing jsonb value of filtered columns with new jsonb value");
    add("_delete_at_path", columnInput(`${t.typeName}_delete_at_path_input`, jsonb, () => list(nn(GraphQLString))), "delete the field or element with specified path (for JSON arrays, negative integers count from the end)");
    add("_delete_elem", columnInput(`${t.typeName}_delete_elem_input`, jsonb, () => GraphQLInt), "delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array");
    add("_delete_key", columnInput(`${t.typeName}_delete_key_input`, jsonb, () => GraphQLString), "delete key/value pair or string element. key/value pairs are matched based on their key value");
    add("_inc", columnInput(`${t.typeName}_inc_input`, cols.filter((c) => c.numeric), (c) => scalar(c.scalar)), "increments the numeric columns with given value of the filtered values");
    add("_prepend", columnInput(`${t.typeName}_prepend_input`, jsonb, (c) => scalar(c.scalar)), "prepend existing jsonb value of filtered columns with new jsonb value");
    add("_set", columnInput(`${t.typeName}_set_input`, cols, (c) => scalar(c.scalar)), "sets the columns of the filtered rows to the given values");
    return args;
  };

  const query: GraphQLFieldConfigMap<unknown, unknown> = {};
  const mutation: GraphQLFieldConfigMap<unknown, unknown> = {};
  const root = (t: TableModel, kind: RootKind) => info({ kind: "root", root: kind, table: t.key });

  for (const t of model.tables.values()) {
    const sel = selectable(t);
    const pkVisible = t.primaryKey.length > 0 && !!sel && t.primaryKey.every((c) => sel.filterable.has(c));
    if (sel) {
      query[t.rootFields.select] = { type: nn(list(nn(objectType(t)))), args: selectArgs(t), description: `fetch data from the table: "${t.name}"`, extensions: root(t, "select") };
      if (sel.allowAggregations)
        query[t.rootFields.select_aggregate] = { type: nn(aggregateType(t)), args: selectArgs(t), description: `fetch aggregated fields from the table: "${t.name}"`, extensions: root(t, "select_aggregate") };
      // not Hasura's: a list over a large table shows "about N" past its capped count (docs/DECISIONS.md); a
      // generated Hasura field of a later table by that name replaces it
      const estimate = `${t.rootFields.select}_count_estimate`;
      if (sel.allowAggregations && !query[estimate])
        query[estimate] = { type: nn(GraphQLInt), args: { where: { type: boolExp(t), description: "filter the rows counted" } }, description: `the query planner's estimate of the rows of the table "${t.name}" matching where (not exact)`, extensions: root(t, "select_count_estimate") };
      if (pkVisible)
        query[t.rootFields.select_by_pk] = { type: objectType(t), args: pkArgs(t, t.primaryKey), description: `fetch data from the table: "${t.name}" using primary key columns`, extensions: root(t, "select_by_pk") };
    }
    if (!t.notifiable && t.primaryKey.length === 0) continue; // views without keys: read-only
    if (insertable(t)) {
      const conflict = onConflict(t);
      const oc: Record<string, { type: GraphQLInputType; description: string }> = conflict ? { on_conflict: { type: conflict, description: "upsert condition" } } : {};
      mutation[t.rootFields.insert] = { type: mutationResponse(t), args: { objects: { type: nn(list(nn(insertInput(t)))), description: "the rows to be inserted" }, ...oc }, description: `insert data into the table: "${t.name}"`, extensions: root(t, "insert") };
      if (sel) mutation[t.rootFields.insert_one] = { type: objectType(t), args: { object: { type: nn(insertInput(t)), description: "the row to be inserted" }, ...oc }, description: `insert a single row into the table: "${t.name}"`, extensions: root(t, "insert_one") };
    }
    const upd = access.update(t);
    if (upd && sel) {
      const args = updateArgs(t);
      mutation[t.rootFields.update] = { type: mutationResponse(t), args: { ...args, where: { type: nn(boolExp(t)), description: "filter the rows which have to be updated" } }, description: `update data of the table: "${t.name}"`, extensions: root(t, "update") };
      if (pkVisible) {
        const pkInput = once(`${t.typeName}_pk_columns_input`, () => new GraphQLInputObjectType({ name: `${t.typeName}_pk_columns_input`, description: `primary key columns input for table: ${t.name}`, fields: pkArgs(t, t.primaryKey) }));
        mutation[t.rootFields.update_by_pk] = { type: objectType(t), args: { ...args, pk_columns: { type: nn(pkInput) } }, description: `update single row of the table: "${t.name}"`, extensions: root(t, "update_by_pk") };
      }
    }
    if (access.delete(t) && sel) {
      mutation[t.rootFields.delete] = { type: mutationResponse(t), args: { where: { type: nn(boolExp(t)), description: "filter the rows which have to be deleted" } }, description: `delete data from the table: "${t.name}"`, extensions: root(t, "delete") };
      if (pkVisible) mutation[t.rootFields.delete_by_pk] = { type: objectType(t), args: pkArgs(t, t.primaryKey), description: `delete single row from the table: "${t.name}"`, extensions: root(t, "delete_by_pk") };
    }
  }

  const subscription: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const [name, f] of Object.entries(query)) subscription[name] = f as GraphQLFieldConfig<unknown, unknown>;
  if (!Object.keys(query).length) query.no_queries_available = { type: nn(GraphQLString), extensions: info({ kind: "placeholder" }) };
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: "query_root", fields: query }),
    mutation: Object.keys(mutation).length ? new GraphQLObjectType({ name: "mutation_root", fields: mutation }) : undefined,
    subscription: Object.keys(subscription).length ? new GraphQLObjectType({ name: "subscription_root", fields: subscription }) : undefined,
  });
}
