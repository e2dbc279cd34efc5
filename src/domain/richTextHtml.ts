/**
 * What rich text (the Quill editor's HTML, spec part 1 §9) may contain, and where it is stored (issue 10 §4).
 * One allow-list, applied by the server when rich text is written (sanitize-html) and by the browser when it
 * is shown (DOMPurify). Anything else — scripts, event handlers, frames, forms, styles other than colours,
 * `javascript:` links, images from elsewhere — is removed.
 */

/** The editor's font whitelist (the `ql-font-*` classes). */
export const RICH_TEXT_FONTS = [
  "arial",
  "verdana",
  "tahoma",
  "timesnewroman",
  "georgia",
  "couriernew",
  "comicsansms",
  "trebuchetms",
  "impact",
  "helvetica",
  "variablefont",
] as const;

/** The elements Quill writes (and `ul`, `div`, `span` from older content). */
export const RICH_TEXT_TAGS = [
  "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "u", "s", "strike", "sub", "sup",
  "span", "div", "a", "img", "ol", "ul", "li", "blockquote", "pre", "code",
] as const;

/** Attributes per element ("*": every element). */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  "*": ["class", "style"],
  a: ["href", "target", "rel"],
  img: ["src", "alt", "width", "height"],
  li: ["data-list"],
  pre: ["spellcheck"],
};

/** The classes Quill's formats use: fonts of the whitelist, alignment, indents, sizes, direction, code blocks. */
export const RICH_TEXT_CLASS = new RegExp(
  `^ql-(font-(${RICH_TEXT_FONTS.join("|")})|align-(center|right|justify)|indent-[1-8]|size-(small|large|huge)|direction-rtl|syntax|ui)$`,
);

/** The inline styles Quill writes: text and background colours only (hex, rgb or rgba). */
export const RICH_TEXT_STYLES: Readonly<Record<string, RegExp>> = {
  color: /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\))$/i,
  "background-color": /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\))$/i,
  "text-align": /^(left|right|center|justify)$/,
};

/** Link targets: web pages, e-mail and phone links, and paths of this app. */
export const RICH_TEXT_LINK = /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;

/**
 * Image sources: our media store (GET /media/public on this server) and images pasted into the editor
 * (Quill embeds them as base64 data of a raster type; SVG can carry script and is not one of them).
 */
export const RICH_TEXT_IMAGE = /^(\/media\/public\?|data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$)/i;

/**
 * The columns that hold rich text, per table: every writer (REST, GraphQL insert/update) sanitises them.
 * A test checks that every `richText` field of resources/*.ts is listed here.
 */
export const RICH_TEXT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  broadcasts: ["content"],
  news: ["message"],
  posts: ["content"],
  resource_posts: ["content"],
  surveys: ["content"],
  companies: ["paNotes"],
  /** The PA's notes (spec part 2: "notes (rich text)"); its remarks are plain text, shown as text everywhere. */
  payment_advices: ["notes"],
};
