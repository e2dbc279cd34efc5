import { execute as gqlExecute, getVariableValues, Kind, parse, validate, valueFromASTUntyped, visit, type DocumentNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import type { Db, Queryable, QueryOptions } from "../../db/types.ts";
import type { Model } from "../metadata/model.ts";
import { RequestError } from "../errors.ts";
import type { OperationPlan, RootPlan, SelectIR } from "../plan/ir.ts";
import type { Access } from "../plan/permissions.ts";
import { checkDocumentLimits, checkPlanLimits, checkResponseSize, type RequestLimits } from "../plan/limits.ts";
import { fragmentsOf, planOperation } from "../plan/plan.ts";
import { sanitiseRichTextWrites } from "../plan/rich-text.ts";
import { checkNumericWrites } from "../plan/numeric-scale.ts";
import { compileEstimate, compileRootField, compileSelectFields, plannedRows, type CompileOptions, type CompiledStatement } from "../sql/index.ts";
import { fromDatabaseError } from "./db-errors.ts";
import { recordCaller } from "../../auth/caller.ts";
import { actorOfVariables, recordActor } from "../../audit/actor.ts";

export interface GraphQLRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

export interface ExecutionContext {
  readonly db: Db;
  readonly model: Model;
  readonly schema: GraphQLSchema;
  readonly access: Access;
  readonly session: Readonly<Record<string, string>>;
  readonly stringifyNumericTypes: boolean;
  readonly limits?: RequestLimits;
  /** A shorter statement timeout for the operation's reads (non-admin roles, issue 32). */
  readonly readTimeoutMs?: number;
}

// ---- parse and validate, cached per document text (and per schema for validation)
const parsed = new Map<string, DocumentNode | GraphQLError>();
const validated = new WeakMap<GraphQLSchema, Map<string, readonly GraphQLError[]>>();
const CACHE_SIZE = 1000;

function remember<V>(map: Map<string, V>, key: string, value: V, size = CACHE_SIZE): V {
  if (map.size >= size) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

export function parseDocument(text: string): DocumentNode {
  let doc = parsed.get(text);
  if (!doc) {
    try {
      doc = remember(parsed, text, offsetStringsAsInts(parse(text, { maxTokens: 50_000 })));
    } catch (e) {
      doc = remember(parsed, text, e as GraphQLError);
    }
  }
  if (doc instanceof Error) throw new RequestError("validation-failed", doc.message.startsWith("Syntax Error") ? `not a valid graphql query: ${doc.message}` : doc.message);
  return doc;
}

/** Hasura accepts `offset: "10"` (a string of digits, for bigint offsets); graphql-js would not. */
function offsetStringsAsInts(doc: DocumentNode): DocumentNode {
  return visit(doc, {
    Argument(node) {
      if (node.name.value === "offset" && node.value.kind === Kind.STRING && /^\d+$/.test(node.value.value)) {
        return { ...node, value: { kind: Kind.INT, value: node.value.value } };
      }
      return undefined;
    },
  });
}

/** graphql-js messages in Hasura's words where Hasura's differ. */
function hasuraMessage(e: Pick<GraphQLError, "message">): string {
  let m = /^Cannot query field "([^"]+)" on type "([^"]+)"/.exec(e.message);
  if (m) return `field '${m[1]}' not found in type: '${m[2]}'`;
  m = /^Field "([^"]+)" is not defined by type "([^"]+)"/.exec(e.message);
  if (m) return `field '${m[1]}' not found in type: '${m[2]}'`;
  m = /^Value "([^"]+)" does not exist in "([^"]+)" enum/.exec(e.message);
  if (m) return `unexpected value "${m[1]}" for enum: '${m[2]}'`;
  m = /^Unknown argument "([^"]+)" on field "[^."]+\.([^"]+)"/.exec(e.message);
  if (m) return `'${m[2]}' has no argument named '${m[1]}'`;
  m = /^Unknown directive "@([^"]+)"/.exec(e.message);
  if (m) return `directive '${m[1]}' is not defined in the schema`;
  m = /^The directive "@([^"]+)" can only be used once at this location/.exec(e.message);
  if (m) return `the following directives are used more than once: ['${m[1]}']`;
  return e.message;
}

function pathOf(e: GraphQLError): string {
  return e.path ? `$.${e.path.join(".")}` : "$";
}

export function validateDocument(schema: GraphQLSchema, text: string, doc: DocumentNode): void {
  let bySchema = validated.get(schema);
  if (!bySchema) validated.set(schema, (bySchema = new Map()));
  let errors = bySchema.get(text);
  if (!errors) errors = remember(bySchema, text, validate(schema, doc, undefined, { maxErrors: 10 }));
  if (errors.length) throw new RequestError("validation-failed", hasuraMessage(errors[0]), pathOf(errors[0]));
}

