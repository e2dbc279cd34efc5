/** Moved to src/domain/roleLabels.ts (pages use it too); kept so existing imports still resolve. */
export { ROLE_LABELS, roleLabel, lastRoleLabel } from "../domain/roleLabels.ts";
