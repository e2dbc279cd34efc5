/**
 * Permission filters and checks are compiled when a request first uses them; this compiles every one of a
 * model up front, so metadata (or an access policy's row filter) naming a column or relationship that does
 * not exist is refused when it is written, as Hasura refuses inconsistent metadata, instead of failing
 * users' requests later.
 */
import type { Model } from "../metadata/model.ts";
import { MetadataError, type BoolExpJson } from "../metadata/types.ts";
import { RequestError } from "../errors.ts";
import { parseBoolExp } from "./boolexp.ts";

export function checkPermissionFilters(model: Model): void {
  for (const table of model.tables.values()) {
    for (const [role, p] of table.permissions) {
      const expressions: [string, BoolExpJson | undefined][] = [
        ["select_permissions.filter", p.select?.filter],
        ["insert_permissions.check", p.insert?.check],
        ["update_permissions.filter", p.update?.filter],
        ["update_permissions.check", p.update?.check],
        ["delete_permissions.filter", p.delete?.filter],
        ...(p.select?.rules ?? []).map((r) => ["select_permissions.rules.filter", r.filter] as [string, BoolExpJson]),
        ...(p.insert?.rules ?? []).map((r) => ["insert_permissions.rules.check", r.check] as [string, BoolExpJson]),
        ...(p.update?.rules ?? []).flatMap((r) => [["update_permissions.rules.filter", r.filter], ["update_permissions.rules.check", r.check]] as [string, BoolExpJson][]),
      ];
      for (const [where, json] of expressions) {
        if (json === undefined) continue;
        const path = `${table.name}.${where} (role "${role}")`;
        try {
          parseBoolExp({ model, path }, table, json);
        } catch (e) {
          if (!(e instanceof RequestError)) throw e;
          throw new MetadataError("validation-failed", `${path}: ${e.message}`, path);
        }
      }
    }
  }
}
