/**
 * Numbers written to a numeric(p,s) column must fit it as sent (issue 31, FINANCE.md §1 "Bounds"): Postgres would
 * round 12.345 to 12.35 for numeric(12,2) without a word, so the engine refuses a value with more fractional digits
 * than the column's scale, or more integer digits than precision − scale, before anything is written — inserts
 * (nested ones too, and their on_conflict updates, which write the same values) and updates' _set and _inc. Values
 * bound from session variables are the server's own presets and are not checked here.
 */
import { RequestError } from "../errors.ts";
import type { ColumnModel, TableModel } from "../metadata/model.ts";
import type { InsertIR, OperationPlan, UpdateIR, Value } from "./ir.ts";

const TYPMOD = /^numeric\((\d+)(?:,\s*(\d+))?\)$/;
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
/** Beyond this exponent the digits are counted as if it were this one (still far outside any column). */
const MAX_EXPONENT = 2000;

export function checkNumericWrites(plan: OperationPlan): void {
  if (plan.operation !== "mutation") return;
  for (const f of plan.fields) {
    if (f.kind !== "mutation") continue;
    const at = `$.selectionSet.${f.alias}.args`;
    if (f.mutation.kind === "insert") checkInsert(f.mutation, `${at}.objects`);
    else if (f.mutation.kind === "update") checkUpdate(f.mutation, at);
  }
}

function checkInsert(ir: InsertIR, at: string): void {
  ir.rows.forEach((row, i) => {
    for (const [name, value] of row.columns) {
      const column = ir.table.column.get(name);
      if (column) checkValue(ir.table, column, value, `${at}[${i}].${column.field}`);
    }
    for (const r of row.objectRels) checkInsert(r.insert, `${at}[${i}].${r.rel.name}.data`);
    for (const r of row.arrayRels) checkInsert(r.insert, `${at}[${i}].${r.rel.name}.data`);
  });
}

function checkUpdate(ir: UpdateIR, at: string): void {
  for (const a of ir.assignments) if (a.op === "_set" || a.op === "_inc") checkValue(ir.table, a.column, a.value, `${at}.${a.op}.${a.column.field}`);
}

/** The digits a decimal text has before and after its point, without leading or trailing zeros; null if not a decimal. */
export function decimalDigits(text: string): { integer: number; fraction: number } | null {
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[1] === "" && (m[2] ?? "") === "")) return null;
  let digits = m[1] + (m[2] ?? "");
  const exponent = Math.max(-MAX_EXPONENT, Math.min(MAX_EXPONENT, Number(m[3] ?? 0)));
  let point = m[1].length + exponent;
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += "0".repeat(point - digits.length);
  return { integer: digits.slice(0, point).replace(/^0+/, "").length, fraction: digits.slice(point).replace(/0+$/, "").length };
}

function checkValue(table: TableModel, column: ColumnModel, value: Value, path: string): void {
  if (value.kind !== "literal" || column.udt !== "numeric") return;
  const typmod = TYPMOD.exec(column.sqlType);
  if (!typmod) return; // unconstrained numeric keeps every digit
  const v = value.value;
  if (typeof v !== "number" && typeof v !== "string") return;
  const digits = decimalDigits(String(v));
  if (!digits) return; // not a number: Postgres refuses it with its own message
  const precision = Number(typmod[1]);
  const scale = Number(typmod[2] ?? 0);
  const where = `${column.field} of ${table.name}`;
  if (digits.fraction > scale) {
    const allowed = scale === 0 ? "a whole number" : `at most ${scale} decimal place${scale === 1 ? "" : "s"}`;
    throw new RequestError("validation-failed", `${where} takes ${allowed}; ${String(v)} has ${digits.fraction}. Nothing was saved (the value is never rounded).`, path);
  }
  if (digits.integer > precision - scale) {
    throw new RequestError("validation-failed", `${where} takes at most ${precision - scale} digits before the decimal point; ${String(v)} has ${digits.integer}. Nothing was saved.`, path);
  }
}
