import type { GeneratedPermissions, TableRolePermissions } from "../types.ts";
import { ANONYMOUS, DATA_ACTIONS, roleWithGroups, type DataAction, type Rule } from "./rules.ts";

export interface TableInfo {
  /** Tables the engine serves; data rules on other tables are ignored. */
  tables?: ReadonlySet<string>;
  /** Columns per table, for the createdBy/updatedBy presets. */
  columns?: ReadonlyMap<string, ReadonlySet<string>>;
}

type Filter = Record<string, unknown>;

/** The union of row filters: any unfiltered rule wins; otherwise _or of them. */
function union(filters: Filter[]): Filter {
  if (filters.some((f) => Object.keys(f).length === 0)) return {};
  const unique = [...new Map(filters.map((f) => [JSON.stringify(f), f])).values()];
  return unique.length === 1 ? unique[0] : { _or: unique };
}

/**
 * Hasura permissions per role and table, generated from the data rules (`p, role, data:<table>, <action>[, filter]`).
 * A role gets its own rules and those of its groups; several rules on one table and action are ORed.
 * Admin is Hasura's superuser role and gets no entry. Inserts and updates preset createdBy/updatedBy
 * to the caller when the table has those columns.
 */
export function generateHasuraPermissions(rules: readonly Rule[], roles: readonly string[], info: TableInfo = {}): GeneratedPermissions {
  const result: GeneratedPermissions = {};
  for (const role of roles) {
    if (role === "admin" || role === ANONYMOUS) continue;
    const subjects = new Set(roleWithGroups(role, rules));
    const byTable = new Map<string, Map<DataAction, Filter[]>>();
    for (const rule of rules) {
      if (rule.ptype !== "p") continue;
      const [sub, obj, act, cond] = rule.values;
      if (!subjects.has(sub) || !obj.startsWith("data:")) continue;
      const table = obj.slice(5);
      if (info.tables && !info.tables.has(table)) continue;
      if (!(DATA_ACTIONS as readonly string[]).includes(act)) continue;
      const actions = byTable.get(table) ?? new Map<DataAction, Filter[]>();
      const list = actions.get(act as DataAction) ?? [];
      list.push(cond ? (JSON.parse(cond) as Filter) : {});
      actions.set(act as DataAction, list);
      byTable.set(table, actions);
    }
    if (byTable.size === 0) continue;
    const tables: Record<string, TableRolePermissions> = {};
    for (const [table, actions] of [...byTable].sort(([a], [b]) => a.localeCompare(b))) {
      const cols = info.columns?.get(table);
      const preset = (names: string[]) => {
        const set: Record<string, string> = {};
        for (const n of names) if (cols?.has(n)) set[n] = "X-Hasura-User-Id";
        return Object.keys(set).length ? set : undefined;
      };
      const perms: TableRolePermissions = {};
      const select = actions.get("select");
      if (select) perms.select = { columns: "*", filter: union(select), allow_aggregations: true };
      const insert = actions.get("insert");
      if (insert) {
        const set = preset(["createdBy", "updatedBy"]);
        perms.insert = { columns: "*", check: union(insert), ...(set ? { set } : {}) };
      }
      const update = actions.get("update");
      if (update) {
        const filter = union(update);
        const set = preset(["updatedBy"]);
        perms.update = { columns: "*", filter, check: filter, ...(set ? { set } : {}) };
      }
      const del = actions.get("delete");
      if (del) perms.delete = { filter: union(del) };
      tables[table] = perms;
    }
    result[role] = tables;
  }
  return result;
}
