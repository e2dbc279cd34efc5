import { Spin } from "antd";

/** The spinner pages show while loading (spec part 1 §2). */
export function PageSpinner() {
  return (
    <div data-testid="page-spinner" style={{ display: "flex", justifyContent: "center", alignItems: "center", minHeight: 240 }}>
      <Spin size="large" />
    </div>
  );
}
