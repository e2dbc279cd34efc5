import type { BoolExpJson } from "../metadata/types.ts";
import type { ComputedFieldModel, InsertPermission, Model, RelationshipModel, RolePermissions, TableModel, UpdatePermission } from "../metadata/model.ts";

/**
 * What one request may do, per table: the union of the session's roles (Hasura's inherited-role
 * semantics: a row is visible if any role's filter lets it through; a column's value shows only on
 * rows whose filter comes from a role that grants the column, otherwise null).
 */
export interface EffectiveSelect {
  /** null = every row. */
  readonly filter: BoolExpJson | null;
  /** column → null (shown wherever the row is) or the filter under which the value shows. */
  readonly columns: ReadonlyMap<string, BoolExpJson | null>;
  /**
   * The columns shown on every row the role sees (null above): the only ones a request may filter, order, distinct
   * or aggregate on. A column shown on some rows only would be tested on the others, where it reads null.
   */
  readonly filterable: ReadonlySet<string>;
  readonly limit?: number;
  readonly allowAggregations: boolean;
  /** The scalar computed fields shown (on every visible row, as Hasura grants them per role). */
  readonly computedFields: ReadonlySet<string>;
}
/** One rule a write may go through: the columns it may write, the rows it may touch, the check the written row meets. */
export interface MutationRule {
  readonly columns: readonly string[];
  readonly filter: BoolExpJson | null;
  readonly check: BoolExpJson | null;
}
export interface EffectiveMutation {
  /** Every column some rule may write (the schema's input types). */
  readonly columns: readonly string[];
  readonly filter: BoolExpJson | null;
  readonly check: BoolExpJson | null;
  readonly set: Readonly<Record<string, unknown>>;
  /** The rules of every role one by one: a write goes through one of them, never a mix of two. */
  readonly rules: readonly MutationRule[];
}
export interface EffectiveDelete {
  readonly filter: BoolExpJson | null;
}
export interface Access {
  readonly isAdmin: boolean;
  readonly roles: readonly string[];
  /** Stable identity of this permission set (for schema and live-query sharing). */
  readonly key: string;
  select(table: TableModel): EffectiveSelect | undefined;
  insert(table: TableModel): EffectiveMutation | undefined;
  update(table: TableModel): EffectiveMutation | undefined;
  delete(table: TableModel): EffectiveDelete | undefined;
}

const isEmpty = (f: BoolExpJson | undefined | null) => !f || Object.keys(f).length === 0;
const anyOf = (filters: BoolExpJson[]): BoolExpJson | null => (filters.some(isEmpty) ? null : filters.length === 1 ? filters[0] : { _or: filters });

export function adminAccess(): Access {
  const all = (t: TableModel) => t.columns.map((c) => c.name);
  const selects = new WeakMap<TableModel, EffectiveSelect>();
  return {
    isAdmin: true,
    roles: ["admin"],
    key: "admin",
    select: (t) => {
      let s = selects.get(t);
      if (!s) selects.set(t, (s = { filter: null, columns: new Map(all(t).map((c) => [c, null])), filterable: new Set(all(t)), allowAggregations: true, computedFields: new Set(t.computedFields.keys()) }));
      return s;
    },
    insert: (t) => ({ columns: all(t), filter: null, check: null, set: {}, rules: [{ columns: all(t), filter: null, check: null }] }),
    update: (t) => ({ columns: all(t), filter: null, check: null, set: {}, rules: [{ columns: all(t), filter: null, check: null }] }),
    delete: () => ({ filter: null }),
  };
}

/**
 * A relationship a role may follow (select through, filter or order by): one to a table it may read (Hasura's rule,
 * whatever the joining columns), unless a joining column shows on some of its rows only: following it there would
 * show what the column hides on the others (attendance checker: `curriculum` of a student, whose curriculumId it
 * does not see).
 */
export function followsRelationship(access: Access, model: Model, table: TableModel, rel: RelationshipModel): boolean {
  const source = access.select(table);
  const target = access.select(model.tables.get(rel.target)!);
  const everywhereOrNowhere = (s: EffectiveSelect, column: string) => s.filterable.has(column) || !s.columns.has(column);
  return !!source && !!target && rel.mapping.every(([a, b]) => everywhereOrNowhere(source, a) && everywhereOrNowhere(target, b));
}

/** A filter's top-level conjuncts (`_and` lists and several keys of one object are conjunctions). */
function conjuncts(f: BoolExpJson | null | undefined): BoolExpJson[] {
  if (!f) return [];
  return Object.entries(f).flatMap(([k, v]) => (k === "_and" && Array.isArray(v) ? v.flatMap((x) => conjuncts(x as BoolExpJson)) : [{ [k]: v }]));
}

/**
 * Whether every row `inner` admits is one `outer` admits, as far as their text shows: each condition of outer is one
 * of inner's, or an `_or` one of whose branches holds so. False when unsure (the column then counts as shown on some rows).
 */
