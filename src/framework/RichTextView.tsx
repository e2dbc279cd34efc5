/**
 * The one place the browser shows stored HTML (issue 10 §4): rich text goes through DOMPurify with the
 * allow-list the server applies on write (src/domain/richTextHtml.ts), so content stored before that check
 * existed, or written around it, is still shown inert.
 */
import DOMPurify from "dompurify";
import type { CSSProperties } from "react";
import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_CLASS,
  RICH_TEXT_IMAGE,
  RICH_TEXT_LINK,
  RICH_TEXT_STYLES,
  RICH_TEXT_TAGS,
} from "../domain/richTextHtml.ts";

let purifier: ReturnType<typeof DOMPurify> | undefined;

function configured(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  // An instance of our own, so its hooks never touch another user of DOMPurify.
  const p = DOMPurify(window);
  p.addHook("afterSanitizeAttributes", (node) => {
    const el = node as Element;
    if (el.hasAttribute?.("class")) {
      const kept = (el.getAttribute("class") ?? "").split(/\s+/).filter((c) => RICH_TEXT_CLASS.test(c));
      if (kept.length) el.setAttribute("class", kept.join(" "));
      else el.removeAttribute("class");
    }
    if (el.hasAttribute?.("style")) {
      const style = (el as HTMLElement).style;
      const kept: string[] = [];
      for (let i = 0; i < style.length; i++) {
        const prop = style[i];
        const value = style.getPropertyValue(prop).trim();
        if (RICH_TEXT_STYLES[prop]?.test(value)) kept.push(`${prop}: ${value}`);
      }
      if (kept.length) el.setAttribute("style", kept.join("; "));
      else el.removeAttribute("style");
    }
    if (el.tagName === "A") {
      const href = el.getAttribute("href");
      if (href !== null && !RICH_TEXT_LINK.test(href.trim())) el.removeAttribute("href");
      if (el.hasAttribute("target")) {
        el.setAttribute("target", "_blank");
        el.setAttribute("rel", "noopener noreferrer");
      }
    }
    if (el.tagName === "IMG" && !RICH_TEXT_IMAGE.test((el.getAttribute("src") ?? "").trim())) el.remove();
  });
  purifier = p;
  return p;
}

/**
 * Event-handler attributes cut from the text before it is parsed. DOMPurify removes them anyway and nothing
 * runs, but Chrome reports a CSP violation as soon as its parser meets one, which would drown real reports.
 */
const EVENT_HANDLER = /(<[a-z][^>]*?)[\s/]+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;
function withoutEventHandlers(html: string): string {
  let previous;
  do {
    previous = html;
    html = html.replace(EVENT_HANDLER, "$1");
  } while (html !== previous);
  return html;
}

/** Stored rich text reduced to the allow-list, as an HTML string. */
export function safeRichText(html: string): string {
  return configured().sanitize(withoutEventHandlers(html), {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR: [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())],
    ALLOW_DATA_ATTR: false,
  });
}

/** Rich text as Quill shows it (`ql-editor` keeps the editor's fonts, alignment and lists). */
export function RichTextView({ html, style }: { html: unknown; style?: CSSProperties }) {
  if (html === null || html === undefined || html === "") return null;
  return <div className="ql-editor" style={{ padding: 0, ...style }} dangerouslySetInnerHTML={{ __html: safeRichText(String(html)) /* DOMPurify-sanitised */ }} />;
}
