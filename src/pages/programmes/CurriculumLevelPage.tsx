/** /programme/curriculum-level: the curriculums with their levels (abbreviations), per company. */
import { Button, Card, Table, Tag, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { CanAccess, type BaseRecord } from "@refinedev/core";
import { useTable } from "@refinedev/antd";
import { Link } from "react-router";
import { PAGE_SIZE, recordCounter } from "../../framework/pages/ListView.tsx";

interface CurriculumRow extends BaseRecord {
  name: string;
  abbreviation: string;
  nameOfReport?: string | null;
  company?: { name: string } | null;
  curriculumsLevels?: { id: string; status: string; level: { name: string; abbreviation: string; order: number } | null }[];
}

export default function CurriculumLevelPage() {
  const { tableProps, currentPage, pageSize, result } = useTable<CurriculumRow>({
    resource: "curriculums",
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: PAGE_SIZE },
    sorters: { initial: [{ field: "updatedAt", order: "desc" }] },
    filters: { permanent: [{ field: "status", operator: "ne", value: "deleted" }] },
    meta: {
      fields: ["id", "name", "abbreviation", "nameOfReport", "updatedAt", { company: ["id", "name"] }, { curriculumsLevels: ["id", "status", { level: ["id", "name", "abbreviation", "order"] }] }],
    },
    queryOptions: { retry: false },
  });
  const rows = (tableProps.dataSource ?? []) as CurriculumRow[];
  return (
    <Card
      title="Curriculum & Level"
      extra={
        <CanAccess resource="curriculums" action="create" fallback={null}>
          <Link to="/programme/curriculum-level/create">
            <Button type="primary" icon={<PlusOutlined />}>
              Create
            </Button>
          </Link>
        </CanAccess>
      }
    >
      <Typography.Text data-testid="record-counter">{recordCounter(currentPage, pageSize, rows.length, result.total ?? 0)}</Typography.Text>
      <Table
        {...tableProps}
        rowKey="id"
        pagination={{ ...tableProps.pagination, showQuickJumper: true, showSizeChanger: false }}
        columns={[
          { title: "Index", key: "index", width: 72, render: (_v, _r, i) => (currentPage - 1) * pageSize + i + 1 },
          { title: "Curriculum", dataIndex: "name" },
          { title: "Abbreviation", dataIndex: "abbreviation" },
          { title: "Company", key: "company", render: (_v, r) => r.company?.name ?? "" },
          {
            title: "Levels",
            key: "levels",
            render: (_v, r) =>
              (r.curriculumsLevels ?? [])
                .filter((cl) => cl.status !== "deleted" && cl.level)
                .sort((a, b) => (a.level!.order ?? 0) - (b.level!.order ?? 0))
                .map((cl) => (
                  <Tag key={cl.id} title={cl.level!.name}>
                    {cl.level!.abbreviation}
                  </Tag>
                )),
          },
          { title: "Name in Reports", dataIndex: "nameOfReport" },
        ]}
      />
    </Card>
  );
}
