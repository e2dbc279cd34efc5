/** A student's live enrolments (the classes a suspension or withdrawal can act on). */
import { useQuery } from "@tanstack/react-query";
import { gqlRequest } from "../../app/graphql.ts";

export interface Enrolment { id: string; classId: string; status: string; class: { name: string; classCode: string | null } | null }

export function useEnrolments(studentId: string | undefined) {
  return useQuery({
    queryKey: ["enrolments", studentId],
    enabled: Boolean(studentId),
    retry: false,
    queryFn: async () =>
      (
        await gqlRequest<{ rows: Enrolment[] }>(
          `query Enrolments($id: uuid!) { rows: student_classes(where: { userId: { _eq: $id }, status: { _in: ["enrolled", "transferred", "replacement", "suspended"] } }, order_by: [{ createdAt: desc }, { class: { name: asc } }, { id: asc }]) {
            id classId status class { name classCode } } }`,
          { id: studentId },
        )
      ).rows,
  });
}
