/** /withdrawal: the withdrawals, and "New Withdrawal" for those who may withdraw a student (FINANCE.md §5). */
import type { Resource } from "../../framework/types.ts";
import { ListView } from "../../framework/pages/ListView.tsx";
import { useCanCreate } from "./workflowRights.ts";
import { StartForStudent } from "./StartForStudent.tsx";

export default function WithdrawalListPage({ resource }: { resource?: Resource }) {
  const canCreate = useCanCreate("withdrawal");
  return <ListView resource={resource!} extra={canCreate ? <StartForStudent label="New Withdrawal" pathFor={(id) => `/withdrawal/${id}`} /> : null} />;
}
