/**
 * How Refine's requests become Hasura GraphQL (the "hasura-default" naming): filters → `where`, sorters →
 * `order_by`, `meta.fields` → a selection, and the documents of each call. Shared by the data and live providers.
 * It reproduces what @refinedev/hasura 7 (with gql-query-builder 3) sends, so the server sees the same requests;
 * see docs/DECISIONS.md for why the app has its own. `hasuraDataProvider` makes the calls; data.ts adds the
 * error reporting and the REST saves.
 */
import type { BaseKey, CrudFilter, CrudSort, DataProvider, MetaQuery, Pagination } from "@refinedev/core";
import type { DocumentNode, SelectionSetNode } from "graphql";
import { graphqlUrl } from "../config.ts";
import { createGraphQLClient, type GraphQLClient, type GraphQLDocument } from "../graphql.ts";

export type BoolExp = Record<string, unknown>;

/** Every table's primary key (@refinedev/hasura's `idType: "uuid"`). */
const ID_TYPE = "uuid";
type Obj = Record<string, unknown>;

const OPERATORS: Record<string, string> = {
  eq: "_eq",
  ne: "_neq",
  lt: "_lt",
  gt: "_gt",
  lte: "_lte",
  gte: "_gte",
  in: "_in",
  nin: "_nin",
  contains: "_ilike",
  ncontains: "_nilike",
  containss: "_like",
  ncontainss: "_nlike",
  null: "_is_null",
  nnull: "_is_null",
  startswith: "_iregex",
  nstartswith: "_iregex",
  endswith: "_iregex",
  nendswith: "_iregex",
  startswiths: "_similar",
  nstartswiths: "_nsimilar",
  endswiths: "_similar",
  nendswiths: "_nsimilar",
};

/** The value Hasura compares with, for a Refine operator (patterns for the text operators). */
function operand(operator: string, value: unknown): unknown {
  switch (operator) {
    case "startswiths":
    case "nstartswiths":
      return `${value}%`;
    case "endswiths":
    case "nendswiths":
      return `%${value}`;
    case "startswith":
      return `^${value}`;
    case "nstartswith":
      return `^(?!${value})`;
    case "endswith":
      return `${value}$`;
    case "nendswith":
      return `(?<!${value})$`;
    case "nnull":
      return false;
    case "contains":
    case "containss":
    case "ncontains":
    case "ncontainss":
      return `%${value}%`;
    default:
      return value;
  }
}

/** `{a: {b: {op: value}}}` for the path a.b.op (what lodash's setWith(…, Object) builds). */
function nested(path: readonly string[], value: unknown): Obj {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Obj;
}

type Filter = CrudFilter | { operator: "not"; value: Filter[] };

function filterExp(filter: Filter): BoolExp {
  const { operator } = filter;
  if (operator !== "or" && operator !== "and" && operator !== "not" && "field" in filter) {
    const op = OPERATORS[operator];
    // Refine's between/nbetween/ina/nina have no Hasura operator
    if (!op) throw new Error(`Operator ${operator} is not supported`);
    return nested([...filter.field.split("."), op], operand(operator, filter.value));
  }
  return { [`_${operator}`]: (filter.value as Filter[]).map(filterExp) };
}

/** Refine's filters as a Hasura boolean expression: `{_and: [...]}`, or undefined when there are none given. */
export function hasuraWhere(filters: readonly CrudFilter[] | undefined): BoolExp | undefined {
  return filters ? filterExp({ operator: "and", value: [...filters] } as Filter) : undefined;
}

/** Refine's sorters as one Hasura `order_by` object (`a.b` → `{a: {b: order}}`); a later sorter of the same key wins. */
export function hasuraOrderBy(sorters: readonly CrudSort[] | undefined): Obj | undefined {
  if (!sorters) return undefined;
  return sorters.reduce<Obj>((merged, s) => ({ ...merged, ...nested(s.field.split("."), s.order) }), {});
}

/**
 * The `where` of a query given as a document: the provider's own expression with `meta.gqlVariables.where`,
 * whose `_and` items are appended to the provider's `_and`, and whose other keys join that `_and` as one
 * expression each (when there is an `_and`) or are set beside it.
 */
