/** antd's Image, on its own for LazyImage.tsx to load on demand. */
export { Image as default } from "antd";
