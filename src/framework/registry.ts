/** The declared resources, by table: relations and inlines find their targets here. */
import type { Resource } from "./types.ts";

const byTable = new Map<string, Resource>();

/** Per table, the resource named after it wins; a table with only differently named resources gets the first. */
export function registerResources(resources: readonly Resource[]): void {
  for (const r of resources) if (r.name === r.table) byTable.set(r.table, r);
  for (const r of resources) if (!byTable.has(r.table)) byTable.set(r.table, r);
}

export function findResource(table: string): Resource | undefined {
  return byTable.get(table);
}

export function getResource(table: string): Resource {
  const r = byTable.get(table);
  if (!r) throw new Error(`No resource declared for table ${table}`);
  return r;
}

/** The label field of a relation's target (declared labelField, else the target's recordLabel, else name). */
export function relationLabelField(target: string, labelField?: string): string {
  return labelField ?? byTable.get(target)?.recordLabel ?? "name";
}
