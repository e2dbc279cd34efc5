/**
 * The class picker's query (spec part 2 §2, §5): classes of the PA's company matching the filters, never
 * closed or deleted; each with how many students hold a seat (for the availability label).
 */
import { gqlRequest } from "../../../app/graphql.ts";

export const CLASS_PICKER_PAGE_SIZES = [5, 10, 20, 30] as const;
/** Enrolment statuses that hold a seat in a class. */
export const SEAT_STATUSES = ["enrolled", "transferred", "replacement", "suspended"] as const;
export const PROGRAMME_ALREADY_PICKED = "Class's programme is already existed!";

export interface ClassPickerFilters {
  year: number;
  curriculumId?: string | null;
  levelId?: string | null;
  subjectId?: string | null;
  categoryId?: string | null;
  programTypeId?: string | null;
  branchId?: string | null;
}

export interface PickerClass {
  id: string;
  name: string;
  classCode: string | null;
  classType: string;
  classStatus: string;
  startDate: string | null;
  classSize: number;
  programId: string | null;
  program: { id: string; name: string; category: string } | null;
  programType: { name: string } | null;
  branch: { name: string } | null;
  seats: { aggregate: { count: number } };
}

export function pickerWhere(companyId: string, f: ClassPickerFilters): Record<string, unknown> {
  const and: Record<string, unknown>[] = [
    { companyId: { _eq: companyId } },
    { status: { _neq: "deleted" } },
    { classStatus: { _neq: "closed" } },
    { year: { _eq: f.year } },
  ];
  if (f.branchId) and.push({ branchId: { _eq: f.branchId } });
  if (f.programTypeId) and.push({ programTypeId: { _eq: f.programTypeId } });
  if (f.curriculumId) and.push({ program: { curriculumIds: { _contains: [f.curriculumId] } } });
  if (f.levelId) and.push({ program: { levelIds: { _contains: [f.levelId] } } });
  if (f.subjectId) and.push({ program: { subjectId: { _eq: f.subjectId } } });
  if (f.categoryId) and.push({ program: { categoryId: { _eq: f.categoryId } } });
  return { _and: and };
}

export async function fetchPickerClasses(companyId: string, f: ClassPickerFilters, page: number, pageSize: number): Promise<{ rows: PickerClass[]; total: number }> {
  const data = await gqlRequest<{ rows: PickerClass[]; total: { aggregate: { count: number } } }>(
    `query PickerClasses($where: classes_bool_exp!, $limit: Int!, $offset: Int!, $seats: [String!]!) {
      rows: classes(where: $where, limit: $limit, offset: $offset, order_by: [{ name: asc }, { id: asc }]) {
        id name classCode classType classStatus startDate classSize programId
        program { id name category } programType { name } branch { name }
        seats: studentClasses_aggregate(where: { status: { _in: $seats } }) { aggregate { count } }
      }
      total: classes_aggregate(where: $where) { aggregate { count } }
    }`,
    { where: pickerWhere(companyId, f), limit: pageSize, offset: (page - 1) * pageSize, seats: [...SEAT_STATUSES] },
  );
  return { rows: data.rows, total: data.total.aggregate.count };
}

export interface SessionLesson {
  id: string;
  date: string;
  sessions: { startTime: string; endTime: string }[];
}

/** The class's lessons for 'View Session': cancelled and deleted lessons left out. */
export async function fetchClassSessions(classId: string): Promise<SessionLesson[]> {
  const data = await gqlRequest<{ lessons: SessionLesson[] }>(
    `query ClassSessions($classId: uuid!) {
      lessons(where: { classId: { _eq: $classId }, lessonStatus: { _eq: "active" }, status: { _neq: "deleted" } }, order_by: [{ date: asc }, { id: asc }]) {
        id date sessions(where: { status: { _neq: "deleted" } }, order_by: [{ startTime: asc }]) { startTime endTime }
      }
    }`,
    { classId },
  );
  return data.lessons;
}

/** Special programmes may be picked more than once; any other programme once per PA. */
export function programmeAlreadyPicked(candidate: { programId: string | null; programCategory: string | null }, picked: readonly { programId: string | null }[]): boolean {
  if (!candidate.programId || candidate.programCategory === "special") return false;
  return picked.some((p) => p.programId === candidate.programId);
}
