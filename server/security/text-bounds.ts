/**
 * What a length CHECK says when it refuses a value (issue 32 item 3b). The migration
 * 1763700250000_text_bounds names each check after its column and limit: "<column>_length_max_<n>"
 * (characters) or "<column>_size_max_<n>" (bytes of a jsonb value), so an error can name both without a
 * catalogue look-up, on PGlite and PostgreSQL alike.
 */
export interface TextBoundViolation {
  column: string;
  limit: number;
  unit: "characters" | "bytes";
  /** For the user: the column and its limit. */
  message: string;
}

const BOUND = /^(.+)_(length|size)_max_(\d+)$/;

export function textBoundViolation(error: unknown): TextBoundViolation | null {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  if (!e || e.code !== "23514" || typeof e.constraint !== "string") return null;
  const m = BOUND.exec(e.constraint);
  if (!m) return null;
  const limit = Number(m[3]);
  const unit = m[2] === "length" ? "characters" : "bytes";
  return { column: m[1]!, limit, unit, message: `${m[1]} is too long: at most ${limit.toLocaleString("en-US")} ${unit}.` };
}
