import { readFile } from "node:fs/promises";
import path from "node:path";
import { newEnforcer, newModelFromString, type Enforcer } from "casbin";
import type { ServerContext } from "../../context.ts";
import type { Db, Queryable } from "../../db/index.ts";
import type { GeneratedPermissions } from "../types.ts";
import { generateHasuraPermissions, type TableInfo } from "./hasura.ts";
import { KNOWN_ROLES, PolicyError, parsePolicy, roleWithGroups, rulesToCsv, type Rule } from "./rules.ts";

export { PolicyError, parsePolicy, rulesToCsv, KNOWN_ROLES, STAFF_ROLES, ANONYMOUS, type Rule } from "./rules.ts";

export const accessDir = path.resolve(import.meta.dirname, "../../../access");
/** NOTIFY channel telling other server instances that the policy changed. */
export const POLICY_CHANNEL = "access_policy_changed";
/** Other instances' changes are noticed through LISTEN/NOTIFY, and at worst by this periodic version check. */
const VERSION_CHECK_MS = 2_000;

export interface PolicySnapshot {
  model: string;
  /** The rules as casbin CSV lines. */
  policy: string;
  /** Number of changes made through the API since the seed (policy_changes rows). */
  version: number;
}

export interface PolicyService {
  /** True when any of the roles may do act on obj (route path, menu:<entry>, data:<table>, api:<path>). */
  enforce(roles: string[], obj: string, act: string): Promise<boolean>;
  hasuraPermissions(): GeneratedPermissions;
  onChange(listener: () => void): void;
  close(): Promise<void>;
  /** The model text, the live rules and their version. */
  snapshot(): Promise<PolicySnapshot>;
  /** Validates and replaces the live rules (one transaction), records the change, rebuilds, notifies. Throws PolicyError. */
  replace(policyText: string, changedBy: string | undefined): Promise<PolicySnapshot>;
  /** Re-reads the rules from the database when another instance changed them. */
  refresh(force?: boolean): Promise<void>;
  /** Sets the data check `replace` runs on the permissions a new policy generates (the GraphQL engine's); it throws to refuse. */
  checkPermissionsWith(check: (permissions: GeneratedPermissions) => void): void;
}

const BACKEND_TABLES = new Set([
  "casbin_rule", "policy_changes", "user_credentials", "refresh_tokens", "password_reset_codes",
  "signing_keys", "outbox", "media_objects", "document_counters",
]);

async function readTableInfo(db: Queryable): Promise<Required<TableInfo>> {
  const { rows } = await db.query<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`,
  );
  const columns = new Map<string, Set<string>>();
  for (const r of rows) {
    if (BACKEND_TABLES.has(r.table_name)) continue;
    const set = columns.get(r.table_name) ?? new Set<string>();
    set.add(r.column_name);
    columns.set(r.table_name, set);
  }
  return { tables: new Set(columns.keys()), columns };
}

async function readRules(db: Queryable): Promise<Rule[]> {
  const { rows } = await db.query<{ ptype: string; v0: string | null; v1: string | null; v2: string | null; v3: string | null; v4: string | null; v5: string | null }>(
    `select ptype, v0, v1, v2, v3, v4, v5 from casbin_rule order by id`,
  );
  return rows.map((r) => {
    const values = [r.v0, r.v1, r.v2, r.v3, r.v4, r.v5];
    while (values.length && (values[values.length - 1] === null || values[values.length - 1] === "")) values.pop();
    return { ptype: r.ptype as Rule["ptype"], values: values.map((v) => v ?? "") };
  });
}

async function writeRules(tx: Queryable, rules: readonly Rule[]): Promise<void> {
  await tx.query(`delete from casbin_rule`);
  const chunk = 200;
  for (let i = 0; i < rules.length; i += chunk) {
    const part = rules.slice(i, i + chunk);
    const params: unknown[] = [];
    const tuples = part.map((r) => {
      const base = params.length;
      params.push(r.ptype, ...Array.from({ length: 6 }, (_, k) => r.values[k] ?? null));
      return `(${Array.from({ length: 7 }, (_, k) => `$${base + k + 1}`).join(", ")})`;
    });
    await tx.query(`insert into casbin_rule (ptype, v0, v1, v2, v3, v4, v5) values ${tuples.join(", ")}`, params);
  }
}

async function readVersion(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from policy_changes`);
  return rows[0].n;
}

export async function buildEnforcer(modelText: string, rules: readonly Rule[]): Promise<Enforcer> {
  const enforcer = await newEnforcer(newModelFromString(modelText));
  const p = rules.filter((r) => r.ptype === "p").map((r) => r.values.slice(0, 4));
  const g = rules.filter((r) => r.ptype === "g").map((r) => r.values.slice(0, 2));
  if (p.length) await enforcer.addPolicies(p);
  if (g.length) await enforcer.addGroupingPolicies(g);
  return enforcer;
}

/**
 * The live enforcer: one casbin enforcer per role holding only the rules that can apply to it (its own
 * and its groups', with the group resolved — what the model's g() does), so a check scans tens of rules,
 * not a thousand; answers are memoised until the rules change (REST checks use route patterns, a small set).
 */
export class PolicyEnforcer {
  private readonly memo = new Map<string, boolean>();
  private constructor(private readonly byRole: Map<string, Enforcer>, private readonly fallback: Enforcer) {}

