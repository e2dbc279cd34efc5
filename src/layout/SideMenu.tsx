/** The left side menu: profile block, the user's menu, and the log-out button (spec part 1 §2 "Layout"). */
import { Avatar, Button, ConfigProvider, Menu, Popconfirm, Tag } from "antd";
import type { MenuProps } from "antd";
import {
  ApartmentOutlined,
  BankOutlined,
  BookOutlined,
  CalendarOutlined,
  DollarOutlined,
  FileTextOutlined,
  GiftOutlined,
  LogoutOutlined,
  NotificationOutlined,
  QuestionCircleOutlined,
  ReadOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
  BarChartOutlined,
} from "@ant-design/icons";
import { useMemo, useState, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { useLogout } from "@refinedev/core";
import type { MenuGroup, MenuGroupKey } from "../domain/menu.ts";
import { menuEntryFor } from "../domain/menu.ts";
import type { CurrentUser } from "../app/session.ts";
import { lastRoleLabel } from "../domain/roleLabels.ts";
import { t } from "../app/i18n/index.ts";
import { WAITING_BADGES } from "./WaitingBadge.tsx";

const ICONS: Record<MenuGroupKey, ReactNode> = {
  companies: <BankOutlined />,
  users: <TeamOutlined />,
  branches: <ApartmentOutlined />,
  students: <SolutionOutlined />,
  programmes: <BookOutlined />,
  classes: <ReadOutlined />,
  finance: <DollarOutlined />,
  rewards: <GiftOutlined />,
  communication: <NotificationOutlined />,
  report: <BarChartOutlined />,
  attendance: <CalendarOutlined />,
  "content-management": <FileTextOutlined />,
  enquiry: <QuestionCircleOutlined />,
};

export function ProfileBlock({ user, collapsed }: { user: CurrentUser; collapsed: boolean }) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username;
  return (
    <Link
      to={`/user/${user.id}/view`}
      data-testid="profile-block"
      style={{ display: "flex", alignItems: "center", gap: 12, padding: collapsed ? "16px 0" : 16, justifyContent: collapsed ? "center" : "flex-start", color: "inherit" }}
    >
      <Avatar size={40} src={user.avatarUrl || undefined} icon={<UserOutlined />} />
      {!collapsed && (
        <div style={{ minWidth: 0 }}>
          <div data-testid="profile-name" style={{ fontWeight: 600, color: "#fff", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}>
            {name}
          </div>
          <Tag data-testid="role-badge" color="blue" style={{ marginTop: 4 }}>
            {lastRoleLabel(user.roles)}
          </Tag>
        </div>
      )}
    </Link>
  );
}

export function LogoutButton({ collapsed }: { collapsed: boolean }) {
  const { mutate: logout } = useLogout();
  return (
    <Popconfirm
      title={t("logout_confirm")}
      okText={t("yes")}
      cancelText={t("no")}
      placement="topLeft"
      // A failed log-out shows its error text through the notification provider (Refine's useLogout).
      onConfirm={() => logout()}
    >
      <Button data-testid="logout-button" type="text" icon={<LogoutOutlined />} style={{ color: "#fff", width: "100%", textAlign: "left" }}>
        {collapsed ? null : "Log out"}
      </Button>
    </Popconfirm>
  );
}

export function SideMenu({ menu, collapsed }: { menu: MenuGroup[]; collapsed: boolean }) {
  const { pathname } = useLocation();
  const active = menuEntryFor(pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(active ? [active.group.key] : []);
  const items = useMemo<MenuProps["items"]>(
    () =>
      menu.map((g) => ({
        key: g.key,
        icon: ICONS[g.key],
        // One line that stops before the arrow: the spec's 210 px menu is narrow for "Content Management".
        label: (
          <span data-menu-group={g.key} title={g.label} style={{ display: "block", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
            {g.label}
          </span>
        ),
        children: g.items.map((i) => {
          const Waiting = WAITING_BADGES[i.path];
          return { key: i.path, label: <Link to={i.path}>{i.label}{Waiting && <Waiting />}</Link> };
        }),
      })),
    [menu],
  );
  return (
    // Narrower margins than antd's so the longest group ("Content Management") stops clear of its arrow.
    <ConfigProvider theme={{ components: { Menu: { itemMarginInline: 2, iconMarginInlineEnd: 6 } } }}>
      <Menu
        data-testid="side-menu-items"
        theme="dark"
        mode="inline"
        inlineIndent={16}
        items={items}
        selectedKeys={active ? [active.item.path] : []}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      />
    </ConfigProvider>
  );
}
