/**
 * Access-control provider: casbin in the browser on the fetched policy.
 * Objects: a route path ("/company/create", act "view"), "menu:<Label>" (act "show"), "data:<table>" or a
 * Refine resource name (acts list/show → select, create/clone → insert, edit → update, delete → delete),
 * "api:/path" (act = HTTP method).
 * `params.row`, a record the screen holds, also weighs the rules' row conditions on it (src/app/policy.ts allowedOnRow).
 */
import type { AccessControlProvider } from "@refinedev/core";
import { fetchCurrentUser } from "../api.ts";
import { allowed, allowedOnRow, ensurePolicy } from "../policy.ts";
import { cachedCurrentUser } from "../session.ts";

const DATA_ACTS: Record<string, string> = {
  list: "select",
  show: "select",
  export: "select",
  create: "insert",
  clone: "insert",
  import: "insert",
  edit: "update",
  delete: "delete",
};

export function policyRequest(resource: string | undefined, action: string): { obj: string; act: string } | undefined {
  if (!resource) return undefined;
  if (resource.startsWith("/")) return { obj: resource, act: action === "list" || action === "show" ? "view" : action };
  if (/^(menu|data|api):/.test(resource)) return { obj: resource, act: action };
  const act = DATA_ACTS[action];
  return act ? { obj: `data:${resource}`, act } : undefined;
}

export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => {
    const name = (params?.resource as { meta?: { table?: string } } | undefined)?.meta?.table ?? resource;
    const req = policyRequest(name, action);
    if (!req) return { can: true };
    const [{ enforcer }, user] = await Promise.all([ensurePolicy(), cachedCurrentUser() ?? fetchCurrentUser()]);
    const row = params?.row as Record<string, unknown> | undefined;
    const can = row ? allowedOnRow(enforcer, user.roles, req.obj, req.act, row) : allowed(enforcer, user.roles, req.obj, req.act);
    return can ? { can } : { can, reason: "You are not allowed to do this." };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true }, queryOptions: { staleTime: 30_000 } },
};