  static async build(modelText: string, rules: readonly Rule[]): Promise<PolicyEnforcer> {
    const subjects = new Set<string>([...KNOWN_ROLES]);
    for (const r of rules) subjects.add(r.values[0]);
    const byRole = new Map<string, Enforcer>();
    for (const role of subjects) {
      const groups = new Set(roleWithGroups(role, rules));
      const own: Rule[] = rules
        .filter((r) => r.ptype === "p" && groups.has(r.values[0]))
        .map((r) => ({ ptype: "p", values: [role, ...r.values.slice(1)] }));
      byRole.set(role, await buildEnforcer(modelText, own));
    }
    return new PolicyEnforcer(byRole, await buildEnforcer(modelText, []));
  }

  async enforce(role: string, obj: string, act: string): Promise<boolean> {
    const key = `${role}\u0000${obj}\u0000${act}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const answer = await (this.byRole.get(role) ?? this.fallback).enforce(role, obj, act);
    if (this.memo.size > 50_000) this.memo.clear();
    this.memo.set(key, answer);
    return answer;
  }
}

async function enforceAny(enforcer: PolicyEnforcer, roles: readonly string[], obj: string, act: string): Promise<boolean> {
  for (const role of roles) {
    if (await enforcer.enforce(role, obj, act)) return true;
  }
  return false;
}

/** Seeds casbin_rule from access/policy.csv when it is empty (first start), under a table lock so two instances cannot both seed. */
async function seedIfEmpty(db: Db, policyText: string): Promise<void> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from casbin_rule`);
  if (rows[0].n > 0) return;
  const rules = parsePolicy(policyText);
  await db.transaction(async (tx) => {
    await tx.query(`lock table casbin_rule in exclusive mode`);
    const again = await tx.query<{ n: number }>(`select count(*)::int as n from casbin_rule`);
    if (again.rows[0].n > 0) return;
    await writeRules(tx, rules);
  });
}

export async function createPolicy(ctx: ServerContext, options: { dir?: string } = {}): Promise<PolicyService> {
  const { db } = ctx;
  const dir = options.dir ?? accessDir;
  const modelText = await readFile(path.join(dir, "model.conf"), "utf8");
  await seedIfEmpty(db, await readFile(path.join(dir, "policy.csv"), "utf8"));

  let info = await readTableInfo(db);
  let rules: Rule[] = [];
  let enforcer: PolicyEnforcer;
  let permissions: GeneratedPermissions = {};
  let version = -1;
  let checkedAt = 0;
  let reloading: Promise<void> | undefined;
  const listeners: (() => void)[] = [];
  let checkPermissions: (permissions: GeneratedPermissions) => void = () => undefined;

  async function rebuild(next: Rule[], nextVersion: number) {
    const nextEnforcer = await PolicyEnforcer.build(modelText, next);
    rules = next;
    enforcer = nextEnforcer;
    version = nextVersion;
    permissions = generateHasuraPermissions(rules, KNOWN_ROLES, info);
    for (const listener of listeners) {
      try {
        listener();
      } catch (e) {
        console.error("access policy listener failed", e);
      }
    }
  }

  async function reload() {
    const nextVersion = await readVersion(db);
    if (nextVersion === version) return;
    info = await readTableInfo(db);
    await rebuild(await readRules(db), nextVersion);
  }

  await reload();
  let closed = false;
  const unlisten = await db.listen(POLICY_CHANNEL, () => {
    if (closed) return;
    // A notification has no caller to report to: a failed reload is logged and retried by the version check.
    reloading ??= reload()
      .catch((e) => console.error("access policy reload failed", e))
      .finally(() => (reloading = undefined));
  });

  const service: PolicyService = {
    async enforce(roles, obj, act) {
      await service.refresh();
      return enforceAny(enforcer, roles, obj, act);
    },
    hasuraPermissions: () => permissions,
    onChange(listener) {
      listeners.push(listener);
    },
    checkPermissionsWith(check) {
      checkPermissions = check;
    },
    async close() {
      closed = true;
      await unlisten();
      await reloading;
    },
    async snapshot() {
      await service.refresh();
      return { model: modelText, policy: rulesToCsv(rules), version };
    },
    async refresh(force = false) {
      if (reloading) return reloading;
      if (closed || (!force && Date.now() - checkedAt < VERSION_CHECK_MS)) return;
      checkedAt = Date.now();
      reloading = reload().finally(() => (reloading = undefined));
      return reloading;
    },
    async replace(policyText, changedBy) {
      info = await readTableInfo(db);
      const next = parsePolicy(policyText, { dataTables: info.tables });
      if (next.length === 0) throw new PolicyError("The policy is empty.");
      try {
        checkPermissions(generateHasuraPermissions(next, KNOWN_ROLES, info));
      } catch (e) {
        throw new PolicyError(`A row filter does not fit the data: ${(e as Error).message}`);
      }
      const candidate = await buildEnforcer(modelText, next);
      // Admin must keep the Roles screen and this call (the model allows admin everything; checked anyway).
      if (!(await candidate.enforce("admin", "api:/access/policy", "PUT")) || !(await candidate.enforce("admin", "/roles", "view"))) {
        throw new PolicyError("This policy would lock the administrator out; it was not saved.");
      }
      const after = rulesToCsv(next);
      const nextVersion = await db.transaction(async (tx) => {
        await tx.query(`lock table casbin_rule in exclusive mode`);
        const before = rulesToCsv(await readRules(tx));
        await writeRules(tx, next);
        await tx.query(`insert into policy_changes ("changedBy", before, after) values ($1, $2, $3)`, [changedBy ?? null, before, after]);
        const v = await readVersion(tx);
        await tx.query(`select pg_notify($1, $2)`, [POLICY_CHANNEL, String(v)]);
        return v;
      });
      checkedAt = Date.now();
      await rebuild(next, nextVersion);
      return { model: modelText, policy: after, version: nextVersion };
    },
  };
  return service;
}
