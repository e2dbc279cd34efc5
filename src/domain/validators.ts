/**
 * The shared validation rules of spec part 1 §5. Each rule answers null when the value passes and
 * the spec's message (its i18n key) when it does not. Empty values pass: "required" is its own rule.
 * The browser forms and the server use these same functions.
 */
import type { Dayjs } from "dayjs";

export type ValidationMessage = string;
export type Validator = (value: unknown) => ValidationMessage | null;

export const MESSAGES = {
  username: "Not allow space for username",
  nameLike: "Space and Special characters not allowed",
  numericOnly: "invalid_number",
  minLength: (n: number) => `At_least_${n}_characters`,
  imageTooLarge: "The image size exceeds the allowable limit.",
  uploadFailed: "Upload failed!",
  phoneNumber: "Please enter a valid phone number!",
} as const;

/** A record id (uuid, any case): the one pattern the server checks ids in paths, bodies and tokens with. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isEmpty = (value: unknown) => value === null || value === undefined || value === "";

/** Username: no spaces, newline, tab, #, $, & or :. */
export const username: Validator = (value) => {
  if (isEmpty(value)) return null;
  return /[\s#$&:]/.test(String(value)) ? MESSAGES.username : null;
};

/**
 * Name-like: letters and digits (any script) only; words may be separated by one hyphen, space or
 * apostrophe. "Mary-Ann O'Neil 2" passes; "  x", "a--b", "a_b", "a!" do not.
 */
export const nameLike: Validator = (value) => {
  if (isEmpty(value)) return null;
  return /^[\p{L}\p{M}\p{N}]+(?:[- '][\p{L}\p{M}\p{N}]+)*$/u.test(String(value)) ? null : MESSAGES.nameLike;
};

/** Numeric-only: digits 0–9 only. The message is configurable. */
export function numericOnly(message: ValidationMessage = MESSAGES.numericOnly): Validator {
  return (value) => {
    if (isEmpty(value)) return null;
    return /^[0-9]+$/.test(String(value)) ? null : message;
  };
}

/** At least n characters (counted as Unicode code points). The message is configurable. */
export function minLength(n: number, message: ValidationMessage = MESSAGES.minLength(n)): Validator {
  return (value) => {
    if (isEmpty(value)) return null;
    return [...String(value)].length >= n ? null : message;
  };
}

/** A phone number written as text: an optional +, digits with spaces, hyphens or brackets, 6 to 15 digits. */
export const phoneNumber: Validator = (value) => {
  if (isEmpty(value)) return null;
  const text = String(value).trim();
  const digits = text.replace(/\D/g, "").length;
  return /^\+?[\d\s()-]+$/.test(text) && digits >= 6 && digits <= 15 ? null : MESSAGES.phoneNumber;
};

/** Runs rules in order; the first failing message wins. */
export function firstError(value: unknown, rules: readonly Validator[]): ValidationMessage | null {
  for (const rule of rules) {
    const message = rule(value);
    if (message) return message;
  }
  return null;
}

/** Image upload rules (avatar, logo): gif, jpeg or png, at most 5,000,000 bytes. */
export const IMAGE_MAX_BYTES = 5_000_000;
export const IMAGE_TYPES = ["image/gif", "image/jpeg", "image/png"] as const;
export const IMAGE_EXTENSIONS = ["gif", "jpg", "jpeg", "png"] as const;

export function imageFile(file: { size: number; type?: string; name?: string }): ValidationMessage | null {
  if (file.size > IMAGE_MAX_BYTES) return MESSAGES.imageTooLarge;
  return null;
}

/** True when the file is one of the accepted image types (by MIME type, else by extension). */
export function isAcceptedImage(file: { type?: string; name?: string }): boolean {
  if (file.type) return (IMAGE_TYPES as readonly string[]).includes(file.type);
  const ext = file.name?.split(".").pop()?.toLowerCase() ?? "";
  return (IMAGE_EXTENSIONS as readonly string[]).includes(ext);
}

/**
 * A period's later date (an end date) may not fall on a calendar day before its earlier one — or, for
 * date-times (`"minute"`), at a moment before it; a missing date passes. The database checks the same.
 */
export function endsBeforeStart(end: Dayjs | null | undefined, start: Dayjs | null | undefined, precision: "day" | "minute" = "day"): boolean {
  return Boolean(end && start && end.isBefore(start, precision));
}

/** "The end date cannot be before the start date." for the labels of the two dates. */
export const notBeforeMessage = (laterLabel: string, earlierLabel: string): ValidationMessage =>
  `The ${laterLabel.toLowerCase()} cannot be before the ${earlierLabel.toLowerCase()}.`;
