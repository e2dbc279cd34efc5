import type { GeneratedPermissions, TableRolePermissions } from "../types.ts";
import { ANONYMOUS, DATA_ACTIONS, parseColumnList, roleWithGroups, type DataAction, type Rule } from "./rules.ts";

export interface TableInfo {
  /** Tables the engine serves; data rules on other tables are ignored. */
  tables?: ReadonlySet<string>;
  /** Columns per table, for column lists and the createdBy/updatedBy presets. */
  columns?: ReadonlyMap<string, ReadonlySet<string>>;
}

type Filter = Record<string, unknown>;
interface DataRule {
  filter: Filter;
  /** undefined = every column. */
  columns?: string;
}

/** The union of row filters: any unfiltered rule wins; otherwise _or of them. */
function union(filters: Filter[]): Filter {
  if (filters.some((f) => Object.keys(f).length === 0)) return {};
  const unique = [...new Map(filters.map((f) => [JSON.stringify(f), f])).values()];
  return unique.length === 1 ? unique[0] : { _or: unique };
}

/** The columns a rule grants; a list naming withheld columns needs the table's columns (without them: none, failing closed). */
function grantedColumns(list: string | undefined, cols: ReadonlySet<string> | undefined): string[] | "*" {
  if (list === undefined) return "*";
  const parsed = parseColumnList(list);
  if ("only" in parsed) return cols ? parsed.only.filter((c) => cols.has(c)) : [...parsed.only];
  return cols ? [...cols].filter((c) => !parsed.except.includes(c)).sort() : [];
}

function unionColumns(lists: (string[] | "*")[]): string[] | "*" {
  if (lists.includes("*")) return "*";
  return [...new Set((lists as string[][]).flat())].sort();
}

/**
 * Hasura permissions per role and table, generated from the data rules
 * (`p, role, data:<table>, <action>[, filter[, columns]]`). A role gets its own rules and those of its groups.
 * Each rule keeps its own row filter, check and columns: the Hasura-form permission holds their union (what
 * a real Hasura is given, and the GraphQL schema shows) and, when a role has several rules on one table
 * and action, `rules` lists them one by one for the engine, which lets a write through only under one rule
 * whose filter admitted the row, whose columns hold every column written, and whose check the new row meets.
 * Admin is Hasura's superuser role and gets no entry. Inserts and updates preset createdBy/updatedBy
 * to the caller when the table has those columns.
 */
export function generateHasuraPermissions(rules: readonly Rule[], roles: readonly string[], info: TableInfo = {}): GeneratedPermissions {
  const result: GeneratedPermissions = {};
  for (const role of roles) {
    if (role === "admin" || role === ANONYMOUS) continue;
    const subjects = new Set(roleWithGroups(role, rules));
    const byTable = new Map<string, Map<DataAction, DataRule[]>>();
    for (const rule of rules) {
      if (rule.ptype !== "p") continue;
      const [sub, obj, act, cond, columns] = rule.values;
      if (!subjects.has(sub) || !obj.startsWith("data:")) continue;
      const table = obj.slice(5);
      if (info.tables && !info.tables.has(table)) continue;
      if (!(DATA_ACTIONS as readonly string[]).includes(act)) continue;
      const actions = byTable.get(table) ?? new Map<DataAction, DataRule[]>();
      const list = actions.get(act as DataAction) ?? [];
      list.push({ filter: cond ? (JSON.parse(cond) as Filter) : {}, columns: columns || undefined });
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
      const each = (list: DataRule[]) => {
        const unique = [...new Map(list.map((r) => [JSON.stringify([r.filter, r.columns ?? null]), r])).values()];
        return unique.map((r) => ({ filter: r.filter, columns: grantedColumns(r.columns, cols) }));
      };
      const perms: TableRolePermissions = {};
      const select = actions.get("select");
      if (select) {
        const list = each(select);
        perms.select = { columns: unionColumns(list.map((r) => r.columns)), filter: union(list.map((r) => r.filter)), allow_aggregations: true, ...(list.length > 1 ? { rules: list } : {}) };
      }
      const insert = actions.get("insert");
      if (insert) {
        const list = each(insert).map((r) => ({ columns: r.columns, check: r.filter }));
        const set = preset(["createdBy", "updatedBy"]);
        perms.insert = { columns: unionColumns(list.map((r) => r.columns)), check: union(list.map((r) => r.check)), ...(set ? { set } : {}), ...(list.length > 1 ? { rules: list } : {}) };
      }
      const update = actions.get("update");
      if (update) {
        // A rule's check is its filter: a row it may change must still be one it may change.
        const list = each(update).map((r) => ({ columns: r.columns, filter: r.filter, check: r.filter }));
        const filter = union(list.map((r) => r.filter));
        const set = preset(["updatedBy"]);
        perms.update = { columns: unionColumns(list.map((r) => r.columns)), filter, check: filter, ...(set ? { set } : {}), ...(list.length > 1 ? { rules: list } : {}) };
      }
      const del = actions.get("delete");
      if (del) perms.delete = { filter: union(del.map((r) => r.filter)) };
      tables[table] = perms;
    }
    result[role] = tables;
  }
  return result;
}
