import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import { RequestError } from "../errors.ts";
import type { BoolExp, ComparisonOp, OperationPlan, RowField, SelectIR } from "./ir.ts";
import { unsafePatternReason, type PatternSyntax } from "./pattern-safety.ts";

/** Bounds on every request but the admin secret's (DESIGN §4, issue 11): signed-in admins included. */
export interface RequestLimits {
  readonly maxDepth: number;
  /** Aliased fields, counted after fragments are spread (a fragment used 16 times counts 16 times). */
  readonly maxAliases: number;
  /** Fields, counted after fragments are spread. */
  readonly maxFields: number;
  readonly maxBatch: number;
  /**
   * Rows of one list (the smaller of this, the caller's limit and the role's limit). An admin's lists are not
   * cut, but count this many in the budget below.
   */
  readonly maxRows: number;
  /**
   * Rows of the whole response across all nesting, as the limits above allow at most. Two unlimited nested
   * lists (lessons with their sessions: 1,000 × 1,000) must pass — the app's screens read such shapes —, a
   * third level (10⁹) or the depth-7 fan-out (10¹²) is refused; the response size and the statement timeout
   * bound what actually comes back.
   */
  readonly maxTotalRows: number;
  /** Characters of the response body. */
  readonly maxResponseBytes: number;
  readonly maxQueryLength: number;
  /** Characters of a _like/_ilike/_similar/_regex/_iregex pattern (and their negations). */
  readonly maxPatternLength: number;
}
export const DEFAULT_LIMITS: RequestLimits = {
  maxDepth: 10,
  maxAliases: 50,
  maxFields: 2000,
  maxBatch: 20,
  maxRows: 1000,
  maxTotalRows: 10_000_000,
  maxResponseBytes: 20_000_000,
  maxQueryLength: 100_000,
  maxPatternLength: 1000,
};

/** Depth of the deepest field, aliased fields and fields — all with fragments spread where they are used. */
export function measureDocument(doc: DocumentNode): { depth: number; aliases: number; fields: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  // counts per fragment, memoised: nested fragments multiply, and the numbers may grow past any integer (Infinity is fine)
  const memo = new Map<string, { aliases: number; fields: number }>();
  const count = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): { aliases: number; fields: number } => {
    let aliases = 0;
    let fields = 0;
    for (const s of set?.selections ?? []) {
      let inner: { aliases: number; fields: number };
      if (s.kind === Kind.FIELD) {
        inner = count(s.selectionSet, seen);
        fields++;
        if (s.alias) aliases++;
      } else if (s.kind === Kind.INLINE_FRAGMENT) inner = count(s.selectionSet, seen);
      else {
        const name = s.name.value;
        if (seen.has(name)) continue; // a cycle: refused by validation already
        let known = memo.get(name);
        if (!known) memo.set(name, (known = count(fragments.get(name)?.selectionSet, new Set([...seen, name]))));
        inner = known;
      }
      aliases += inner.aliases;
      fields += inner.fields;
    }
    return { aliases, fields };
  };
  const depthOf = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): number => {
    let max = 0;
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) max = Math.max(max, s.selectionSet ? 1 + depthOf(s.selectionSet, seen) : 1);
      else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(s.selectionSet, seen));
      else if (!seen.has(s.name.value)) max = Math.max(max, depthOf(fragments.get(s.name.value)?.selectionSet, new Set([...seen, s.name.value])));
    }
    return max;
  };
  let depth = 0;
  let aliases = 0;
  let fields = 0;
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    depth = Math.max(depth, depthOf(d.selectionSet, new Set()));
    const c = count(d.selectionSet, new Set());
    aliases = Math.max(aliases, c.aliases);
    fields = Math.max(fields, c.fields);
  }
  return { depth, aliases, fields };
}

export function checkDocumentLimits(doc: DocumentNode, limits: RequestLimits): void {
  const { depth, aliases, fields } = measureDocument(doc);
  if (depth > limits.maxDepth) throw new RequestError("validation-failed", `query depth ${depth} exceeds the limit of ${limits.maxDepth}`);
  if (aliases > limits.maxAliases) throw new RequestError("validation-failed", `the query uses ${count(aliases)} aliases; the limit is ${limits.maxAliases}`);
  if (fields > limits.maxFields) throw new RequestError("validation-failed", `the query selects ${count(fields)} fields; the limit is ${limits.maxFields}`);
}

