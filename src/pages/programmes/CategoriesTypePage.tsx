/** /programme/categories-type: the programme categories and, below, the programme types of each. */
import { Space } from "antd";
import { ListView } from "../../framework/pages/ListView.tsx";
import { getResource } from "../../framework/registry.ts";

export default function CategoriesTypePage() {
  // parentId "" renders an inline list (its own state, not the URL), so the two lists do not share filters.
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <ListView resource={getResource("categories")} parentId="" title="Programme Categories" />
      <ListView resource={getResource("program_types")} parentId="" title="Programme Types" />
    </Space>
  );
}
