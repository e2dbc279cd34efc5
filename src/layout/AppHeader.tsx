/** The top header (60 px) with breadcrumbs and the page title, and the red error banner (48 px) above it. */
import { Breadcrumb } from "antd";
import { Title } from "../framework/typography.tsx";
import { Link, useLocation } from "react-router";
import { useEffect } from "react";
import { matchAppRoute } from "../app/routes.ts";
import { MENU_TREE, menuEntryFor } from "../domain/menu.ts";
import { useGlobalError } from "../app/globalError.ts";
import { HEADER_HEIGHT } from "./LayoutSkeleton.tsx";

export const ERROR_BANNER_HEIGHT = 48;

export function breadcrumbTrail(pathname: string): { title: string; path?: string }[] {
  const match = matchAppRoute(pathname);
  if (!match) return [];
  const group = MENU_TREE.find((g) => g.key === match.route.group)!;
  const entry = menuEntryFor(match.route.path);
  const trail: { title: string; path?: string }[] = [{ title: group.label }];
  if (entry && entry.item.path !== match.route.path) trail.push({ title: entry.item.label, path: entry.item.path });
  trail.push({ title: match.route.title });
  return trail;
}

export function ErrorBanner() {
  const error = useGlobalError();
  if (!error) return null;
  return (
    <div
      role="alert"
      data-testid="error-banner"
      style={{ height: ERROR_BANNER_HEIGHT, lineHeight: `${ERROR_BANNER_HEIGHT}px`, background: "#ff4d4f", color: "#fff", padding: "0 24px", overflow: "hidden", whiteSpace: "nowrap", textOverflow: "ellipsis" }}
    >
      {error}
    </div>
  );
}

export function AppHeader() {
  const { pathname } = useLocation();
  const trail = breadcrumbTrail(pathname);
  const title = matchAppRoute(pathname)?.route.title ?? "";
  useEffect(() => {
    document.title = title ? `${title} | Centre Back-office` : "Centre Back-office";
  }, [title]);
  return (
    <header
      data-testid="app-header"
      style={{ height: HEADER_HEIGHT, background: "#fff", padding: "0 24px", display: "flex", flexDirection: "column", justifyContent: "center", borderBottom: "1px solid #f0f0f0", boxSizing: "border-box" }}
    >
      <Breadcrumb
        data-testid="breadcrumbs"
        style={{ fontSize: 12 }}
        items={trail.map((c) => ({ title: c.path ? <Link to={c.path}>{c.title}</Link> : c.title }))}
      />
      <Title level={4} data-testid="page-title" style={{ margin: 0, lineHeight: "28px" }}>
        {title}
      </Title>
    </header>
  );
}