const count = (n: number) => (Number.isFinite(n) && n < 1e15 ? String(n) : "too many");

const PATTERN_OPS: ReadonlySet<ComparisonOp> = new Set(["_like", "_nlike", "_ilike", "_nilike", "_similar", "_nsimilar", "_regex", "_nregex", "_iregex", "_niregex"]);
/** The operators whose patterns PostgreSQL runs as regular expressions (LIKE's matcher cannot backtrack exponentially). */
const REGEX_SYNTAX: ReadonlyMap<ComparisonOp, PatternSyntax> = new Map([
  ["_regex", "regex"],
  ["_nregex", "regex"],
  ["_iregex", "regex"],
  ["_niregex", "regex"],
  ["_similar", "similar"],
  ["_nsimilar", "similar"],
] as const);

/** Who is asking, for the checks that depend on it. */
export interface LimitsCaller {
  /** Admins' patterns are not checked for exponential shapes (issue 32: non-admin roles only). */
  readonly isAdmin: boolean;
}

function checkPatterns(e: BoolExp | null | undefined, limits: RequestLimits, caller: LimitsCaller): void {
  if (!e) return;
  switch (e.kind) {
    case "and":
    case "or":
      for (const item of e.items) checkPatterns(item, limits, caller);
      return;
    case "not":
      return checkPatterns(e.item, limits, caller);
    case "relationship":
    case "exists":
    case "aggregate_predicate":
    case "computed_set":
      return checkPatterns(e.where, limits, caller);
    case "compare": {
      if (!PATTERN_OPS.has(e.op) || e.value.kind !== "literal" || typeof e.value.value !== "string") return;
      const pattern = e.value.value;
      if (pattern.length > limits.maxPatternLength) {
        throw new RequestError("validation-failed", `the ${e.op} pattern on "${e.column.name}" is ${pattern.length} characters long; the limit is ${limits.maxPatternLength}`);
      }
      const syntax = REGEX_SYNTAX.get(e.op);
      const unsafe = syntax && !caller.isAdmin ? unsafePatternReason(pattern, syntax) : undefined;
      if (unsafe) throw new RequestError("validation-failed", `the ${e.op} pattern on "${e.column.name}" is not allowed: ${unsafe}`);
      return;
    }
    default:
      return;
  }
}

/**
 * The most rows a select can return as planned: each list holds at most its limit (the caller's, the role's,
 * maxRows), and every row carries its relationships. Also checks the caller's patterns on the way down.
 */
function rowsOf(select: SelectIR, limits: RequestLimits, caller: LimitsCaller): number {
  checkPatterns(select.args.where, limits, caller);
  const list = Math.min(select.args.limit ?? Infinity, select.permission.limit ?? Infinity, limits.maxRows);
  const perRow = (fields: readonly RowField[]) => 1 + fields.reduce((sum, f) => sum + (f.kind === "object_rel" || f.kind === "array_rel" || f.kind === "array_aggregate" || f.kind === "computed_set" ? rowsOf(f.select, limits, caller) : 0), 0);
  if (select.output.kind === "rows") return (select.output.single ? 1 : list) * perRow(select.output.fields);
  return 1 + select.output.fields.reduce((sum, f) => sum + (f.kind === "nodes" ? list * perRow(f.fields) : 0), 0);
}

/** After planning: the caller's patterns are short (and, but for admins, safe) and the response's rows, across all nesting, within budget. */
export function checkPlanLimits(plan: OperationPlan, limits: RequestLimits, caller: LimitsCaller): void {
  let rows = 0;
  for (const f of plan.fields) {
    if (f.kind === "select" || f.kind === "estimate") rows += rowsOf(f.select, limits, caller);
    else if (f.kind === "mutation" && f.mutation.kind !== "insert") checkPatterns(f.mutation.where, limits, caller);
  }
  if (rows > limits.maxTotalRows) {
    throw new RequestError(
      "validation-failed",
      `the query could return up to ${count(rows)} rows across its nested lists; the limit is ${limits.maxTotalRows}: give the lists a smaller limit or select fewer nested lists`,
    );
  }
}

/** The response body as built: refused whole when over budget (a cut list would look complete). */
export function checkResponseSize(body: string, limits: RequestLimits): string {
  if (body.length > limits.maxResponseBytes) throw new RequestError("validation-failed", `the response would be ${body.length} characters long; the limit is ${limits.maxResponseBytes}: ask for fewer rows or fields`);
  return body;
}