export function selectOperation(doc: DocumentNode, operationName?: string | null): OperationDefinitionNode {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName) {
    const op = ops.find((o) => o.name?.value === operationName);
    if (!op) throw new RequestError("validation-failed", `no such operation found in the document: ${JSON.stringify(operationName)}`);
    return op;
  }
  if (ops.length !== 1) throw new RequestError("validation-failed", "exactly one operation has to be present in the document when operationName is not specified");
  return ops[0];
}

/** Refine's data provider sends `_not: [a, b]`; Hasura reads it as `_not: {_and: [a, b]}`. */
function normaliseNot(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normaliseNot);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === "_not" && Array.isArray(x) ? { _and: normaliseNot(x) } : normaliseNot(x);
    return out;
  }
  return v;
}

/** Checks the variables' types with graphql-js; returns the raw values (key order kept) with defaults applied. */
export function prepareVariables(schema: GraphQLSchema, op: OperationDefinitionNode, given: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const raw = normaliseNot(given ?? {}) as Record<string, unknown>;
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], raw, { maxErrors: 1 });
  if (coerced.errors) {
    // A field its input type lacks reads as in a literal (Hasura: "field 'email' not found in type: 'users_bool_exp'").
    const detail = coerced.errors[0].message.replace(/^Variable "\$[^"]+" got invalid value .*?; /, "");
    const named = hasuraMessage({ message: detail });
    const msg = named !== detail ? named : coerced.errors[0].message.replace(/^Variable "\$([^"]+)" got invalid value .*?; /, 'variable "$1": ');
    throw new RequestError("validation-failed", msg, `$.variableValues`);
  }
  const vars: Record<string, unknown> = {};
  for (const d of op.variableDefinitions ?? []) {
    const name = d.variable.name.value;
    if (name in raw && raw[name] !== undefined) vars[name] = raw[name];
    else if (d.defaultValue) vars[name] = valueFromASTUntyped(d.defaultValue);
  }
  return vars;
}

const INTROSPECTION = new Set(["__schema", "__type"]);

export interface Prepared {
  readonly plan: OperationPlan;
  readonly doc: DocumentNode;
  readonly op: OperationDefinitionNode;
  readonly variables: Record<string, unknown>;
  readonly introspection: boolean;
}

// ---- plans, cached per schema (= permission set and metadata: a new model builds new schemas) and request
// (document, operation name, variables, whether the non-admin limits apply). A plan holds no session value (those
// stay `session` Values until compiled) and is read-only, so requests that repeat — a list page refetched, a live
// query, the same page opened by many users of one role — skip validation of the variables and planning.
const plans = new WeakMap<GraphQLSchema, Map<string, Prepared>>();
const PLAN_CACHE_SIZE = 500;
const PLAN_KEY_MAX = 20_000;

/** Everything up to the plan: parse, validate, limits, operation, variables. */
export function prepare(ctx: Pick<ExecutionContext, "schema" | "model" | "access" | "limits">, request: GraphQLRequest): Prepared {
  if (typeof request?.query !== "string") throw new RequestError("bad-request", "the key 'query' was not present", "$");
  let key: string | undefined;
  try {
    key = JSON.stringify([ctx.limits ? 1 : 0, request.operationName ?? null, request.variables ?? null, request.query]);
  } catch {
    key = undefined; // not JSON (cycles, bigint): not cached
  }
  if (key !== undefined && key.length > PLAN_KEY_MAX) key = undefined;
  let bySchema = plans.get(ctx.schema);
  const hit = key !== undefined ? bySchema?.get(key) : undefined;
  if (hit) return hit;
  const prepared = prepareUncached(ctx, request);
  if (key !== undefined) {
    if (!bySchema) plans.set(ctx.schema, (bySchema = new Map()));
    remember(bySchema, key, prepared, PLAN_CACHE_SIZE);
  }
  return prepared;
}

function prepareUncached(ctx: Pick<ExecutionContext, "schema" | "model" | "access" | "limits">, request: GraphQLRequest): Prepared {
  if (ctx.limits && request.query.length > ctx.limits.maxQueryLength) throw new RequestError("validation-failed", `the query is ${request.query.length} characters long; the limit is ${ctx.limits.maxQueryLength}`);
  const doc = parseDocument(request.query);
  validateDocument(ctx.schema, request.query, doc);
  if (ctx.limits) checkDocumentLimits(doc, ctx.limits);
  const op = selectOperation(doc, request.operationName);
  const variables = prepareVariables(ctx.schema, op, request.variables);
  const introspection = op.selectionSet.selections.some((s) => s.kind === Kind.FIELD && INTROSPECTION.has(s.name.value));
  const plan = sanitiseRichTextWrites(planOperation({ schema: ctx.schema, model: ctx.model, access: ctx.access, operation: op, fragments: fragmentsOf(doc.definitions), variables }));
  checkNumericWrites(plan);
  if (ctx.limits) checkPlanLimits(plan, ctx.limits, ctx.access);
  return { plan, doc, op, variables, introspection };
}

