/**
 * Classes and attendance (issue 13). Their screens are hand-written (lesson generation, enrolment actions,
 * attendance marking go through the server's REST calls); the framework mounts them on the spec's routes.
 * A framework resource is named by its table, so the routes beyond list/create/show ride on the tables
 * they show (see DECISIONS: "Class and attendance routes").
 */
import { lazyPage } from "../src/framework/routes.tsx";
import { BookOutlined, CheckSquareOutlined } from "@ant-design/icons";
import { defineResource, text } from "../src/framework/declare.ts";

const ClassCreatePage = lazyPage(() => import("../src/pages/classes/ClassCreatePage.tsx"));

export const classes = defineResource({
  table: "classes",
  label: "Classes",
  singular: "Class",
  icon: BookOutlined,
  menu: "classes",
  routes: { list: "/class/management", create: "/class/management/create", show: "/class/management/:classId/view" },
  softDelete: true,
  deletable: false,
  // the label other screens show for a class (three-times-absent list, pickers)
  fields: { name: text("Class Name", { required: true }) },
  pages: {
    list: lazyPage(() => import("../src/pages/classes/ClassListPage.tsx")),
    create: ClassCreatePage,
    show: lazyPage(() => import("../src/pages/classes/ClassViewPage.tsx")),
  },
});

/** A class created from a programme (/class/management/{programId}/create): the same form, the programme chosen. */
export const classFromProgramme = defineResource({
  table: "lesson_sessions",
  label: "Create Class",
  menu: null,
  routes: { create: "/class/management/:programId/create" },
  deletable: false,
  exportable: false,
  fields: {},
  pages: { create: ClassCreatePage },
});

export const lessons = defineResource({
  table: "lessons",
  label: "Attendance List",
  singular: "Lesson",
  icon: CheckSquareOutlined,
  menu: "attendance",
  routes: { list: "/attendance/list", show: "/attendance/detail/:id", create: "/class/management/:classId/view/lesson-create" },
  deletable: false,
  exportable: false,
  fields: {},
  pages: {
    list: lazyPage(() => import("../src/pages/attendance/AttendanceListPage.tsx")),
    show: lazyPage(() => import("../src/pages/attendance/AttendanceDetailPage.tsx")),
    create: lazyPage(() => import("../src/pages/classes/LessonCreatePage.tsx")),
  },
});

export const attendanceMonitor = defineResource({
  table: "lessons_students",
  label: "Attendance Monitor",
  menu: "attendance",
  routes: { list: "/attendance/monitor" },
  deletable: false,
  exportable: false,
  fields: {},
  pages: { list: lazyPage(() => import("../src/pages/attendance/AttendanceMonitorPage.tsx")) },
});

export const gantryRecords = defineResource({
  table: "gantry_records",
  label: "Gantry Record",
  menu: "attendance",
  routes: { list: "/attendance/gantry-record" },
  deletable: false,
  exportable: false,
  fields: {},
  pages: { list: lazyPage(() => import("../src/pages/attendance/GantryRecordPage.tsx")) },
});
