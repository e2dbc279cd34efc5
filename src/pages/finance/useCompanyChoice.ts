/**
 * The companies a finance screen works on (by name, deleted ones left out) and the one chosen, the first by default:
 * bank reconciliation, the billing run and the accounting export each work on one company at a time.
 */
import { useEffect, useState } from "react";
import { useList } from "@refinedev/core";

export interface CompanyOption {
  id: string;
  name: string;
  shortName: string | null;
}

export function useCompanyChoice() {
  const { result } = useList<CompanyOption>({
    resource: "companies",
    pagination: { mode: "off" },
    sorters: [{ field: "name", order: "asc" }],
    filters: [{ field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "name", "shortName"] },
    queryOptions: { retry: false },
  });
  const companies = result?.data ?? [];
  const [companyId, setCompanyId] = useState<string>();
  useEffect(() => {
    if (!companyId && companies[0]) setCompanyId(companies[0].id);
  }, [companyId, companies]);
  return { companies, companyId, setCompanyId };
}
