/**
 * A policy line's row condition (a Hasura boolean expression) decided on a row the browser already holds, so a
 * screen can show a record read-only where the server would refuse its edit. Only what the row itself answers is
 * decided: a relationship, a session variable or an operator not listed here is "unknown", and the screen leaves
 * that decision to the server.
 */

type Verdict = boolean | undefined;

const and = (verdicts: Verdict[]): Verdict => (verdicts.includes(false) ? false : verdicts.includes(undefined) ? undefined : true);
const or = (verdicts: Verdict[]): Verdict => (verdicts.includes(true) ? true : verdicts.includes(undefined) ? undefined : false);

const isSessionVariable = (v: unknown) => typeof v === "string" && /^x-hasura-/i.test(v);

function comparison(op: string, value: unknown, operand: unknown): Verdict {
  if (isSessionVariable(operand) || (Array.isArray(operand) && operand.some(isSessionVariable))) return undefined;
  switch (op) {
    case "_eq":
      return value === operand;
    case "_neq":
      return value !== operand;
    case "_in":
      return Array.isArray(operand) ? operand.includes(value) : undefined;
    case "_nin":
      return Array.isArray(operand) ? !operand.includes(value) : undefined;
    case "_is_null":
      return typeof operand === "boolean" ? (value === null || value === undefined) === operand : undefined;
    default:
      return undefined;
  }
}

/** true or false where the row decides the condition; undefined where it cannot (the server decides). */
export function rowConditionHolds(condition: unknown, row: Readonly<Record<string, unknown>>): Verdict {
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) return undefined;
  return and(
    Object.entries(condition).map(([key, operand]): Verdict => {
      if (key === "_and") return Array.isArray(operand) ? and(operand.map((c) => rowConditionHolds(c, row))) : undefined;
      if (key === "_or") return Array.isArray(operand) ? or(operand.map((c) => rowConditionHolds(c, row))) : undefined;
      if (key === "_not") {
        const inner = rowConditionHolds(operand, row);
        return inner === undefined ? undefined : !inner;
      }
      if (!(key in row) || operand === null || typeof operand !== "object" || Array.isArray(operand)) return undefined;
      return and(Object.entries(operand).map(([op, value]) => comparison(op, row[key], value)));
    }),
  );
}
