import { richTextColumns, sanitiseRichTextValue } from "../../security/rich-text.ts";
import type { TableModel } from "../metadata/model.ts";
import type { InsertIR, OperationPlan, RootPlan, UpdateIR, Value } from "./ir.ts";

/**
 * The plan with every rich-text value written by an insert or update sanitised (issue 10 §4): the same
 * allow-list as the REST calls, for every role including admin, on nested inserts too.
 */
export function sanitiseRichTextWrites(plan: OperationPlan): OperationPlan {
  if (plan.operation !== "mutation") return plan;
  let changed = false;
  const fields = plan.fields.map((f): RootPlan => {
    if (f.kind !== "mutation" || f.mutation.kind === "delete") return f;
    const mutation = f.mutation.kind === "insert" ? insert(f.mutation) : update(f.mutation);
    if (mutation === f.mutation) return f;
    changed = true;
    return { ...f, mutation };
  });
  return changed ? { ...plan, fields } : plan;
}

const columnsOf = (table: TableModel) => (table.schema === "public" ? richTextColumns(table.name) : []);

function clean(value: Value): Value {
  return value.kind === "literal" ? { kind: "literal", value: sanitiseRichTextValue(value.value) } : value;
}

function insert(ir: InsertIR): InsertIR {
  const rich = columnsOf(ir.table);
  const rows = ir.rows.map((row) => {
    const nestedObjects = row.objectRels.map((r) => ({ ...r, insert: insert(r.insert) }));
    const nestedArrays = row.arrayRels.map((r) => ({ ...r, insert: insert(r.insert) }));
    const touched = rich.filter((c) => row.columns.has(c));
    const nestedChanged = nestedObjects.some((r, i) => r.insert !== row.objectRels[i].insert) || nestedArrays.some((r, i) => r.insert !== row.arrayRels[i].insert);
    if (!touched.length && !nestedChanged) return row;
    const columns = new Map(row.columns);
    for (const c of touched) columns.set(c, clean(columns.get(c)!));
    return { columns, objectRels: nestedObjects, arrayRels: nestedArrays };
  });
  return rows.every((r, i) => r === ir.rows[i]) ? ir : { ...ir, rows };
}

function update(ir: UpdateIR): UpdateIR {
  const rich = columnsOf(ir.table);
  if (!rich.length || !ir.assignments.some((a) => rich.includes(a.column.name))) return ir;
  return { ...ir, assignments: ir.assignments.map((a) => (rich.includes(a.column.name) ? { ...a, value: clean(a.value) } : a)) };
}
