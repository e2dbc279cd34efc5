/** What each generated field means, attached to the GraphQL field as `extensions.hasura` and read by the planner. */
export type RootKind =
  | "select"
  | "select_by_pk"
  | "select_aggregate"
  /** Our engine's addition (not Hasura's): the planner's estimate of the rows a where matches (issue 38). */
  | "select_count_estimate"
  | "insert"
  | "insert_one"
  | "update"
  | "update_by_pk"
  | "delete"
  | "delete_by_pk";

export type FieldInfo =
  | { readonly kind: "root"; readonly root: RootKind; readonly table: string }
  | { readonly kind: "column"; readonly column: string }
  | { readonly kind: "relationship"; readonly rel: string }
  | { readonly kind: "relationship_aggregate"; readonly rel: string }
  | { readonly kind: "computed"; readonly field: string }
  | { readonly kind: "computed_aggregate"; readonly field: string }
  | { readonly kind: "agg_aggregate" }
  | { readonly kind: "agg_nodes" }
  | { readonly kind: "agg_count" }
  | { readonly kind: "agg_op"; readonly op: AggregateOp }
  | { readonly kind: "agg_column"; readonly column: string }
  | { readonly kind: "affected_rows" }
  | { readonly kind: "returning" }
  | { readonly kind: "placeholder" };

export const NUMERIC_AGGREGATES = ["sum", "avg", "stddev", "stddev_pop", "stddev_samp", "var_pop", "var_samp", "variance"] as const;
export type AggregateOp = (typeof NUMERIC_AGGREGATES)[number] | "max" | "min";

export function fieldInfo(field: { extensions?: { readonly [k: string]: unknown } | null }): FieldInfo | undefined {
  return field.extensions?.hasura as FieldInfo | undefined;
}
