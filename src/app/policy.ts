/**
 * The access policy in the browser (DESIGN §6): the server's model and rules, fetched from
 * GET /api/v2/access/policy and rebuilt when its version changes, answered as casbin answers them (our model
 * without casbin's engine, any other by casbin loaded then). The browser's check is a convenience; the
 * server is the authority.
 */
import { modelSettings, policyRules } from "../domain/policyText.ts";
import { api } from "./api.ts";
import { rowConditionHolds } from "../domain/rowCondition.ts";
import { rbacPolicyCheck, type PolicyCheck } from "./policyMatcher.ts";

export interface PolicyDocument {
  model: string;
  policy: string | string[];
  version: string | number;
}

export interface LoadedPolicy {
  version: string;
  enforcer: PolicyCheck;
}

let current: LoadedPolicy | undefined;
let loading: Promise<LoadedPolicy> | undefined;
const listeners = new Set<() => void>();

export function currentPolicy(): LoadedPolicy | undefined {
  return current;
}

export function onPolicyChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function buildPolicyCheck(doc: PolicyDocument): Promise<PolicyCheck> {
  const settings = modelSettings(doc.model);
  const { p, g } = policyRules(doc.policy);
  return rbacPolicyCheck(settings, p, g) ?? (await import("./casbinEnforcer.ts")).buildEnforcer(doc.model, p, g);
}

/** Fetches the policy; rebuilds the enforcer only when the version differs from the loaded one. */
export function loadPolicy(): Promise<LoadedPolicy> {
  loading ??= (async () => {
    const res = await api<PolicyDocument>("GET", "/access/policy");
    const doc = res.data!;
    const version = String(doc.version);
    if (current && current.version === version) return current;
    current = { version, enforcer: await buildPolicyCheck(doc) };
    for (const l of listeners) l();
    return current;
  })().finally(() => {
    loading = undefined;
  });
  return loading;
}

export function ensurePolicy(): Promise<LoadedPolicy> {
  return current ? Promise.resolve(current) : loadPolicy();
}

export function resetPolicy(): void {
  current = undefined;
  for (const l of listeners) l();
}

/** enforce(role, obj, act) for any of the roles; admin may do everything. */
export function allowed(enforcer: PolicyCheck, roles: readonly string[], obj: string, act: string): boolean {
  if (roles.includes("admin")) return true;
  return roles.some((role) => {
    try {
      return enforcer.enforceSync(role, obj, act);
    } catch {
      return false;
    }
  });
}

/**
 * allowed() for one row the screen holds: false only where every rule that allows the act has a row condition the
 * row itself decides against (finance_staff's settings but the ledger's account codes); anything the row cannot
 * decide stays allowed, for the server to answer.
 */
export function allowedOnRow(enforcer: PolicyCheck, roles: readonly string[], obj: string, act: string, row: Readonly<Record<string, unknown>>): boolean {
  if (!allowed(enforcer, roles, obj, act)) return false;
  if (roles.includes("admin") || !enforcer.rowConditions) return true;
  return roles.some((role) => {
    try {
      return enforcer.rowConditions!(role, obj, act).some((cond) => {
        if (!cond.trim()) return true;
        try {
          return rowConditionHolds(JSON.parse(cond), row) !== false;
        } catch {
          return true;
        }
      });
    } catch {
      return false;
    }
  });
}
