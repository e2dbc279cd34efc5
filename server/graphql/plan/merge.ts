import type { BoolExp, SelectArgs, SelectPermissionIR } from "./ir.ts";

export function andExp(...items: (BoolExp | null | undefined)[]): BoolExp {
  const list = items.filter((x): x is BoolExp => !!x && x.kind !== "true");
  return list.length === 0 ? { kind: "true" } : list.length === 1 ? list[0] : { kind: "and", items: list };
}

/**
 * The one place where a role's select permission meets the caller's arguments:
 * the permission filter is ANDed with the caller's `where`, and the smaller limit wins
 * (the role's limit, the caller's limit, and the per-request row cap for non-admins).
 */
export function mergeSelectPermission(args: Pick<SelectArgs, "where" | "limit">, permission: SelectPermissionIR, rowCap?: number): { where: BoolExp; limit?: number } {
  const limits = [args.limit, permission.limit, rowCap].filter((l): l is number => typeof l === "number");
  return { where: andExp(permission.filter, args.where), limit: limits.length ? Math.min(...limits) : undefined };
}
