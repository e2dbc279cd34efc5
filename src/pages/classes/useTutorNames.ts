/** Names of the tutors named by id in rows (classes' and sessions' tutorIds), fetched once per page of rows. */
import { useMany } from "@refinedev/core";

export function useTutorNames(ids: readonly string[]): (tutorIds: unknown) => string {
  const unique = [...new Set(ids)].sort();
  const { result } = useMany<{ id: string; fullName: string | null }>({
    resource: "users",
    ids: unique,
    meta: { fields: ["id", "fullName"] },
    queryOptions: { enabled: unique.length > 0, retry: false },
  });
  const names = new Map((result?.data ?? []).map((u) => [u.id, u.fullName ?? ""]));
  return (tutorIds) => (Array.isArray(tutorIds) ? tutorIds.map((id) => names.get(String(id)) ?? "").filter(Boolean).join(", ") : "");
}