function compileOptions(ctx: ExecutionContext): CompileOptions {
  return { session: ctx.session, stringifyNumericTypes: ctx.stringifyNumericTypes, rowCap: ctx.access.isAdmin ? undefined : ctx.limits?.maxRows, materializeRootLists: ctx.db.kind === "postgres" };
}

async function runStatement(q: Queryable, ctx: ExecutionContext, stmt: CompiledStatement, alias: string, kind: "insert" | "update" | "other", options: QueryOptions = {}): Promise<string> {
  let rows: { json: string | null; failed?: number; refused?: string | null }[];
  try {
    rows = (await q.query<{ json: string | null; failed?: number; refused?: string | null }>(stmt.sql, stmt.params as unknown[], options)).rows;
  } catch (e) {
    if (process.env.GQL_DEBUG) console.error(e, stmt.sql, stmt.params);
    throw fromDatabaseError(e, ctx.access.isAdmin, "$");
  }
  const row = rows[0];
  // a nested insert's step that wrote no row where a later one needed it (Hasura's not-supported)
  if (row?.refused) throw new RequestError("not-supported", row.refused, `$.selectionSet.${alias}.args.objects`);
  // Hasura v2's one text for both; an insert's path names its objects
  if (row?.failed) throw new RequestError("permission-error", "check constraint of an insert/update permission has failed", `$.selectionSet.${alias}.args${kind === "insert" ? ".objects" : ""}`);
  return row?.json ?? "null";
}

async function runField(q: Queryable, ctx: ExecutionContext, field: RootPlan): Promise<string> {
  if (field.kind === "typename") return JSON.stringify(field.typename);
  if (field.kind === "static") return field.json;
  if (field.kind === "estimate") return runEstimate(q, ctx, field.select);
  const stmt = compileRootField(ctx.model, field, compileOptions(ctx))!;
  return runStatement(q, ctx, stmt, field.alias, field.kind === "mutation" && field.mutation.kind === "update" ? "update" : "insert");
}

/** The planner's row estimate of a select's where (sql/estimate.ts): one EXPLAIN, no row read. */
async function runEstimate(q: Queryable, ctx: ExecutionContext, select: SelectIR): Promise<string> {
  const stmt = compileEstimate(ctx.model, select, compileOptions(ctx));
  try {
    const { rows } = await q.query<{ "QUERY PLAN": unknown }>(stmt.sql, stmt.params as unknown[], { timeoutMs: ctx.readTimeoutMs });
    return String(plannedRows(rows[0]?.["QUERY PLAN"]));
  } catch (e) {
    if (process.env.GQL_DEBUG) console.error(e, stmt.sql, stmt.params);
    throw fromDatabaseError(e, ctx.access.isAdmin, "$");
  }
}

// ---- the statement of a cached plan's selects, per the values it binds (session variables, options)
const compiled = new WeakMap<readonly RootPlan[], Map<string, CompiledStatement>>();

function selectStatement(ctx: ExecutionContext, fields: readonly RootPlan[], selects: readonly (RootPlan & { kind: "select" })[]): CompiledStatement {
  const options = compileOptions(ctx);
  const key = JSON.stringify([options.session, options.stringifyNumericTypes, options.rowCap ?? null, options.materializeRootLists ?? false]);
  let byValues = compiled.get(fields);
  let stmt = byValues?.get(key);
  if (!stmt) {
    stmt = selects.length === 1 ? compileRootField(ctx.model, selects[0], options)! : compileSelectFields(ctx.model, selects, options);
    if (!byValues) compiled.set(fields, (byValues = new Map()));
    remember(byValues, key, stmt, 16);
  }
  return stmt;
}

/** Query root fields: the selects in one statement (one round trip), the rest answered without the database. */
async function runSelects(ctx: ExecutionContext, fields: readonly RootPlan[]): Promise<string[]> {
  const selects = fields.filter((f): f is RootPlan & { kind: "select" } => f.kind === "select");
  if (selects.length === 0) return Promise.all(fields.map((f) => runField(ctx.db, ctx, f)));
  if (selects.length === 1) {
    const stmt = selectStatement(ctx, fields, selects);
    return Promise.all(fields.map((f) => (f.kind === "select" ? runStatement(ctx.db, ctx, stmt, f.alias, "other", { reuse: true, timeoutMs: ctx.readTimeoutMs }) : runField(ctx.db, ctx, f))));
  }
  const stmt = selectStatement(ctx, fields, selects);
  let row: Record<string, string | null>;
  try {
    row = (await ctx.db.query<Record<string, string | null>>(stmt.sql, stmt.params as unknown[], { reuse: true, timeoutMs: ctx.readTimeoutMs })).rows[0];
  } catch (e) {
    if (process.env.GQL_DEBUG) console.error(e, stmt.sql, stmt.params);
    throw fromDatabaseError(e, ctx.access.isAdmin, "$");
  }
  return Promise.all(fields.map(async (f) => (f.kind === "select" ? (row[`f${selects.indexOf(f)}`] ?? "null") : runField(ctx.db, ctx, f))));
}

