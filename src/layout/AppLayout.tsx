/**
 * The frame of every signed-in screen (spec part 1 §2 "Layout", §9): side menu 210 px collapsible to
 * 80 px, error banner + header, the page, and a footer with the current year in a copyright line.
 */
import { Layout } from "antd";
import { Suspense, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { useAccess } from "../app/useAccess.ts";
import { AppHeader, ErrorBanner } from "./AppHeader.tsx";
import { LogoutButton, ProfileBlock, SideMenu } from "./SideMenu.tsx";
import { PageSpinner } from "./PageSpinner.tsx";
import { PageErrorBoundary } from "./PageErrorBoundary.tsx";
import { LayoutSkeleton, MENU_WIDTH, copyrightLine } from "./LayoutSkeleton.tsx";

export const MENU_COLLAPSED_WIDTH = 80;

export function AppLayout() {
  const [collapsed, setCollapsed] = useState(false);
  const access = useAccess();
  const { pathname } = useLocation();
  if (!access.ready || !access.user) return <LayoutSkeleton />;
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Sider
        data-testid="side-menu"
        width={MENU_WIDTH}
        collapsedWidth={MENU_COLLAPSED_WIDTH}
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        trigger={<div data-testid="menu-collapse">{collapsed ? "»" : "«"}</div>}
        style={{ overflow: "auto", height: "100vh", position: "sticky", top: 0, left: 0 }}
      >
        <ProfileBlock user={access.user} collapsed={collapsed} />
        <SideMenu menu={access.menu} collapsed={collapsed} />
        <div style={{ padding: "8px 12px 56px" }}>
          <LogoutButton collapsed={collapsed} />
        </div>
      </Layout.Sider>
      <Layout>
        <ErrorBanner />
        <AppHeader />
        <Layout.Content style={{ margin: 24 }}>
          <PageErrorBoundary resetKey={pathname}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </PageErrorBoundary>
        </Layout.Content>
        <Layout.Footer data-testid="app-footer" style={{ textAlign: "center" }}>
          {copyrightLine()}
        </Layout.Footer>
      </Layout>
    </Layout>
  );
}
