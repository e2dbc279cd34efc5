/**
 * The GraphQL documents of the class and attendance pages (issue 13), as text: the pages parse them, and
 * `npm run bench -- graphql` measures the two list queries against hand-written SQL. One root field each.
 */
import { ATTENDANCE_EXCLUDED_TYPES, SEAT_STATUSES } from "../../domain/attendance.ts";

const list = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(", ")}]`;

/** /class/management: classes with programme, type code, branch and the seats taken. */
export const CLASS_LIST_QUERY = `query ClassList($where: classes_bool_exp!, $limit: Int!, $offset: Int!, $order_by: [classes_order_by!]) {
  classes(where: $where, limit: $limit, offset: $offset, order_by: $order_by) {
    id name classCode classStatus classType classTier lessonType classSize startDate endDate tutorIds updatedAt
    program { id name }
    programType { id code }
    branch { id name }
    enrolled: studentClasses_aggregate(where: {status: {_in: ${list(SEAT_STATUSES)}}}) { aggregate { count } }
  }
  classes_aggregate(where: $where) { aggregate { count } }
}`;

/** /attendance/list: lessons with their class, room, sessions and attended / expected counts. */
export const ATTENDANCE_LIST_QUERY = `query AttendanceList($where: lessons_bool_exp!, $limit: Int!, $offset: Int!, $order_by: [lessons_order_by!]) {
  lessons(where: $where, limit: $limit, offset: $offset, order_by: $order_by) {
    id date lessonStatus numberWeek
    class { id name classCode branchId }
    classroom { id name }
    sessions(where: {status: {_eq: "active"}}, order_by: {startTime: asc}) { id startTime endTime tutorIds }
    students: lessonsStudents_aggregate(where: {status: {_neq: "deleted"}, type: {_nin: ${list(ATTENDANCE_EXCLUDED_TYPES)}}}) { aggregate { count } }
    attended: lessonsStudents_aggregate(where: {status: {_eq: "attended"}, type: {_nin: ${list(ATTENDANCE_EXCLUDED_TYPES)}}}) { aggregate { count } }
  }
  lessons_aggregate(where: $where) { aggregate { count } }
}`;
