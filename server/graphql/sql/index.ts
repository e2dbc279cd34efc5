import type { Model } from "../metadata/model.ts";
import type { RootPlan } from "../plan/ir.ts";
import { SqlBuilder, type CompileOptions, type CompiledStatement } from "./builder.ts";
import { compileDelete, compileInsert, compileUpdate } from "./mutation.ts";
import { compileSelect } from "./select.ts";

export type { CompiledStatement, CompileOptions } from "./builder.ts";
export { compileEstimate, plannedRows } from "./estimate.ts";

/** One statement per root field. Selects yield one column "json" (text); mutations also "failed" and "affected". */
export function compileRootField(model: Model, field: RootPlan, options: CompileOptions): CompiledStatement | undefined {
  const b = new SqlBuilder(options);
  if (field.kind === "select") {
    const json = compileSelect(b, model, field.select, undefined, { root: true });
    return b.build(b.withCtes(`select ${json}::text as "json"`));
  }
  if (field.kind === "mutation") {
    const m = field.mutation;
    if (m.kind === "insert") return compileInsert(b, model, m);
    if (m.kind === "update") return compileUpdate(b, model, m);
    return compileDelete(b, model, m);
  }
  return undefined;
}

/**
 * The select root fields of one query in one round trip: each field's statement body becomes one column
 * ("f0", "f1", …) of a single select (parameters numbered across them). On PGlite, which runs one statement at
 * a time, this halves a list page's cost (rows + aggregate count).
 */
export function compileSelectFields(model: Model, fields: readonly (RootPlan & { kind: "select" })[], options: CompileOptions): CompiledStatement {
  const b = new SqlBuilder(options);
  const cols = fields.map((f, i) => `${compileSelect(b, model, f.select, undefined, { root: true })}::text as "f${i}"`);
  return b.build(b.withCtes(`select ${cols.join(", ")}`));
}
