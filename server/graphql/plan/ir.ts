import type { ColumnModel, ComputedFieldModel, RelationshipModel, TableModel } from "../metadata/model.ts";
import type { AggregateOp, RootKind } from "../schema/fields.ts";

/** The plan: plain read-only data between the planner and the SQL compiler. */

/** A value for SQL: a literal from the request or a session variable still unbound (bound by the compiler). */
export type Value = { readonly kind: "literal"; readonly value: unknown } | { readonly kind: "session"; readonly name: string };

/** A computed field's function applied to a row of `table`: the request's arguments by name (the row and the session are bound by the compiler). */
export interface ComputedCall {
  readonly field: ComputedFieldModel;
  readonly table: TableModel;
  readonly args: ReadonlyMap<string, Value>;
}

export type ComparisonOp =
  | "_eq" | "_neq" | "_gt" | "_lt" | "_gte" | "_lte" | "_in" | "_nin" | "_is_null"
  | "_like" | "_nlike" | "_ilike" | "_nilike" | "_similar" | "_nsimilar" | "_regex" | "_nregex" | "_iregex" | "_niregex"
  | "_contains" | "_contained_in" | "_has_key" | "_has_keys_any" | "_has_keys_all";

export type BoolExp =
  | { readonly kind: "true" }
  | { readonly kind: "and"; readonly items: readonly BoolExp[] }
  | { readonly kind: "or"; readonly items: readonly BoolExp[] }
  | { readonly kind: "not"; readonly item: BoolExp }
  /** `column` is the compared column, or the type of the scalar computed field `computed` compared instead. */
  | { readonly kind: "compare"; readonly column: ColumnModel; readonly computed?: ComputedCall; readonly castToText: boolean; readonly op: ComparisonOp; readonly value: Value }
  /** `other` is a column of the row `up` nested tables above this one (0: the same row; the root table's for Hasura's ["$", column]). */
  | { readonly kind: "compare_column"; readonly column: ColumnModel; readonly op: "_eq" | "_neq" | "_gt" | "_lt" | "_gte" | "_lte"; readonly other: ColumnModel; readonly up: number }
  | { readonly kind: "relationship"; readonly rel: RelationshipModel; readonly target: TableModel; readonly where: BoolExp }
  | { readonly kind: "exists"; readonly table: TableModel; readonly where: BoolExp }
  /** Some row the computed field (SETOF a table) returns for this row meets `where`. */
  | { readonly kind: "computed_set"; readonly call: ComputedCall; readonly target: TableModel; readonly where: BoolExp }
  | AggregatePredicate;

/** Hasura's aggregation predicate (`rel_aggregate: {count: {…, predicate: {_gt: 1}}}`): an aggregate over the related rows compared. */
export type AggregatePredicateFunction = "count" | "bool_and" | "bool_or";
export type AggregatePredicateOp = "_eq" | "_neq" | "_gt" | "_lt" | "_gte" | "_lte" | "_in" | "_nin" | "_is_null";
export interface AggregatePredicate {
  readonly kind: "aggregate_predicate";
  readonly rel: RelationshipModel;
  readonly target: TableModel;
  readonly fn: AggregatePredicateFunction;
  /** The aggregate's arguments: none = count(*). */
  readonly columns: readonly ColumnModel[];
  readonly distinct: boolean;
  /** Which related rows are aggregated: the target's select permission (caller's where) ANDed with `filter`. */
  readonly where: BoolExp;
  /** The comparisons of the aggregate's value, ANDed. */
  readonly predicate: readonly { readonly op: AggregatePredicateOp; readonly value: Value }[];
}

export type Direction = "asc" | "desc";
export type Nulls = "first" | "last";
export type OrderTarget =
  | { readonly kind: "column"; readonly column: ColumnModel }
  | { readonly kind: "computed"; readonly call: ComputedCall }
  | { readonly kind: "object_rel"; readonly rel: RelationshipModel; readonly target: TableModel; readonly filter: BoolExp | null; readonly then: OrderTarget }
  | { readonly kind: "array_count"; readonly rel: RelationshipModel; readonly target: TableModel; readonly filter: BoolExp | null }
  | { readonly kind: "array_aggregate"; readonly rel: RelationshipModel; readonly target: TableModel; readonly filter: BoolExp | null; readonly op: AggregateOp; readonly column: ColumnModel }
  /** An aggregate of the rows a computed field returns (count when `column` is absent). */
  | { readonly kind: "computed_aggregate"; readonly call: ComputedCall; readonly target: TableModel; readonly filter: BoolExp | null; readonly op: AggregateOp | "count"; readonly column?: ColumnModel };
export interface OrderItem {
  readonly target: OrderTarget;
  readonly direction: Direction;
  readonly nulls: Nulls;
}

/** The caller's arguments, kept apart from the permission until the one merge (plan/merge.ts). */
export interface SelectArgs {
  readonly where?: BoolExp;
  readonly orderBy: readonly OrderItem[];
  readonly distinctOn?: readonly ColumnModel[];
  readonly limit?: number;
  readonly offset?: number;
}
export interface SelectPermissionIR {
  readonly filter: BoolExp | null;
  readonly limit?: number;
}

