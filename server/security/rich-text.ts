/**
 * Rich text is sanitised when it is written (issue 10 §4): whatever a client sends — our editor, a script,
 * GraphQL or REST — only the allow-list of src/domain/richTextHtml.ts is stored, so neither the back-office
 * nor an e-mail built from it ever carries script.
 */
import sanitizeHtml from "sanitize-html";
import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_CLASS,
  RICH_TEXT_COLUMNS,
  RICH_TEXT_IMAGE,
  RICH_TEXT_LINK,
  RICH_TEXT_STYLES,
  RICH_TEXT_TAGS,
} from "../../src/domain/richTextHtml.ts";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedStyles: { "*": Object.fromEntries(Object.entries(RICH_TEXT_STYLES).map(([prop, re]) => [prop, [re]])) },
  // Schemes are decided by the two patterns below (links; images), which sanitize-html's scheme list cannot express.
  allowedSchemes: ["http", "https", "mailto", "tel", "data"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    "*": (tagName, attribs) => {
      const out = { ...attribs };
      if (out.class !== undefined) {
        const kept = out.class.split(/\s+/).filter((c) => RICH_TEXT_CLASS.test(c));
        if (kept.length) out.class = kept.join(" ");
        else delete out.class;
      }
      if (tagName === "a") {
        if (out.href !== undefined && !RICH_TEXT_LINK.test(out.href.trim())) delete out.href;
        // A link opening a new tab cannot reach back into the back-office's window.
        if (out.target !== undefined) {
          out.target = "_blank";
          out.rel = "noopener noreferrer";
        } else delete out.rel;
      }
      return { tagName, attribs: out };
    },
  },
  // An image from anywhere but our media store (or pasted data) is dropped as a whole.
  exclusiveFilter: (frame) => frame.tag === "img" && !RICH_TEXT_IMAGE.test((frame.attribs.src ?? "").trim()),
};

/** The stored form of rich text: only the allow-list survives. */
export function sanitiseRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** A rich-text value as written by a client: strings are sanitised, null and other types are left to the column's own checks. */
export function sanitiseRichTextValue<T>(value: T): T | string {
  return typeof value === "string" ? sanitiseRichText(value) : value;
}

/** The rich-text columns of a table (src/domain/richTextHtml.ts), by table name. */
export function richTextColumns(table: string): readonly string[] {
  return RICH_TEXT_COLUMNS[table] ?? [];
}
