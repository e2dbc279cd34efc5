/**
 * The metadata a real Hasura needs to serve our roles: the tracked tables with the permissions the access
 * policy generates (which our engine holds in memory, never in hasura/metadata). A permission written in
 * the metadata by hand wins over the generated one of the same role and kind, as in our engine.
 */
import type { GeneratedPermissions } from "../../auth/types.ts";
import type { HasuraMetadata, RolePermission } from "./types.ts";
import { generatedFor } from "./model.ts";

type Kind = "select" | "insert" | "update" | "delete";
const LISTS = { select: "select_permissions", insert: "insert_permissions", update: "update_permissions", delete: "delete_permissions" } as const;

export function withGeneratedPermissions(metadata: HasuraMetadata, generated: GeneratedPermissions): HasuraMetadata {
  const out = structuredClone(metadata);
  const roles = Object.keys(generated).sort();
  for (const source of out.sources) {
    for (const table of source.tables) {
      const schema = table.table.schema ?? "public";
      for (const role of roles) {
        const g = generatedFor(generated[role]!, `${schema}.${table.table.name}`);
        if (!g) continue;
        for (const kind of Object.keys(LISTS) as Kind[]) {
          const permission = g[kind];
          const key = LISTS[kind];
          const list = (table[key] ?? []) as RolePermission<unknown>[];
          if (!permission || list.some((p) => p.role === role)) continue;
          // Hasura holds one permission per role: the union of the role's rules (engine-only `rules` stay behind).
          const { rules: _rules, ...hasuraForm } = structuredClone(permission) as typeof permission & { rules?: unknown };
          table[key] = [...list, { role, permission: hasuraForm }] as never;
        }
      }
    }
  }
  return out;
}
