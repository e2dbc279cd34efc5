/**
 * Stands in for the Select antd's Pagination imports statically for its page-size changer (vite.config.ts,
 * browser build only): lists never show the changer (`showSizeChanger: false`), yet the import brought antd's
 * Select, rc-select and rc-virtual-list (~18 kB compressed) to every list page. Pages that show it (the log
 * history, the class picker) get antd's own Select, loaded when the changer first draws.
 */
import { Suspense, lazy, type ComponentProps } from "react";

/** antd's Select (the module every other import of it resolves to: one copy in the build). */
export const loadSelect = () => import("antd/es/select/index.js");

const RealSelect = lazy(loadSelect);

export default function PaginationSizeSelect(props: ComponentProps<typeof RealSelect>) {
  return (
    <Suspense fallback={null}>
      <RealSelect {...props} />
    </Suspense>
  );
}
