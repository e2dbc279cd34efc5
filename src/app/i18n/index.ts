import type { I18nProvider } from "@refinedev/core";
import { en } from "./en.ts";

const dictionaries: Record<string, Record<string, string>> = { en };
let locale = "en";

/** Replaces `{{name}}` and `{name}` placeholders with options[name]. */
export function interpolate(text: string, options?: Record<string, unknown>): string {
  if (!options) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g, (whole, a: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    return name in options && options[name] !== undefined ? String(options[name]) : whole;
  });
}

/** Translates a key; unknown keys fall back to the given default, then to the key itself. */
export function t(key: string, options?: Record<string, unknown>, defaultMessage?: string): string {
  const text = dictionaries[locale]?.[key] ?? defaultMessage ?? key;
  return interpolate(text, options);
}

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) =>
    t(key, typeof options === "object" && options !== null ? (options as Record<string, unknown>) : undefined, typeof options === "string" ? options : defaultMessage),
  changeLocale: (l: string) => {
    locale = dictionaries[l] ? l : "en";
  },
  getLocale: () => locale,
};
