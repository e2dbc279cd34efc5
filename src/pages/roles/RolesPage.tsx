/**
 * /roles: the roles with their users' count; for admins, the access-policy editor — a grid of roles ×
 * routes, menus and data tables (per action) — saved through PUT /api/v2/access/policy. The browser
 * reloads the policy right after saving, so menus, routes and buttons follow at once; the server applies
 * it to GraphQL and REST immediately.
 */
import { Alert, Button, Card, Checkbox, Input, Segmented, Space, Spin, Table, Tabs, Tag, Tooltip } from "antd";
import { toast } from "../../framework/toast.ts";
import { useList } from "@refinedev/core";
import { useEffect, useMemo, useState } from "react";
import { api, rejectionMessage } from "../../app/api.ts";
import { loadPolicy, type PolicyDocument } from "../../app/policy.ts";
import { useSignedInUser } from "../users/useSignedInUser.ts";
import { APP_ROUTES } from "../../app/routes.ts";
import { MENU_TREE } from "../../domain/menu.ts";
import { ROLE_LABELS } from "../../domain/roleLabels.ts";
import { STAFF_ROLES } from "../users/roles.ts";
import { PolicyGrid, type Grant } from "./policyGrid.ts";

/** The roles a grid column exists for (admin may do everything and has no column). */
const GRID_ROLES = STAFF_ROLES.filter((r) => r !== "admin");
const DATA_ACTIONS = ["select", "insert", "update", "delete"] as const;

function RoleCounts() {
  const roles = useList<{ id: string; name: string; abbreviation: string | null; roleCode: string | null; status: string }>({
    resource: "roles",
    filters: [{ field: "status", operator: "ne", value: "deleted" }],
    sorters: [{ field: "roleCode", order: "asc" }],
    pagination: { mode: "off" },
    meta: { fields: ["id", "name", "abbreviation", "roleCode", "status"] },
    queryOptions: { retry: false },
  });
  const users = useList<{ id: string; role: string | null; multipleRoles: string[] | null }>({
    resource: "users",
    filters: [
      { field: "status", operator: "ne", value: "deleted" },
      { field: "type", operator: "ne", value: "student" },
    ],
    pagination: { mode: "off" },
    meta: { fields: ["id", "role", "multipleRoles"] },
    queryOptions: { retry: false },
  });
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const u of users.result?.data ?? []) {
      const held = new Set([...(u.multipleRoles ?? []), ...(u.role ? [u.role] : [])]);
      for (const r of held) m.set(r, (m.get(r) ?? 0) + 1);
    }
    return m;
  }, [users.result]);
  const rows = (roles.result?.data ?? []).filter((r) => STAFF_ROLES.includes(r.name as (typeof STAFF_ROLES)[number]));
  return (
    <Table
      rowKey="id"
      loading={roles.query.isLoading || users.query.isLoading}
      dataSource={rows}
      pagination={false}
      size="middle"
      data-testid="roles-table"
      columns={[
        { title: "Index", key: "index", width: 72, render: (_v, _r, i) => i + 1 },
        { title: "Role", key: "name", render: (_v, r) => ROLE_LABELS[r.name] ?? r.name },
        { title: "Code", dataIndex: "name" },
        { title: "Abbreviation", dataIndex: "abbreviation" },
        { title: "Users", key: "users", render: (_v, r) => <span data-testid={`users-count-${r.name}`}>{counts.get(r.name) ?? 0}</span> },
      ]}
    />
  );
}

interface GridRow {
  key: string;
  label: string;
  obj: string;
}

function GrantGrid({ grid, rows, act, onToggle, filter }: { grid: PolicyGrid; rows: GridRow[]; act: string; onToggle: (g: Grant, on: boolean) => void; filter: string }) {
  const shown = rows.filter((r) => !filter || `${r.label} ${r.obj}`.toLowerCase().includes(filter.toLowerCase()));
  return (
    <Table
      rowKey="key"
      size="small"
      dataSource={shown}
      pagination={{ pageSize: 20, showSizeChanger: false }}
      scroll={{ x: true }}
      columns={[
        { title: "", key: "label", fixed: "left", render: (_v, r) => <Tooltip title={r.obj}>{r.label}</Tooltip> },
        ...GRID_ROLES.map((role) => ({
          title: ROLE_LABELS[role] ?? role,
          key: role,
          align: "center" as const,
          render: (_v: unknown, r: GridRow) => {
            const g = { role, obj: r.obj, act };
            const cond = grid.condition(g);
            return (
              <Space size={2}>
                <Checkbox checked={grid.has(g)} onChange={(e) => onToggle(g, e.target.checked)} aria-label={`${role} ${r.obj} ${act}`} />
                {cond && (
                  <Tooltip title={cond}>
                    <Tag color="orange" style={{ marginInlineEnd: 0 }}>
                      filtered
                    </Tag>
                  </Tooltip>
                )}
              </Space>
            );
          },
        })),
      ]}
    />
  );
}

