/** React access to the loaded policy and the signed-in user's roles. */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useGetIdentity } from "@refinedev/core";
import { config } from "./config.ts";
import { allowed, currentPolicy, ensurePolicy, loadPolicy, onPolicyChange, type LoadedPolicy } from "./policy.ts";
import type { CurrentUser } from "./session.ts";
import { menuForRoles, type MenuGroup } from "../domain/menu.ts";

export function usePolicy(): LoadedPolicy | undefined {
  return useSyncExternalStore(onPolicyChange, currentPolicy);
}

/**
 * Loads the policy unless the shell already did (startSignedInCalls fetched it while the app's code downloaded:
 * a second fetch on mount was a wasted call of every cold load), then re-reads its version every policyPollMs
 * and when the window regains focus.
 */
export function usePolicyRefresh(): void {
  useEffect(() => {
    const failed = (err: unknown) => console.error("[policy] could not load the access policy", err);
    const refresh = () => {
      loadPolicy().catch(failed);
    };
    ensurePolicy().catch(failed);
    const timer = setInterval(refresh, config.policyPollMs);
    window.addEventListener("focus", refresh);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", refresh);
    };
  }, []);
}

export function useCurrentUser(): { user: CurrentUser | undefined; isLoading: boolean } {
  const { data, isLoading } = useGetIdentity<CurrentUser>();
  return { user: data ?? undefined, isLoading };
}

export interface Access {
  ready: boolean;
  user?: CurrentUser;
  canView: (path: string) => boolean;
  menu: MenuGroup[];
}

export function useAccess(): Access {
  const policy = usePolicy();
  const { user } = useCurrentUser();
  return useMemo(() => {
    if (!policy || !user) return { ready: false, user, canView: () => false, menu: [] };
    const canView = (path: string) => allowed(policy.enforcer, user.roles, path, "view");
    const menu = menuForRoles(user.roles, (role, path) => allowed(policy.enforcer, [role], path, "view"));
    return { ready: true, user, canView, menu };
  }, [policy, user]);
}
