/**
 * The access policy in the browser (DESIGN §6): casbin with the server's model and rules, fetched from
 * GET /api/v2/access/policy and rebuilt when its version changes. The browser's check is a convenience;
 * the server is the authority.
 */
import "./bufferShim.ts";
import { newEnforcer, newModelFromString, StringAdapter, type Enforcer } from "casbin";
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

export async function buildEnforcer(doc: PolicyDocument): Promise<Enforcer> {
  const csv = Array.isArray(doc.policy) ? doc.policy.join("\n") : doc.policy;
  return newEnforcer(newModelFromString(doc.model), new StringAdapter(csv));
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
