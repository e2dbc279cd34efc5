/** May the user start a suspension or a withdrawal (api:/actions/<kind>/create)? The server asks again. */
import { useCan } from "@refinedev/core";

export function useCanCreate(kind: "suspension" | "withdrawal"): boolean {
  return useCan({ resource: `api:/actions/${kind}/create`, action: "POST" }).data?.can === true;
}
