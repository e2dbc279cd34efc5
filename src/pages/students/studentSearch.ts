/**
 * The student search of the pickers (spec part 2 §5): role student only, no deleted or draft users,
 * username or full name matching the typed text partially and case-insensitively, 20 a page.
 */
import { containsPattern, gqlRequest } from "../../app/graphql.ts";
import type { Phone } from "../../framework/inputs/PhoneInput.tsx";

export const STUDENT_PAGE_SIZE = 20;
/** Shown where a student's value is missing (spec part 2 §2). */
export const MISSING = "__";

export interface StudentOption {
  id: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  username: string;
  email: string | null;
  phone: Phone | null;
  school: { name: string | null } | null;
  curriculum: { abbreviation: string | null } | null;
  level: { abbreviation: string | null } | null;
}

const STUDENT_FIELDS = `id firstName lastName fullName username email phone school { name } curriculum { abbreviation } level { abbreviation }`;

export function studentWhere(text: string): Record<string, unknown> {
  const base: Record<string, unknown>[] = [{ role: { _eq: "student" } }, { status: { _nin: ["deleted", "draft"] } }];
  const t = text.trim();
  if (t) base.push({ _or: [{ username: { _ilike: containsPattern(t) } }, { fullName: { _ilike: containsPattern(t) } }] });
  return { _and: base };
}

export async function searchStudents(text: string, page: number): Promise<{ rows: StudentOption[]; total: number }> {
  const data = await gqlRequest<{ users: StudentOption[]; users_aggregate: { aggregate: { count: number } } }>(
    `query StudentSearch($where: users_bool_exp!, $limit: Int!, $offset: Int!) {
      users(where: $where, limit: $limit, offset: $offset, order_by: [{ fullName: asc }, { id: asc }]) { ${STUDENT_FIELDS} }
      users_aggregate(where: $where) { aggregate { count } }
    }`,
    { where: studentWhere(text), limit: STUDENT_PAGE_SIZE, offset: (page - 1) * STUDENT_PAGE_SIZE },
  );
  return { rows: data.users, total: data.users_aggregate.aggregate.count };
}

export async function fetchStudent(id: string): Promise<StudentOption | null> {
  const data = await gqlRequest<{ users_by_pk: StudentOption | null }>(`query Student($id: uuid!) { users_by_pk(id: $id) { ${STUDENT_FIELDS} } }`, { id });
  return data.users_by_pk;
}

const orMissing = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

/** The parts of an option's text: name, username, school, curriculum and level abbreviations. */
export function studentOptionParts(s: StudentOption): string[] {
  const name = [s.firstName, s.lastName].filter((p) => p && p.trim()).join(" ");
  return [orMissing(name), orMissing(s.username), orMissing(s.school?.name), orMissing(s.curriculum?.abbreviation), orMissing(s.level?.abbreviation)];
}
