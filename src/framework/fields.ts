/**
 * Field declarations, one helper per kind: `name: text("Company Name", { required: true, filter: true })`.
 * The first argument is the label; options change one behaviour each.
 */
import type { EnumField, FieldOptions, MediaField, NumberField, PlainField, RelationField } from "./types.ts";

type Opts = Omit<FieldOptions, "label">;
const plain =
  (kind: PlainField["kind"]) =>
  (label?: string, options: Opts = {}): PlainField => ({ kind, label, ...options });

export const text = plain("text");
export const longText = plain("longText");
/** Quill editor with the spec's font whitelist and 90-colour palette; stored as HTML. */
export const richText = plain("richText");
/** Integer cents in TypeScript, numeric string over GraphQL; the S$ currency input. */
export const money = plain("money");
/** A calendar day, YYYY-MM-DD. */
export const date = plain("date");
/** A time of day, HH:mm:ss. */
export const time = plain("time");
/** An instant (timestamptz), shown 'HH:mm, DD/MM/YYYY' in Asia/Singapore. */
export const dateTime = plain("dateTime");
export const boolean = plain("boolean");
/** { code, number } in a jsonb column. */
export const phone = plain("phone");
export const email = plain("email");
/** A jsonb list of { name, amount } rows (amount as a numeric string). */
export const amountRows = plain("amountRows");

export const number = (label?: string, options: Omit<NumberField, "kind" | "label"> = {}): NumberField => ({ kind: "number", label, ...options });

export const enumOf = (label: string | undefined, values: EnumField["values"], options: Opts & { colours?: EnumField["colours"] } = {}): EnumField => ({
  kind: "enum",
  label,
  values,
  ...options,
});

export const relation = (
  label: string | undefined,
  target: string,
  options: Omit<RelationField, "kind" | "label" | "target"> = {},
): RelationField => ({ kind: "relation", label, target, ...options });

/** gif/jpeg/png up to 5,000,000 bytes, uploaded to our media storage; the column holds its public URL. */
export const image = (label?: string, options: Omit<MediaField, "kind" | "label"> = {}): MediaField => ({ kind: "image", label, ...options });
export const file = (label?: string, options: Omit<MediaField, "kind" | "label"> = {}): MediaField => ({ kind: "file", label, ...options });
/** Several files (curriculum files …), uploaded to our media storage; the jsonb column holds [{ name, url }]. */
export const files = (label?: string, options: Omit<MediaField, "kind" | "label"> = {}): MediaField => ({ kind: "files", label, ...options });
