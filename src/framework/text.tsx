/** Text display helpers shared by list cells and show pages. */
import { Fragment, type ReactNode } from "react";

export const LINK_BREAK_AT = 60;
const LINK = /(https?:\/\/[^\s<>"']+|www\.[^\s<>"']+)/g;

/**
 * Splits text into plain and link parts; links longer than 60 characters are cut into 60-character
 * pieces (spec part 1 §2: "Long links inside text are broken after 60 characters").
 */
export function splitLongLinks(text: string, at = LINK_BREAK_AT): { text: string; link: boolean }[][] {
  const parts: { text: string; link: boolean }[][] = [];
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    if (m.index! > last) parts.push([{ text: text.slice(last, m.index), link: false }]);
    const link = m[0];
    const pieces: { text: string; link: boolean }[] = [];
    for (let i = 0; i < link.length; i += at) pieces.push({ text: link.slice(i, i + at), link: true });
    parts.push(pieces);
    last = m.index! + link.length;
  }
  if (last < text.length) parts.push([{ text: text.slice(last), link: false }]);
  return parts;
}

/** Text with its links clickable and long links broken after 60 characters. */
export function TextWithLinks({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined || value === "") return null;
  const text = String(value);
  return (
    <span style={{ whiteSpace: "pre-wrap" }}>
      {splitLongLinks(text).map((pieces, i) =>
        pieces[0]!.link ? (
          <a key={i} href={/^www\./.test(pieces.map((p) => p.text).join("")) ? `https://${pieces.map((p) => p.text).join("")}` : pieces.map((p) => p.text).join("")} target="_blank" rel="noreferrer">
            {pieces.map((p, j) => (
              <Fragment key={j}>
                {j > 0 && <br />}
                {p.text}
              </Fragment>
            ))}
          </a>
        ) : (
          <Fragment key={i}>{pieces[0]!.text}</Fragment>
        ),
      )}
    </span>
  );
}
