import type { BoolExp, OrderTarget, RowField, SelectIR } from "./ir.ts";

/** Every table a select reads: its own, nested selects', and those behind relationship filters and orderings. */
export function tablesRead(ir: SelectIR, into = new Set<string>()): Set<string> {
  into.add(ir.table.key);
  const exp = (e: BoolExp | null | undefined): void => {
    if (!e) return;
    if (e.kind === "and" || e.kind === "or") e.items.forEach(exp);
    else if (e.kind === "not") exp(e.item);
    else if (e.kind === "relationship" || e.kind === "aggregate_predicate") {
      into.add(e.target.key);
      exp(e.where);
    } else if (e.kind === "exists") {
      into.add(e.table.key);
      exp(e.where);
    } else if (e.kind === "computed_set") {
      into.add(e.target.key);
      exp(e.where);
    }
  };
  const order = (t: OrderTarget): void => {
    if (t.kind === "column" || t.kind === "computed") return;
    into.add(t.target.key);
    exp(t.filter);
    if (t.kind === "object_rel") order(t.then);
  };
  const rows = (fields: readonly RowField[]) => {
    for (const f of fields) {
      if (f.kind === "column") exp(f.onlyWhere);
      else if (f.kind !== "typename" && f.kind !== "computed") tablesRead(f.select, into);
    }
  };
  exp(ir.args.where);
  exp(ir.permission.filter);
  ir.args.orderBy.forEach((o) => order(o.target));
  if (ir.output.kind === "rows") rows(ir.output.fields);
  else for (const f of ir.output.fields) if (f.kind === "nodes") rows(f.fields);
  return into;
}