export type RowField =
  | { readonly kind: "column"; readonly alias: string; readonly column: ColumnModel; readonly onlyWhere: BoolExp | null; readonly jsonPath?: readonly string[] }
  | { readonly kind: "typename"; readonly alias: string; readonly typename: string }
  | { readonly kind: "object_rel"; readonly alias: string; readonly rel: RelationshipModel; readonly select: SelectIR }
  | { readonly kind: "array_rel"; readonly alias: string; readonly rel: RelationshipModel; readonly select: SelectIR }
  | { readonly kind: "array_aggregate"; readonly alias: string; readonly rel: RelationshipModel; readonly select: SelectIR }
  | { readonly kind: "computed"; readonly alias: string; readonly call: ComputedCall }
  /** A computed field returning SETOF a table: `select` reads the function's rows (its `source`). */
  | { readonly kind: "computed_set"; readonly alias: string; readonly select: SelectIR };

export type AggregateField =
  | { readonly kind: "count"; readonly alias: string; readonly columns: readonly ColumnModel[]; readonly distinct: boolean }
  | { readonly kind: "op"; readonly alias: string; readonly op: AggregateOp; readonly columns: readonly { readonly alias: string; readonly column: ColumnModel | null; readonly typename?: string }[] }
  | { readonly kind: "typename"; readonly alias: string; readonly typename: string };

export type AggregateOutputField =
  | { readonly kind: "aggregate"; readonly alias: string; readonly fields: readonly AggregateField[] }
  | { readonly kind: "nodes"; readonly alias: string; readonly fields: readonly RowField[] }
  | { readonly kind: "typename"; readonly alias: string; readonly typename: string };

export type SelectOutput =
  | { readonly kind: "rows"; readonly fields: readonly RowField[]; readonly single: boolean }
  | { readonly kind: "aggregate"; readonly fields: readonly AggregateOutputField[] };

export interface SelectIR {
  readonly table: TableModel;
  /** The rows come from this computed field of the parent row instead of the table. */
  readonly source?: ComputedCall;
  readonly args: SelectArgs;
  readonly permission: SelectPermissionIR;
  readonly output: SelectOutput;
}

export type MutationOutputField =
  | { readonly kind: "affected_rows"; readonly alias: string }
  | { readonly kind: "returning"; readonly alias: string; readonly fields: readonly RowField[] }
  | { readonly kind: "typename"; readonly alias: string; readonly typename: string };
export type MutationOutput =
  | { readonly kind: "response"; readonly fields: readonly MutationOutputField[]; readonly rowFilter: BoolExp | null }
  | { readonly kind: "row"; readonly fields: readonly RowField[]; readonly rowFilter: BoolExp | null };

export interface InsertRow {
  readonly columns: ReadonlyMap<string, Value>;
  readonly objectRels: readonly { readonly rel: RelationshipModel; readonly insert: InsertIR }[];
  readonly arrayRels: readonly { readonly rel: RelationshipModel; readonly insert: InsertIR }[];
}
export interface InsertIR {
  readonly kind: "insert";
  readonly table: TableModel;
  readonly rows: readonly InsertRow[];
  readonly onConflict?: {
    readonly constraint: string;
    readonly updateColumns: readonly ColumnModel[];
    readonly where?: BoolExp;
    /** The role's update permission: the rows it may update, the check an updated row meets, the columns it presets. */
    readonly updateFilter: BoolExp | null;
    readonly updateCheck: BoolExp | null;
    readonly updatePresets: ReadonlyMap<string, Value>;
  };
  readonly check: BoolExp | null;
  readonly output: MutationOutput;
}
export type UpdateOp = "_set" | "_inc" | "_append" | "_prepend" | "_delete_key" | "_delete_elem" | "_delete_at_path";
export interface UpdateIR {
  readonly kind: "update";
  readonly table: TableModel;
  readonly where: BoolExp;
  readonly filter: BoolExp | null;
  readonly check: BoolExp | null;
  /** Rules with different checks: a row is written under a rule whose filter admitted it (before) and whose check it meets (after). */
  readonly alternatives?: readonly { readonly filter: BoolExp; readonly check: BoolExp }[];
  readonly assignments: readonly { readonly column: ColumnModel; readonly op: UpdateOp; readonly value: Value }[];
  readonly output: MutationOutput;
}
export interface DeleteIR {
  readonly kind: "delete";
  readonly table: TableModel;
  readonly where: BoolExp;
  readonly filter: BoolExp | null;
  readonly output: MutationOutput;
}

export type RootPlan =
  | { readonly kind: "select"; readonly alias: string; readonly root: RootKind; readonly select: SelectIR }
  | { readonly kind: "mutation"; readonly alias: string; readonly root: RootKind; readonly mutation: InsertIR | UpdateIR | DeleteIR }
  /** `x_count_estimate(where)`: the planner's estimate of the rows `select` (where and the role's row filter) matches. */
  | { readonly kind: "estimate"; readonly alias: string; readonly select: SelectIR }
  | { readonly kind: "typename"; readonly alias: string; readonly typename: string }
  | { readonly kind: "static"; readonly alias: string; readonly json: string };

export interface OperationPlan {
  readonly operation: "query" | "mutation" | "subscription";
  readonly fields: readonly RootPlan[];
  /** Tables read (for live queries). */
  readonly tables: readonly string[];
}
