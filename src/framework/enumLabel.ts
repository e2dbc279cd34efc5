/**
 * The label of an enum value (issue 19: "every enum value is shown with its label, everywhere"): the one
 * lookup for hand-written pages, from the resource declarations (registry). A value no declaration names
 * (a log table's delivery status) reads as words, never as the stored token.
 */
import { humanize } from "./defineResource.ts";
import { findResource } from "./registry.ts";

export function enumLabel(table: string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  const f = findResource(table)?.fieldList.find((x) => x.name === field);
  const declared = f?.kind === "enum" ? f.values[String(value)] : undefined;
  return declared ?? humanize(String(value));
}
