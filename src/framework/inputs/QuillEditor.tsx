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
  return (
    <>
      <style>{fontCss}</style>
      <ReactQuill theme="snow" value={value ?? ""} onChange={(html) => onChange?.(html)} readOnly={readOnly} placeholder={placeholder} modules={modules} />
    </>
  );
}
