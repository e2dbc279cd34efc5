/**
 * The signed-in frame drawn before the app's code and the user are in (issue 33): the menu's column, the header's
 * band, the loading spinner (spec part 1 §2) and the footer, where AppLayout draws them, in plain elements (no antd:
 * the shell draws it while antd downloads). The layout then replaces it without moving anything.
 */
export const MENU_WIDTH = 210;
export const HEADER_HEIGHT = 60;

export function copyrightLine(year = new Date().getFullYear()): string {
  return `Copyright © ${year} Centre Back-office. All rights reserved.`;
}

export function LayoutSkeleton() {
  return (
    <div style={{ display: "flex", minHeight: "100vh", background: "#f5f5f5" }}>
      <div style={{ width: MENU_WIDTH, flex: "none", height: "100vh", position: "sticky", top: 0, background: "#001529" }} />
      <div style={{ flex: "auto", display: "flex", flexDirection: "column", minWidth: 0 }}>
        <div style={{ height: HEADER_HEIGHT, background: "#fff", borderBottom: "1px solid #f0f0f0", boxSizing: "border-box" }} />
        <div data-testid="page-spinner" style={{ flex: "auto", margin: 24, display: "flex", justifyContent: "center", alignItems: "center", minHeight: 240 }}>
          <div className="boot-spinner" aria-label="Loading" />
        </div>
        <div style={{ padding: "24px 50px", textAlign: "center", fontSize: 14, lineHeight: 1.5714285714285714, color: "rgba(0,0,0,0.88)" }}>{copyrightLine()}</div>
      </div>
    </div>
  );
}
