/** /programme/curriculum-level: the curriculums with their levels (abbreviations), per company. */
import { Button, Card, Tag } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { CanAccess, type BaseRecord } from "@refinedev/core";
import { useTable } from "@refinedev/antd";
import { Link } from "react-router";
import { PAGE_SIZE } from "../../framework/pages/recordCounter.ts";
import { PagedTable } from "../../framework/pages/PagedTable.tsx";

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
      <PagedTable
        tableProps={tableProps}
        currentPage={currentPage}
        pageSize={pageSize}
        total={result.total ?? 0}
        columns={[
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
