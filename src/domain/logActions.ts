/**
 * The action texts of the log history pages (spec part 2 §2) for payment advices and credit notes,
 * from a log row's type: 'Update Content', 'Create New PA {name}', 'Change Status from X to Y',
 * 'Duplicate from PA {name}'; and how the user and the time are shown.
 */
import { formatInSingapore, type DateInput } from "./dates.ts";

export type LogType = "create" | "update" | "change_status" | "duplicate";

export interface LogActionInput {
  type: LogType | string;
  /** "PA", "CN" or "RF". */
  document: "PA" | "CN" | "RF";
  /** The document's name (number), or what it shows before it has one ("Draft"). */
  name: string;
  /** Status labels before and after a change_status row. */
  statusBefore?: string;
  statusAfter?: string;
  /** The copied document's name, for a duplicate row. */
  sourceName?: string;
}

export function logActionText(l: LogActionInput): string {
  switch (l.type) {
    case "create":
      return `Create New ${l.document} ${l.name}`;
    case "change_status":
      return `Change Status from ${l.statusBefore ?? "--"} to ${l.statusAfter ?? "--"}`;
    case "duplicate":
      return `Duplicate from ${l.document} ${l.sourceName ?? l.name}`;
    default:
      return "Update Content";
  }
}

/** The role names of the log's user, or -- when none. */
export function logRolesText(roleLabels: readonly string[]): string {
  return roleLabels.length > 0 ? roleLabels.join(", ") : "--";
}

/** The time of a log row, hh:mm A (Singapore). */
export const logTime = (at: DateInput | null | undefined) => formatInSingapore(at, "hh:mm A");
/** The day of a log row, DD/MM/YYYY (Singapore). */
export const logDate = (at: DateInput | null | undefined) => formatInSingapore(at, "DD/MM/YYYY");
