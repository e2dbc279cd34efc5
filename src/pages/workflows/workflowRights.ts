/**
 * The caller's workflow rights, asked of the access policy like every action right
 * (api:/actions/<document>/<right>, POST): what the pages show. The server asks again on every call.
 */
import { useCan } from "@refinedev/core";

export function useGrantedRights<R extends string>(document: "credit-note" | "refund", rights: readonly R[]): ReadonlySet<R> {
  const granted = new Set<R>();
  // `rights` is one of the domain's constant lists: the same hooks run on every render.
  for (const right of rights) {
    // eslint-disable-next-line react-hooks/rules-of-hooks
    if (useCan({ resource: `api:/actions/${document}/${right}`, action: "POST" }).data?.can === true) granted.add(right);
  }
  return granted;
}

export function useCanCreate(kind: "suspension" | "withdrawal"): boolean {
  return useCan({ resource: `api:/actions/${kind}/create`, action: "POST" }).data?.can === true;
}
