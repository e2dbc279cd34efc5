/** Refine auth provider over the identity calls and GET /users/me (spec part 1 §4 "Session"). */
import type { AuthProvider } from "@refinedev/core";
import { fetchCurrentUser, rejectionMessage } from "../api.ts";
import { safeReturnPath, signIn, signOut } from "../auth.ts";
import { cachedCurrentUser, hasSession } from "../session.ts";
import { roleHome } from "../../domain/roleHome.ts";
import { startedSessionCheck } from "../signedInCalls.ts";

export const authProvider: AuthProvider = {
  login: async ({ username, password, to }: { username: string; password: string; to?: string }) => {
    try {
      const user = await signIn(username, password);
      return { success: true, redirectTo: safeReturnPath(to) ?? roleHome(user.roles) ?? "/" };
    } catch (err) {
      return { success: false, error: { name: "Login failed", message: rejectionMessage(err, "Sign-in failed") } };
    }
  },
  logout: async () => {
    try {
      await signOut();
      return { success: true, redirectTo: "/login" };
    } catch (err) {
      return { success: false, redirectTo: "/login", error: { name: "Log out failed", message: rejectionMessage(err, "Log out failed") } };
    }
  },
  check: async () => {
    if (!hasSession()) return { authenticated: false, redirectTo: "/login", logout: true };
    try {
      await (startedSessionCheck() ?? fetchCurrentUser());
      return { authenticated: true };
    } catch (err) {
      return { authenticated: false, redirectTo: "/login", logout: true, error: err as Error };
    }
  },
  onError: async (error: { statusCode?: number }) => {
    if (error?.statusCode === 401) return { logout: true, redirectTo: "/login" };
    return {};
  },
  getIdentity: async () => cachedCurrentUser() ?? (hasSession() ? fetchCurrentUser() : null),
  getPermissions: async () => (cachedCurrentUser() ?? (hasSession() ? await fetchCurrentUser() : undefined))?.roles ?? [],
};
