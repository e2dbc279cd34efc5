// PLACEHOLDER until the access-policy work lands: replace wholesale, keep the exported signature.
import type { ServerContext } from "../../app.ts";
import type { GeneratedPermissions } from "../types.ts";

export interface PolicyService {
  /** True when any of the roles may do act on obj (route path, table:action, api path). */
  enforce(roles: string[], obj: string, act: string): Promise<boolean>;
  hasuraPermissions(): GeneratedPermissions;
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

export async function createPolicy(_ctx: ServerContext): Promise<PolicyService> {
  return { enforce: async () => false, hasuraPermissions: () => ({}), onChange: () => undefined, close: async () => undefined };
}