export function mergeWhere(filters: BoolExp | undefined, metaWhere: BoolExp | undefined): BoolExp | undefined {
  if (!metaWhere) return filters;
  const merged: BoolExp = filters ? structuredClone(filters) : {};
  const entries = Object.entries(metaWhere);
  const plain = entries.filter(([k]) => k !== "_and" && k !== "_or");
  if (plain.length > 1 || (metaWhere._and && plain.length)) merged._and ??= [];
  if (plain.length > 1 || ((metaWhere._and || metaWhere._or) && plain.length)) {
    console.warn("[data] several filters in meta.gqlVariables.where: group them with _and or _or.");
  }
  for (const [k, v] of entries) {
    if (k !== "_and" && k !== "_or" && merged._and) merged._and = [...(merged._and as unknown[]), { [k]: v }];
    else if (k === "_and" && merged._and) {
      if (!Array.isArray(v)) throw new Error("[data] unexpected value for BoolExp _and: expected an array.");
      merged._and = [...(merged._and as unknown[]), ...v];
    } else merged[k] = v;
  }
  return merged;
}

export function paginationVariables(pagination: Pagination | undefined): { limit?: number; offset?: number } {
  const { currentPage = 1, pageSize = 10, mode = "server" } = pagination ?? {};
  return mode === "server" ? { limit: pageSize, offset: (currentPage - 1) * pageSize } : {};
}

