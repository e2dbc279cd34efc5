/** Labels of the related records shown in a list page or show page, one getMany per relation field. */
import { useQuery } from "@tanstack/react-query";
import { useDataProvider, type BaseRecord } from "@refinedev/core";
import { relationLabelField } from "./registry.ts";
import type { ResolvedField } from "./types.ts";
import type { RelationLabels } from "./kinds.tsx";

export function relationIds(field: ResolvedField, rows: readonly BaseRecord[]): string[] {
  const ids = new Set<string>();
  for (const row of rows) {
    const v = row[field.name];
    for (const id of Array.isArray(v) ? v : v ? [v] : []) ids.add(String(id));
  }
  return [...ids].sort();
}

export async function fetchRelationLabels(
  getDataProvider: ReturnType<typeof useDataProvider>,
  fields: readonly ResolvedField[],
  rows: readonly BaseRecord[],
): Promise<Record<string, Map<string, string>>> {
  const entries = await Promise.all(
    fields.map(async (f) => {
      if (f.kind !== "relation") return [f.name, new Map<string, string>()] as const;
      const ids = relationIds(f, rows);
      const label = relationLabelField(f.target, f.labelField);
      if (ids.length === 0) return [f.name, new Map<string, string>()] as const;
      const { data } = await getDataProvider().getMany!({ resource: f.target, ids, meta: { fields: ["id", label] } });
      return [f.name, new Map(data.map((d) => [String(d.id), String(d[label] ?? d.id)]))] as const;
    }),
  );
  return Object.fromEntries(entries);
}

export function useRelationLabels(fields: readonly ResolvedField[], rows: readonly BaseRecord[]): RelationLabels {
  const getDataProvider = useDataProvider();
  const relations = fields.filter((f) => f.kind === "relation");
  const key = relations.map((f) => [f.name, relationIds(f, rows)]);
  const { data } = useQuery({
    queryKey: ["framework", "relation-labels", key],
    queryFn: () => fetchRelationLabels(getDataProvider, relations, rows),
    enabled: relations.length > 0 && rows.length > 0,
    retry: false,
    staleTime: 30_000,
  });
  return data ?? {};
}