function PolicyEditor() {
  const [saved, setSaved] = useState<PolicyGrid | undefined>();
  const [grid, setGrid] = useState<PolicyGrid | undefined>();
  const [version, setVersion] = useState<string>("");
  const [saving, setSaving] = useState(false);
  const [act, setAct] = useState<string>("select");
  const [filter, setFilter] = useState("");

  const load = async () => {
    const res = await api<PolicyDocument>("GET", "/access/policy");
    const g = new PolicyGrid(res.data!.policy);
    setSaved(g);
    setGrid(g);
    setVersion(String(res.data!.version));
  };
  useEffect(() => {
    load().catch((err) => void toast.error(rejectionMessage(err, "The access policy could not be loaded.")));
  }, []);

  const routeRows = useMemo<GridRow[]>(() => APP_ROUTES.map((r) => ({ key: r.path, label: `${r.title} (${r.path})`, obj: r.path })), []);
  const menuRows = useMemo<GridRow[]>(() => MENU_TREE.map((m) => ({ key: m.key, label: m.label, obj: `menu:${m.label}` })), []);
  const dataRows = useMemo<GridRow[]>(() => (saved ? saved.objects("data:").map((o) => ({ key: o, label: o.slice(5), obj: o })) : []), [saved]);
  // issue 14: action rights (FINANCE.md §5), e.g. api:/actions/payment-advice/issue → "payment-advice: issue".
  const actionRows = useMemo<GridRow[]>(() => (saved ? saved.objects(ACTION_PREFIX).map((o) => ({ key: o, label: o.slice(ACTION_PREFIX.length).replace("/", ": "), obj: o })) : []), [saved]);
  if (!grid || !saved) return <Spin />;
  const dirty = grid.text() !== saved.text();
  const toggle = (g: Grant, on: boolean) => setGrid((cur) => cur?.set(g, on));

  const save = async () => {
    setSaving(true);
    try {
      const res = await api<{ version: number }>("PUT", "/access/policy", { policy: grid.text() });
      void toast.success("The access policy is saved and in effect.");
      setVersion(String(res.data?.version ?? ""));
      setSaved(grid);
      await loadPolicy();
    } catch (err) {
      void toast.error(rejectionMessage(err, "The access policy could not be saved."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      title="Access policy"
      data-testid="policy-editor"
      extra={
        <Space>
          <Tag>version {version}</Tag>
          <Button disabled={!dirty || saving} onClick={() => setGrid(saved)}>
            Discard
          </Button>
          <Button type="primary" disabled={!dirty} loading={saving} onClick={() => void save()}>
            Save policy
          </Button>
        </Space>
      }
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message="Admin may do everything. A route with no role ticked is visible to admins only. Changes apply to every signed-in user as soon as they are saved." />
      <Input.Search allowClear placeholder="Find a route, menu or table" onChange={(e) => setFilter(e.target.value)} style={{ maxWidth: 360, marginBottom: 12 }} aria-label="Find" />
      <Tabs
        items={[
          { key: "routes", label: "Routes", children: <GrantGrid grid={grid} rows={routeRows} act="view" onToggle={toggle} filter={filter} /> },
          { key: "menus", label: "Menus", children: <GrantGrid grid={grid} rows={menuRows} act="show" onToggle={toggle} filter={filter} /> },
          { key: "actions", label: "Actions", children: <GrantGrid grid={grid} rows={actionRows} act="POST" onToggle={toggle} filter={filter} /> },
          {
            key: "data",
            label: "Data tables",
            children: (
              <Space direction="vertical" style={{ width: "100%" }}>
                <Segmented options={[...DATA_ACTIONS]} value={act} onChange={(v) => setAct(String(v))} aria-label="Data action" />
                <GrantGrid grid={grid} rows={dataRows} act={act} onToggle={toggle} filter={filter} />
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** Action rights are API objects under /actions (performed, act POST); the finance service asks for them. */
const ACTION_PREFIX = "api:/actions/";

export default function RolesPage() {
  const user = useSignedInUser();
  const isAdmin = user?.roles.includes("admin") ?? false;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card title="User Roles">
        <RoleCounts />
      </Card>
      {isAdmin && <PolicyEditor />}
    </Space>
  );
}
