import { useRef } from "react";
import ReactQuill, { Quill } from "react-quill-new";
import "react-quill-new/dist/quill.snow.css";
import { RICH_TEXT_FONTS, RICH_TEXT_FONT_FAMILIES, RICH_TEXT_TOOLBAR } from "../richText.ts";
import type { RichTextInputProps } from "./RichTextInput.tsx";

const Font = Quill.import("formats/font") as { whitelist: string[] };
Font.whitelist = [...RICH_TEXT_FONTS];
Quill.register(Font as never, true);

const fontCss = RICH_TEXT_FONTS.map(
  (f) => `.ql-font-${f}{font-family:${RICH_TEXT_FONT_FAMILIES[f]}}` +
    `.ql-snow .ql-picker.ql-font .ql-picker-label[data-value="${f}"]::before,.ql-snow .ql-picker.ql-font .ql-picker-item[data-value="${f}"]::before{content:"${f}"}`,
).join("");

const modules = { toolbar: RICH_TEXT_TOOLBAR };

export default function QuillEditor({ value, onChange, readOnly, placeholder }: RichTextInputProps) {
  // Quill spells the HTML it is given its own way (spaces as &nbsp;) and reports that as an "api" change. That is
  // not the user's edit (an untouched PA read as changed: "leave?" asked, issue 37): only "user" changes reach the
  // form, and the given value is shown to Quill in its spelling, so it does not set the same text again.
  const given = useRef("");
  given.current = value ?? "";
  const spelled = useRef<{ given: string; html: string } | null>(null);
  const shown = spelled.current?.given === given.current ? spelled.current.html : given.current;
  const changed = (html: string, _delta: unknown, source: string) => {
    if (source === "user") onChange?.(html);
    else spelled.current = { given: given.current, html };
  };
  return (
    <>
      <style>{fontCss}</style>
      <ReactQuill theme="snow" value={shown} onChange={changed} readOnly={readOnly} placeholder={placeholder} modules={modules} />
    </>
  );
}
