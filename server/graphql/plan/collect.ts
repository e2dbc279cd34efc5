import { Kind, valueFromASTUntyped, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode } from "graphql";

export type Variables = Readonly<Record<string, unknown>>;

export interface CollectedField {
  readonly alias: string;
  readonly name: string;
  readonly nodes: readonly FieldNode[];
}

function included(node: { directives?: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: ValueNode }[] }[] }, vars: Variables): boolean {
  for (const d of node.directives ?? []) {
    const arg = d.arguments?.find((a) => a.name.value === "if");
    const v = arg ? valueFromASTUntyped(arg.value, vars as Record<string, unknown>) : undefined;
    if (d.name.value === "skip" && v === true) return false;
    if (d.name.value === "include" && v === false) return false;
  }
  return true;
}

/** The fields of a selection set in response order, with fragments spread and @skip/@include applied. */
export function collectFields(sets: readonly (SelectionSetNode | undefined)[], fragments: ReadonlyMap<string, FragmentDefinitionNode>, vars: Variables): CollectedField[] {
  const out = new Map<string, { alias: string; name: string; nodes: FieldNode[] }>();
  const visit = (set: SelectionSetNode | undefined, seen: Set<string>) => {
    for (const sel of set?.selections ?? []) {
      if (!included(sel, vars)) continue;
      if (sel.kind === Kind.FIELD) {
        const alias = sel.alias?.value ?? sel.name.value;
        const f = out.get(alias);
        if (f) f.nodes.push(sel);
        else out.set(alias, { alias, name: sel.name.value, nodes: [sel] });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        visit(sel.selectionSet, seen);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const name = sel.name.value;
        if (seen.has(name)) continue;
        visit(fragments.get(name)?.selectionSet, new Set([...seen, name]));
      }
    }
  };
  for (const s of sets) visit(s, new Set());
  return [...out.values()];
}

export function subSelections(f: CollectedField): (SelectionSetNode | undefined)[] {
  return f.nodes.map((n) => n.selectionSet);
}

/** Argument values as JSON, keys in the order written (graphql-js has already checked their types). */
export function argumentsOf(node: FieldNode, vars: Variables): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const a of node.arguments ?? []) args[a.name.value] = valueFromASTUntyped(a.value, vars as Record<string, unknown>);
  return args;
}
