/** Quill (react-quill-new) with the spec's font whitelist and 90-colour palette; loaded on demand. */
import { Suspense, lazy } from "react";
import { Skeleton } from "antd";

const Editor = lazy(() => import("./QuillEditor.tsx"));

export interface RichTextInputProps {
  value?: string | null;
  onChange?: (html: string) => void;
  readOnly?: boolean;
  placeholder?: string;
}

export function RichTextInput(props: RichTextInputProps) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
      <Editor {...props} />
    </Suspense>
  );
}
