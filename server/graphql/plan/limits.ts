import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import { RequestError } from "../errors.ts";

/** Bounds on every non-admin request (DESIGN §4). */
export interface RequestLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxBatch: number;
  readonly maxRows: number;
  readonly maxQueryLength: number;
}
export const DEFAULT_LIMITS: RequestLimits = { maxDepth: 10, maxAliases: 50, maxBatch: 20, maxRows: 1000, maxQueryLength: 100_000 };

/** Depth of the deepest field (fragments spread) and number of aliased fields. */
export function measureDocument(doc: DocumentNode): { depth: number; aliases: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let aliases = 0;
  for (const d of doc.definitions) {
    const count = (set: SelectionSetNode | undefined) => {
      for (const s of set?.selections ?? []) {
        if (s.kind === Kind.FIELD) {
          if (s.alias) aliases++;
          count(s.selectionSet);
        } else if (s.kind === Kind.INLINE_FRAGMENT) count(s.selectionSet);
      }
    };
    if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) count(d.selectionSet);
  }
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
  for (const d of doc.definitions) if (d.kind === Kind.OPERATION_DEFINITION) depth = Math.max(depth, depthOf(d.selectionSet, new Set()));
  return { depth, aliases };
}

export function checkDocumentLimits(doc: DocumentNode, limits: RequestLimits): void {
  const { depth, aliases } = measureDocument(doc);
  if (depth > limits.maxDepth) throw new RequestError("validation-failed", `query depth ${depth} exceeds the limit of ${limits.maxDepth}`);
  if (aliases > limits.maxAliases) throw new RequestError("validation-failed", `the query uses ${aliases} aliases; the limit is ${limits.maxAliases}`);
}