function within(inner: BoolExpJson | null | undefined, outer: BoolExpJson | null | undefined): boolean {
  const have = new Set(conjuncts(inner).map((c) => JSON.stringify(c)));
  return conjuncts(outer).every((c) => have.has(JSON.stringify(c)) || (Array.isArray(c._or) && c._or.some((d) => within(inner, d as BoolExpJson))));
}

/** Hasura's rule for a role and a computed field: a scalar one when its select permission lists it, one returning a table when it may read that table. */
export function seesComputedField(access: Access, model: Model, table: TableModel, field: ComputedFieldModel): boolean {
  return field.returns.kind === "scalar" ? !!access.select(table)?.computedFields.has(field.name) : !!access.select(model.tables.get(field.returns.table)!);
}

/** Expands inherited roles to the roles they are made of. */
export function expandRoles(model: Model, roles: readonly string[]): string[] {
  const out = new Set<string>();
  const visit = (r: string) => {
    const set = model.inheritedRoles.get(r);
    if (set) set.forEach(visit);
    else out.add(r);
  };
  roles.forEach(visit);
  return [...out].sort();
}

/**
 * `backendOnly`: the request may use mutations whose permission is `backend_only` (Hasura's backend scenario:
 * the admin secret with `x-hasura-use-backend-only-permissions: true`); otherwise they do not exist for it.
 */
export function roleAccess(model: Model, sessionRoles: readonly string[], options: { backendOnly?: boolean } = {}): Access {
  const roles = expandRoles(model, sessionRoles);
  const perms = (t: TableModel) => roles.map((r) => t.permissions.get(r)).filter((p): p is RolePermissions => !!p);
  const usable = <P extends { backendOnly?: boolean }>(p: P | undefined): P[] => (p && (!p.backendOnly || options.backendOnly) ? [p] : []);
  const cache = new Map<string, unknown>();
  const memo = <T>(k: string, f: () => T): T => {
    if (!cache.has(k)) cache.set(k, f());
    return cache.get(k) as T;
  };
  const orNull = (f: BoolExpJson | undefined) => (isEmpty(f) ? null : f!);
  const mutation = (list: (InsertPermission | UpdatePermission)[]): EffectiveMutation | undefined => {
    if (!list.length) return undefined;
    const rules: MutationRule[] = list.flatMap((p) => {
      const filter = "filter" in p ? p.filter : undefined;
      return p.rules
        ? p.rules.map((r) => ({ columns: r.columns, filter: "filter" in p ? orNull(r.filter) : null, check: orNull(r.check) }))
        : [{ columns: p.columns, filter: orNull(filter), check: orNull(p.check) }];
    });
    return {
      columns: [...new Set(list.flatMap((p) => p.columns))],
      filter: anyOf(rules.map((r) => r.filter ?? {})),
      check: anyOf(rules.map((r) => r.check ?? {})),
      set: Object.assign({}, ...list.map((p) => p.set)),
      rules,
    };
  };
  return {
    isAdmin: false,
    roles,
    key: roles.join(",") + (options.backendOnly ? "|backend" : ""),
    select: (t) =>
      memo(`s:${t.key}`, () => {
        // Each rule of each role: a column shows on the rows of the rules that grant it.
        const list = perms(t).flatMap((p) => (!p.select ? [] : p.select.rules ? p.select.rules.map((r) => ({ ...p.select!, columns: r.columns, filter: r.filter })) : [p.select]));
        if (!list.length) return undefined;
        const filter = anyOf(list.map((p) => p.filter));
        const columns = new Map<string, BoolExpJson | null>();
        const filterable = new Set<string>();
        for (const c of t.columns) {
          const granting = list.filter((p) => p.columns.includes(c.name));
          if (!granting.length) continue;
          // Shown everywhere when each rule without the column only admits rows a rule with it admits (a union of
          // roles: hod's students are among front desk's).
          const everywhere = list.every((p) => granting.includes(p) || granting.some((g) => within(p.filter, g.filter)));
          columns.set(c.name, everywhere ? null : anyOf(granting.map((p) => p.filter)));
          if (everywhere) filterable.add(c.name);
        }
        const limits = list.map((p) => p.limit);
        const limit = limits.some((l) => l === undefined || l === null) ? undefined : Math.max(...(limits as number[]));
        return { filter, columns, filterable, limit, allowAggregations: list.some((p) => p.allowAggregations), computedFields: new Set(list.flatMap((p) => p.computedFields ?? [])) };
      }),
    insert: (t) => memo(`i:${t.key}`, () => mutation(perms(t).flatMap((p) => usable(p.insert)))),
    update: (t) => memo(`u:${t.key}`, () => mutation(perms(t).flatMap((p) => usable(p.update)))),
    delete: (t) =>
      memo(`d:${t.key}`, () => {
        const list = perms(t).flatMap((p) => usable(p.delete));
        return list.length ? { filter: anyOf(list.map((p) => p.filter)) } : undefined;
      }),
  };
}
