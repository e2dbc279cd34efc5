/**
 * The label of an enum value (issue 19: "every enum value is shown with its label, everywhere"): the one
 * lookup for hand-written pages — the resource declarations (registry) first, then the domain's label table
 * of stored values (src/domain/enumLabels.ts, which the server's reports read too). A value neither names (a
 * log table's delivery status) reads as words, never as the stored token.
 */
import { humanize } from "./defineResource.ts";
import { findResource } from "./registry.ts";
import { storedValueLabel } from "../domain/enumLabels.ts";

export function enumLabel(table: string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  return labelledValue(table, field, value) ?? humanize(String(value));
}

/** The label of an enum value when a declaration or the label table names it, else undefined (not an enum, or unknown). */
export function labelledValue(table: string, field: string, value: unknown): string | undefined {
  const f = findResource(table)?.fieldList.find((x) => x.name === field);
  const declared = f?.kind === "enum" ? f.values[String(value)] : undefined;
  return declared ?? storedValueLabel(table, field, value);
}
