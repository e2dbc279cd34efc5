/**
 * A list cell (issue 19): codes, names and dates never wrap mid-word; a long value stops at an ellipsis
 * and shows in full on hover. Rich values (tags, links, images, checkboxes) render as the kind says.
 */
import type { BaseRecord } from "@refinedev/core";
import { KINDS, renderValue } from "../kinds.tsx";
import type { ResolvedField } from "../types.ts";

/** The widest a text cell grows before its ellipsis. */
export const CELL_MAX_WIDTH = 320;
const ONE_LINE = new Set(["text", "email", "longText", "richText", "number", "money", "date", "time", "dateTime", "relation", "phone"]);

export function CellText({ field, value, labels, record }: { field: ResolvedField; value: unknown; labels?: ReadonlyMap<string, string>; record?: BaseRecord }) {
  const text = ONE_LINE.has(field.kind) ? KINDS[field.kind].toText(value, field, labels, record) : "";
  // Links keep their own rendering (long ones broken after 60 characters, spec part 1 §2).
  if (!ONE_LINE.has(field.kind) || /https?:\/\//i.test(text)) return <>{renderValue(field, value, labels, record)}</>;
  if (text === "") return null;
  const rich = field.kind === "email" ? renderValue(field, value, labels, record) : text;
  return (
    <span title={text} style={{ display: "inline-block", maxWidth: CELL_MAX_WIDTH, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", verticalAlign: "bottom" }}>
      {rich}
    </span>
  );
}
