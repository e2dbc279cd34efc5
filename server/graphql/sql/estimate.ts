import type { Model } from "../metadata/model.ts";
import type { SelectIR } from "../plan/ir.ts";
import { mergeSelectPermission } from "../plan/merge.ts";
import { compileBoolExp } from "./boolexp.ts";
import { SqlBuilder, type CompileOptions, type CompiledStatement } from "./builder.ts";

/**
 * `x_count_estimate(where)`: EXPLAIN of the rows the same where, with the role's row filter merged in as for the
 * rows themselves, matches — so the estimate is of the rows the caller may see. Planning only: no row is read.
 */
export function compileEstimate(model: Model, ir: SelectIR, options: CompileOptions): CompiledStatement {
  const b = new SqlBuilder(options);
  const a = b.alias();
  const { where } = mergeSelectPermission(ir.args, ir.permission);
  return b.build(`explain (format json) select from ${b.source(ir.table)} as ${a} where ${compileBoolExp(b, where, a, model)}`);
}

/** The planned row count of EXPLAIN (FORMAT JSON)'s answer (a JSON array, parsed or as text by the driver), as a GraphQL Int. */
export function plannedRows(plan: unknown): number {
  const doc = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan?: { "Plan Rows"?: number } }[];
  const rows = Number(doc[0]?.Plan?.["Plan Rows"] ?? 0);
  return Math.min(2 ** 31 - 1, Math.max(0, Math.round(rows)));
}