/** `students_by_pk` → `StudentsByPk` (an operation's name). */
export function pascalCase(name: string): string {
  return name
    .split(/[_\-.\s]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

// ---- documents from `meta.fields` and typed variables (gql-query-builder's format) ----

/** A variable: a value, or `{ value, type, required, list, name }` (the argument `name` it is passed as). */
export type VariableSpec = unknown;
export type Variables = Record<string, VariableSpec>;
/** A field name; `{ relation: [fields] }`; or a nested operation `{ operation, variables, fields }`. */
export type Field = string | { [key: string]: Field[] } | NestedOperation;
interface NestedOperation {
  operation: string | { name: string; alias: string };
  variables?: Variables;
  fields: Field[];
  fragment?: boolean;
}

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null;

function isNestedOperation(field: unknown): field is NestedOperation {
  return isObject(field) && "operation" in field && "fields" in field && ("variables" in field || "fragment" in field);
}

function operationName(operation: NestedOperation["operation"]): string {
  return typeof operation === "string" ? operation : `${operation.alias}: ${operation.name}`;
}

function argumentList(variables: Variables | undefined): string {
  const entries = Object.entries(variables ?? {});
  if (!entries.length) return "";
  return `(${entries.map(([key, v]) => `${isObject(v) && typeof v.name === "string" && v.name ? v.name : key}: $${key}`).join(", ")})`;
}

/** A selection from `meta.fields`: `id, name, branch { id, name }`. */
export function selection(fields: readonly Field[] | undefined): string {
  return (fields ?? [])
    .map((field) => {
      if (isNestedOperation(field)) {
        const head = field.fragment ? `... on ${field.operation as string}` : `${operationName(field.operation)} ${argumentList(field.variables)}`;
        return `${head} ${field.fields.length ? `{ ${selection(field.fields)} }` : ""}`;
      }
      if (isObject(field)) {
        return Object.entries(field as Record<string, Field[]>)
          .map(([key, inner]) => `${key} ${inner.length ? `{ ${selection(inner)} }` : ""}`)
          .join(", ");
      }
      return String(field);
    })
    .join(", ");
}

/** The variables nested operations in `fields` declare (the outer ones win). */
function nestedVariables(fields: readonly Field[] | undefined, into: Variables = {}): Variables {
  for (const field of fields ?? []) {
    if (isNestedOperation(field)) {
      Object.assign(into, { ...field.variables, ...into });
      nestedVariables(field.fields, into);
    } else if (isObject(field)) {
      for (const inner of Object.values(field)) nestedVariables(inner as Field[], into);
    }
  }
  return into;
}

/** A variable's GraphQL type: its `type`, else guessed from its value (Int, Float, Boolean, Object, String). */
function variableType(spec: VariableSpec): string {
  const value = isObject(spec) ? spec.value : spec;
  let type = "String";
  if (isObject(spec) && spec.type != null) type = String(spec.type);
  else {
    const sample = Array.isArray(value) ? value[0] : value;
    if (typeof sample === "object") type = "Object";
    else if (typeof sample === "boolean") type = "Boolean";
    else if (typeof sample === "number") type = sample % 1 === 0 ? "Int" : "Float";
  }
  if (isObject(spec)) {
    if (spec.list === true) type = `[${type}]`;
    else if (Array.isArray(spec.list)) type = `[${type}${spec.list[0] ? "!" : ""}]`;
    if (spec.required) type += "!";
  }
  return type;
}

export interface RootField {
  operation: string;
  variables?: Variables;
  fields?: readonly Field[];
}

/**
 * A query, mutation or subscription of one or more root fields with its variables declared, and the variables'
 * values (a typed variable's `value`): `query ($where: t_bool_exp) { t (where: $where) { id, name } }`.
 */
export function operationDocument(kind: "query" | "mutation" | "subscription", roots: readonly RootField[]): { query: string; variables: Obj } {
  const declared: Variables = {};
  for (const root of roots) Object.assign(declared, nestedVariables(root.fields), root.variables);
  const names = Object.keys(declared);
  const header = names.length ? `(${names.map((k) => `$${k}: ${variableType(declared[k])}`).join(", ")})` : "";
  const body = roots
    .map((r) => `${r.operation} ${argumentList(r.variables)} ${r.fields?.length ? `{ ${selection(r.fields)} }` : ""}`)
    .join(" ");
  const variables: Obj = {};
  for (const k of names) {
    const spec = declared[k];
    variables[k] = isObject(spec) ? spec.value : spec;
  }
  return { query: `${kind} ${header} { ${body} }`, variables };
}

/** `meta.fields` as the lines of a `returning { id … }` selection. */
export function returningFields(fields: MetaQuery["fields"]): string {
  return ((fields ?? []) as Field[])
    .map((field) => {
      if (typeof field === "string") return field;
      const [key, inner] = Object.entries(field)[0]!;
      return `${key} { ${returningFields(inner as MetaQuery["fields"])} }`;
    })
    .join("\n");
}

/** `head { operation(args) { selection } }`, laid out as @refinedev/hasura writes its fixed documents. */
function rootFieldDocument(head: string, operation: string, args: string, selection: string): string {
  return `${head} {
  ${operation}(${args}) {
    ${selection}
  }
}`;
}

/** The `returning` selection of a mutation over several rows: `id` and `meta.fields`. */
const returningSelection = (fields: MetaQuery["fields"]) => `returning {
      id
      ${returningFields(fields)}
    }`;

// ---- reading a page's own document (parsed with graphql's `parse`, or text) ----

async function parsed(document: string | DocumentNode): Promise<DocumentNode> {
  if (typeof document !== "string") return document;
  const { parse } = await import("../graphqlText.ts");
  return parse(document);
}

/** True when the document's operation is a mutation. */
export function isMutation(document: string | DocumentNode): boolean {
  if (typeof document === "string") return /^\s*(#[^\n]*\n\s*)*mutation\b/.test(document);
  return document.definitions.some((d) => d.kind === "OperationDefinition" && d.operation === "mutation");
}

/**
 * The field names a document's first root field selects, nested fields in braces, with every field whose name
 * contains "aggregate" left out (arguments and aliases are not kept) — the selection of the generated subscription
 * or by-id query that stands for a page's own query.
 */
export function operationFields(document: DocumentNode): string {
  const lines: string[] = [];
  let first = true;
  const walk = (set: SelectionSetNode | undefined, depth: number) => {
    for (const node of set?.selections ?? []) {
      if (node.kind === "InlineFragment") walk(node.selectionSet, depth);
      if (node.kind !== "Field" || /aggregate/i.test(node.name.value)) continue;
      if (first) {
        first = false;
        if (!node.selectionSet) throw new Error("Operation must have a selection set");
        walk(node.selectionSet, 0);
        continue;
      }
      lines.push(`${"  ".repeat(depth)}${node.name.value}${node.selectionSet ? " {" : ""}`);
      if (node.selectionSet) {
        walk(node.selectionSet, depth + 1);
        lines.push(`${"  ".repeat(depth)}}`);
      }
    }
  };
  for (const d of document.definitions) if (d.kind === "OperationDefinition") walk(d.selectionSet, 0);
  return lines.join("\n").trim();
}

export async function operationFieldsOf(document: string | DocumentNode): Promise<string> {
  return operationFields(await parsed(document));
}

// ---- the subscriptions of the live provider ----

export interface SubscriptionParams {
  resource: string;
  meta: MetaQuery;
  pagination?: Pagination;
  sorters?: CrudSort[];
  filters?: CrudFilter[];
  id?: BaseKey;
  ids?: BaseKey[];
}

export interface Subscription {
  query: string;
  variables: Obj;
  /** The root field whose rows the subscription delivers. */
  operation: string;
}

type GqlDocument = string | DocumentNode;
const pageDocument = (meta: MetaQuery) => (meta.gqlQuery ?? meta.gqlMutation) as GqlDocument | undefined;

/** A list's subscription: the list's rows for the same page, order and filters (not `meta.gqlVariables`). */
export async function listSubscription({ resource, meta, pagination, sorters, filters }: SubscriptionParams): Promise<Subscription> {
  const operation = (meta.operation as string | undefined) ?? resource;
  const page = paginationVariables(pagination);
  const orderBy = hasuraOrderBy(sorters);
  const where = hasuraWhere(filters);
  const document = pageDocument(meta);
  if (document) {
    const head = `subscription ${operation}($limit: Int, $offset: Int, $order_by: [${operation}_order_by!], $where: ${operation}_bool_exp)`;
    const query = rootFieldDocument(head, operation, "limit: $limit, offset: $offset, order_by: $order_by, where: $where", await operationFieldsOf(document));
    return { query, variables: { ...page, ...(orderBy && { order_by: orderBy }), ...(where && { where }) }, operation };
  }
  const variables: Variables = {
    ...page,
    ...(orderBy && { order_by: { value: orderBy, type: `[${operation}_order_by!]` } }),
    ...(where && { where: { value: where, type: `${operation}_bool_exp` } }),
  };
  return { ...operationDocument("subscription", [{ operation, fields: meta.fields as Field[], variables }]), operation };
}

/** One record's subscription (`<resource>_by_pk`). */
export async function oneSubscription({ resource, meta, id }: SubscriptionParams): Promise<Subscription> {
  if (!id) console.error("[useSubscription]: `id` is required in `params` for graphql subscriptions");
  const operation = `${(meta.operation as string | undefined) ?? resource}_by_pk`;
  const document = pageDocument(meta);
  if (document) {
    const query = rootFieldDocument(`subscription ${operation}($id: ${ID_TYPE}!)`, operation, "id: $id", await operationFieldsOf(document));
    return { query, variables: { id }, operation };
  }
  const variables: Variables = { id: { value: id, type: ID_TYPE, required: true }, ...(meta.variables as Variables | undefined) };
  return { ...operationDocument("subscription", [{ operation, fields: meta.fields as Field[], variables }]), operation };
}

/** Several records' subscription (`where: {id: {_in: ids}}`). */
export async function manySubscription({ resource, meta, ids }: SubscriptionParams): Promise<Subscription> {
  if (!ids) console.error("[useSubscription]: `ids` is required in `params` for graphql subscriptions");
  const operation = (meta.operation as string | undefined) ?? resource;
  const document = pageDocument(meta);
  if (document) {
    const query = rootFieldDocument(`subscription ${operation}($where: ${operation}_bool_exp)`, operation, "where: $where", await operationFieldsOf(document));
    return { query, variables: { where: { id: { _in: ids } } }, operation };
  }
  const variables = (meta.variables as Variables | undefined) ?? { where: { type: `${operation}_bool_exp`, value: { id: { _in: ids } } } };
  return { ...operationDocument("subscription", [{ operation, fields: meta.fields as Field[], variables }]), operation };
}

// ---- the data provider's GraphQL calls ----

type Data = Record<string, unknown>;

/** The GraphQL calls, as @refinedev/hasura makes them with `idType: "uuid"` and the hasura-default naming. */
export function hasuraDataProvider(client: GraphQLClient): Required<DataProvider> {
  const documentOf = (meta: MetaQuery | undefined, mutationFirst: boolean): GraphQLDocument | undefined =>
    (mutationFirst ? (meta?.gqlMutation ?? meta?.gqlQuery) : (meta?.gqlQuery ?? meta?.gqlMutation)) as GraphQLDocument | undefined;
  const rootOf = (resource: string, meta: MetaQuery | undefined) => (meta?.operation as string | undefined) ?? resource;
  const fieldsOf = (meta: MetaQuery | undefined) => meta?.fields as Field[] | undefined;
  const gqlVariablesOf = (meta: MetaQuery | undefined) => meta?.gqlVariables as Data | undefined;
  const idsWhere = (ids: readonly BaseKey[]): BoolExp => ({ id: { _in: ids } });

  return {
    getList: async ({ resource, sorters, filters, pagination, meta }) => {
      const operation = rootOf(resource, meta);
      const aggregate = `${operation}_aggregate`;
      const page = paginationVariables(pagination);
      const orderBy = hasuraOrderBy(sorters);
      let where = hasuraWhere(filters);
      let request: { query: GraphQLDocument; variables: Data };
      if (meta?.gqlQuery) {
        const own = gqlVariablesOf(meta);
        where = mergeWhere(where, own?.where as BoolExp | undefined);
        request = { query: meta.gqlQuery as GraphQLDocument, variables: { ...page, ...(orderBy && { order_by: orderBy }), ...own, ...(where && { where }) } };
      } else {
        const whereType = `${operation}_bool_exp`;
        request = operationDocument("query", [
          {
            operation,
            fields: fieldsOf(meta),
            variables: {
              ...page,
              ...(orderBy && { order_by: { value: orderBy, type: `[${operation}_order_by!]` } }),
              ...(where && { where: { value: where, type: whereType } }),
            },
          },
          { operation: aggregate, fields: [{ aggregate: ["count"] }], variables: { where: { value: where, type: whereType } } },
        ]);
      }
      const data = await client.request<Data>(request.query, request.variables);
      return { data: data[operation] as never, total: (data[aggregate] as { aggregate: { count: number } }).aggregate.count };
    },

    getOne: async ({ resource, id, meta }) => {
      const operation = `${rootOf(resource, meta)}_by_pk`;
      const document = documentOf(meta, false);
      if (document) {
        let query = document;
        // a mutation stands for the fields to read: the same fields read by id
        if (isMutation(document)) {
          query = rootFieldDocument(`query Get${pascalCase(operation)}($id: ${ID_TYPE}!)`, operation, "id: $id", await operationFieldsOf(document));
        }
        const data = await client.request<Data>(query, { id, ...gqlVariablesOf(meta) });
        return { data: data[operation] as never };
      }
      const request = operationDocument("query", [
        { operation, fields: fieldsOf(meta), variables: { id: { value: id, type: ID_TYPE, required: true }, ...(meta?.variables as Variables | undefined) } },
      ]);
      const data = await client.request<Data>(request.query, request.variables);
      return { data: data[operation] as never };
    },

    getMany: async ({ resource, ids, meta }) => {
      const operation = rootOf(resource, meta);
      if (meta?.gqlQuery) {
        const own = gqlVariablesOf(meta);
        const where = mergeWhere(idsWhere(ids), own?.where as BoolExp | undefined);
        const data = await client.request<Data>(meta.gqlQuery as GraphQLDocument, { ...own, ...(where && { where }) });
        return { data: data[operation] as never };
      }
      const variables = (meta?.variables as Variables | undefined) ?? { where: { type: `${operation}_bool_exp`, value: idsWhere(ids) } };
      const request = operationDocument("query", [{ operation, fields: fieldsOf(meta), variables }]);
      const data = await client.request<Data>(request.query, request.variables);
      return { data: data[operation] as never };
    },

    create: async ({ resource, variables, meta }) => {
      const operation = `insert_${rootOf(resource, meta)}_one`;
      const document = documentOf(meta, true);
      if (document) {
        const data = await client.request<Data>(document, { object: variables || {}, ...gqlVariablesOf(meta) });
        return { data: data[operation] as never };
      }
      const request = operationDocument("mutation", [
        {
          operation,
          variables: { object: { type: `${rootOf(resource, meta)}_insert_input`, value: variables, required: true } },
          fields: fieldsOf(meta) ?? ["id", ...Object.keys(variables || {})],
        },
      ]);
      const data = await client.request<Data>(request.query, request.variables);
      return { data: data[operation] as never };
    },

    createMany: async ({ resource, variables, meta }) => {
      const table = rootOf(resource, meta);
      const operation = `insert_${table}`;
      const query = meta?.gqlMutation
        ? (meta.gqlMutation as GraphQLDocument)
        : rootFieldDocument(`mutation CreateMany${pascalCase(table)}($objects: [${table}_insert_input!]!)`, operation, "objects: $objects", returningSelection(meta?.fields));
      const data = await client.request<Data>(query, { objects: variables, ...(meta?.gqlMutation ? gqlVariablesOf(meta) : {}) });
      return { data: (data[operation] as { returning: never }).returning };
    },

    update: async ({ resource, id, variables, meta }) => {
      const table = rootOf(resource, meta);
      const operation = `update_${table}_by_pk`;
      const document = documentOf(meta, true);
      if (document) {
        const data = await client.request<Data>(document, { id, object: variables || {}, ...gqlVariablesOf(meta) });
        return { data: data[operation] as never };
      }
      const request = operationDocument("mutation", [
        {
          operation,
          variables: {
            pk_columns: { type: `${table}_pk_columns_input`, value: { id }, required: true },
            _set: { type: `${table}_set_input`, value: variables, required: true },
          },
          fields: fieldsOf(meta) ?? ["id"],
        },
      ]);
      const data = await client.request<Data>(request.query, request.variables);
      return { data: data[operation] as never };
    },

    updateMany: async ({ resource, ids, variables, meta }) => {
      const table = rootOf(resource, meta);
      const operation = `update_${table}`;
      if (meta?.gqlMutation) {
        const data = await client.request<Data>(meta.gqlMutation as GraphQLDocument, { ids, _set: variables, ...gqlVariablesOf(meta) });
        return { data: (data[operation] as { returning: never }).returning };
      }
      const query = rootFieldDocument(`mutation UpdateMany${pascalCase(table)}($where: ${table}_bool_exp!, $_set: ${table}_set_input!)`, operation, "where: $where, _set: $_set", returningSelection(meta?.fields));
      const data = await client.request<Data>(query, (meta?.variables as Data | undefined) ?? { where: idsWhere(ids), _set: variables });
      return { data: (data[operation] as { returning: never }).returning };
    },

    deleteOne: async ({ resource, id, meta }) => {
      const operation = `delete_${rootOf(resource, meta)}_by_pk`;
      if (meta?.gqlMutation) {
        const data = await client.request<Data>(meta.gqlMutation as GraphQLDocument, { id, ...gqlVariablesOf(meta) });
        return { data: data[operation] as never };
      }
      const request = operationDocument("mutation", [
        { operation, variables: { id: { value: id, type: ID_TYPE, required: true }, ...(meta?.variables as Variables | undefined) }, fields: fieldsOf(meta) ?? ["id"] },
      ]);
      const data = await client.request<Data>(request.query, request.variables);
      return { data: data[operation] as never };
    },

    deleteMany: async ({ resource, ids, meta }) => {
      const table = rootOf(resource, meta);
      const operation = `delete_${table}`;
      if (meta?.gqlMutation) {
        const own = gqlVariablesOf(meta);
        const where = mergeWhere(idsWhere(ids), own?.where as BoolExp | undefined);
        const data = await client.request<Data>(meta.gqlMutation as GraphQLDocument, { ...own, ...(where && { where }) });
        return { data: (data[operation] as { returning: never }).returning };
      }
      const query = rootFieldDocument(`mutation DeleteMany${pascalCase(table)}($where: ${table}_bool_exp!)`, operation, "where: $where", returningSelection(meta?.fields));
      const data = await client.request<Data>(query, (meta?.variables as Data | undefined) ?? { where: idsWhere(ids) });
      return { data: (data[operation] as { returning: never }).returning };
    },

    getApiUrl: () => graphqlUrl(),

    custom: async ({ url, method, headers, meta }) => {
      const document = documentOf(meta, true);
      // a document goes to the app's endpoint; a built operation to `url` when one is given
      if (document) return { data: await client.request(document, gqlVariablesOf(meta) ?? {}) } as never;
      if (!meta) throw new Error("GraphQL need to operation, fields and variables values in meta object.");
      if (!meta.operation) throw new Error("GraphQL operation name required.");
      const target = url ? createGraphQLClient(url, globalThis.fetch, headers as Record<string, string> | undefined) : client;
      const request = operationDocument(method === "get" ? "query" : "mutation", [
        { operation: meta.operation as string, fields: fieldsOf(meta), variables: meta.variables as Variables | undefined },
      ]);
      const data = await target.request<Data>(request.query, request.variables);
      return { data: data[meta.operation as string] } as never;
    },
  };
}
