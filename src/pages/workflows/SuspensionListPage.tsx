/** /suspension: the suspensions, and "New Suspension" for those who may suspend (FINANCE.md §5). */
import type { Resource } from "../../framework/types.ts";
import { ListView } from "../../framework/pages/ListView.tsx";
import { useCanCreate } from "./workflowRights.ts";
import { StartForStudent } from "./StartForStudent.tsx";

export default function SuspensionListPage({ resource }: { resource?: Resource }) {
  const canCreate = useCanCreate("suspension");
  return <ListView resource={resource!} extra={canCreate ? <StartForStudent label="New Suspension" pathFor={(id) => `/suspension/${id}`} /> : null} />;
}
