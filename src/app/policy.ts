/**
 * The access policy in the browser (DESIGN §6): casbin with the server's model and rules, fetched from
 * GET /api/v2/access/policy and rebuilt when its version changes. The browser's check is a convenience;
 * the server is the authority.
 */
import { newEnforcer, newModel, type Enforcer, type Model } from "casbin";
import { modelSettings, policyRules } from "../domain/policyText.ts";
import { api } from "./api.ts";

export interface PolicyDocument {
  model: string;
  policy: string | string[];
  version: string | number;
}

export interface LoadedPolicy {
  version: string;
  enforcer: Enforcer;
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

/** The model's settings and the rules go to casbin as values, not text (see src/domain/policyText.ts). */
export async function buildEnforcer(doc: PolicyDocument): Promise<Enforcer> {
  const settings = modelSettings(doc.model);
  const model = newModel();
  // casbin reads each section's keys (r, r2, …) through the config's getString and checks the required sections
  model.loadModelFromConfig({ getString: (key: string) => settings.get(key) ?? "" } as unknown as Parameters<Model["loadModelFromConfig"]>[0]);
  const { p, g } = policyRules(doc.policy);
  const enforcer = await newEnforcer(model);
  if (p.length) await enforcer.addPolicies(p);
  if (g.length) await enforcer.addGroupingPolicies(g);
  return enforcer;
}

/** Fetches the policy; rebuilds the enforcer only when the version differs from the loaded one. */
export function loadPolicy(): Promise<LoadedPolicy> {
  loading ??= (async () => {
    const res = await api<PolicyDocument>("GET", "/access/policy");
    const doc = res.data!;
    const version = String(doc.version);
    if (current && current.version === version) return current;
    current = { version, enforcer: await buildEnforcer(doc) };
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
export function allowed(enforcer: Enforcer, roles: readonly string[], obj: string, act: string): boolean {
  if (roles.includes("admin")) return true;
  return roles.some((role) => {
    try {
      return enforcer.enforceSync(role, obj, act);
    } catch {
      return false;
    }
  });
}
