/** /finance/payment-discount/create/{order}: the generated discount form with the order taken from the path. */
import { useMemo } from "react";
import { useParams } from "react-router";
import FormPage from "../../framework/pages/FormPage.tsx";
import { getResource } from "../../framework/registry.ts";
import type { Resource } from "../../framework/types.ts";

export default function DiscountCreatePage() {
  const { order } = useParams();
  const base = getResource("discounts");
  const resource = useMemo<Resource>(() => {
    const n = Number(order);
    const defaultOrder = Number.isInteger(n) && n >= 0 ? n : 0;
    return { ...base, fieldList: base.fieldList.map((f) => (f.name === "order" ? { ...f, defaultValue: defaultOrder } : f)) };
  }, [base, order]);
  return <FormPage key={order} resource={resource} action="create" />;
}
