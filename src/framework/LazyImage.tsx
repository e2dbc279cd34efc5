/**
 * antd's Image (with its preview) in its own chunk: a list shows it only for rows that have a picture, and the
 * picture itself loads after the page anyway. Until the code arrives the cell keeps the image's width.
 */
import { Suspense, lazy } from "react";
import type { ImageProps } from "antd";

const Image = lazy(() => import("./ImageView.tsx"));

export function LazyImage(props: ImageProps & { width: number }) {
  return (
    <Suspense fallback={<span style={{ display: "inline-block", width: props.width }} />}>
      <Image {...props} />
    </Suspense>
  );
}
