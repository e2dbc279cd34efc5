/**
 * The one way an e-mail body is written (issue 32 §4). `html` is a tagged template that escapes every
 * interpolated value, so a name, a class name or a footer arrives as text, never as markup; only a value
 * marked safe gets through as HTML: a nested `html` template, or stored rich text through `richText`, which
 * passes the rich-text allow-list again. `mailBody` turns the result into what the outbox sends: the HTML and
 * its plain-text alternative. A plain-text mail is written with `textMail` (same escaping, newlines kept).
 */
import sanitizeHtml from "sanitize-html";
import { sanitiseRichText } from "../security/rich-text.ts";

/** Markup known to be safe. Only this module makes one (an object of the same shape from elsewhere is escaped). */
export interface SafeHtml {
  readonly html: string;
}

const issued = new WeakSet<object>();
function safe(markup: string): SafeHtml {
  const value = Object.freeze({ html: markup });
  issued.add(value);
  return value;
}
const isSafe = (value: unknown): value is SafeHtml => typeof value === "object" && value !== null && issued.has(value);

/** What an e-mail carries: its HTML and the plain-text alternative of the same words. */
export interface MailBody {
  html: string;
  text: string;
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML text: the five characters that could open markup or leave an attribute are escaped. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** One interpolated value: safe markup as it is, a list item by item, null/undefined as nothing, anything else escaped. */
function interpolate(value: unknown): string {
  if (isSafe(value)) return value.html;
  if (Array.isArray(value)) return value.map(interpolate).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** An HTML template: the literal parts are the author's markup, every `${value}` is escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return safe(strings.reduce((out, part, i) => out + part + (i < values.length ? interpolate(values[i]) : ""), ""));
}

/** Stored rich text (broadcasts, news) as markup: reduced to the rich-text allow-list again, so nothing else can pass. */
export function richText(stored: string | null | undefined): SafeHtml {
  return safe(stored ? sanitiseRichText(stored) : "");
}

const BLOCK_END = /<\/(p|div|li|h[1-6]|blockquote|pre|tr)>|<br\s*\/?>/gi;
const DECODE: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };

/** A link in safe markup (attributes as sanitize-html or html`…` write them: double-quoted). */
const LINK = /<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi;

/** The plain-text alternative of safe markup: a line per block, a link's address after its words, no tags. */
function textOf(markup: string): string {
  const withBreaks = markup.replace(LINK, (_, href: string, label: string) => `${label} (${href})`).replace(BLOCK_END, (m) => `${m}\n`);
  return sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (e) => DECODE[e]!)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** What the outbox sends for a template: its HTML and the plain-text alternative. */
export function mailBody(content: SafeHtml): MailBody {
  return { html: content.html, text: textOf(content.html) };
}

/**
 * A plain-text mail (password codes, temporary passwords): the text as written, and as HTML the same text
 * escaped, line breaks kept. Converting `body: \`…\`` to `body: textMail\`…\`` is the whole change.
 */
export function textMail(strings: TemplateStringsArray, ...values: unknown[]): MailBody {
  const text = strings.reduce((out, part, i) => out + part + (i < values.length ? String(values[i] ?? "") : ""), "");
  return { html: `<div>${escapeHtml(text).replace(/\r?\n/g, "<br>")}</div>`, text };
}