/** A query's selects as one statement, and the response a row of it gives: what live queries multiplex (live/). */
export interface SelectsStatement {
  readonly stmt: CompiledStatement;
  /** The response body from the statement's row (column "json" for one select, "f0", "f1", … for several). Throws RequestError when too large. */
  respond(row: Readonly<Record<string, string | null>>): string;
}

/** The request's selects as one statement; undefined when answering it takes anything else (introspection, mutations, no select). */
export function selectsStatement(ctx: ExecutionContext, request: GraphQLRequest): SelectsStatement | undefined {
  const { plan, introspection } = prepare(ctx, request);
  if (introspection || plan.fields.some((f) => f.kind === "mutation" || f.kind === "estimate")) return undefined;
  const selects = plan.fields.filter((f): f is RootPlan & { kind: "select" } => f.kind === "select");
  if (selects.length === 0) return undefined;
  const stmt = selectStatement(ctx, plan.fields, selects);
  const column = (f: RootPlan & { kind: "select" }) => (selects.length === 1 ? "json" : `f${selects.indexOf(f)}`);
  return {
    stmt,
    respond(row) {
      const body = assemble(plan.fields.map((f) => [f.alias, f.kind === "select" ? (row[column(f)] ?? "null") : f.kind === "typename" ? JSON.stringify(f.typename) : (f as { json: string }).json]));
      return ctx.limits ? checkResponseSize(body, ctx.limits) : body;
    },
  };
}

/** Runs one operation and returns the response body as JSON text: the JSON Postgres built, passed through. */
export async function executeOperation(ctx: ExecutionContext, request: GraphQLRequest): Promise<string> {
  const body = await executeUnbounded(ctx, request);
  return ctx.limits ? checkResponseSize(body, ctx.limits) : body;
}

async function executeUnbounded(ctx: ExecutionContext, request: GraphQLRequest): Promise<string> {
  const { plan, doc, op, variables, introspection } = prepare(ctx, request);
  const introspected = new Map<string, string>();
  if (introspection) {
    const r = await gqlExecute({ schema: ctx.schema, document: doc, operationName: op.name?.value, variableValues: variables, rootValue: {} });
    for (const s of op.selectionSet.selections) {
      if (s.kind === Kind.FIELD && INTROSPECTION.has(s.name.value)) {
        const alias = s.alias?.value ?? s.name.value;
        introspected.set(alias, JSON.stringify(r.data?.[alias] ?? null));
      }
    }
  }
  if (plan.operation === "mutation" && plan.fields.some((f) => f.kind === "mutation")) {
    // All mutation root fields of a request in one transaction.
    const parts = await ctx.db.transaction(async (tx) => {
      // As Hasura does: the caller in the transaction, for the database's guards (docs/DECISIONS.md).
      await recordCaller(tx, ctx.session, ctx.access.isAdmin);
      // The audit trail's one place for GraphQL (issue 36): who made the changes, and in which request.
      await recordActor(tx, actorOfVariables(ctx.session, ctx.access.isAdmin));
      const out: string[] = [];
      for (const f of plan.fields) out.push(await runField(tx, ctx, f));
      return out;
    });
    return assemble(plan.fields.map((f, i) => [f.alias, parts[i]]));
  }
  const parts = await runSelects(ctx, plan.fields);
  const entries: [string, string][] = plan.fields.map((f, i) => [f.alias, parts[i]]);
  if (introspected.size) {
    // Put introspection answers in their place in the response order.
    const order = op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : []));
    const all = new Map([...entries, ...introspected]);
    return assemble([...new Set(order.filter((a) => all.has(a)).concat([...all.keys()]))].map((a) => [a, all.get(a)!]));
  }
  return assemble(entries);
}

function assemble(entries: readonly (readonly [string, string])[]): string {
  return `{"data":{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}}`;
}

/** The statements a request would run (for tests and diagnostics): one per root field. */
export function explain(ctx: ExecutionContext, request: GraphQLRequest): { field: string; sql: string; params: readonly unknown[] }[] {
  const { plan } = prepare(ctx, request);
  return plan.fields.flatMap((f) => {
    const stmt = compileRootField(ctx.model, f, compileOptions(ctx));
    return stmt ? [{ field: f.alias, sql: stmt.sql, params: stmt.params }] : [];
  });
}
