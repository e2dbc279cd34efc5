import { SolutionOutlined } from "@ant-design/icons";
import { defineResource, text, enumOf, relation, phone, email } from "../src/framework/declare.ts";
import { lazyPage } from "../src/framework/routes.tsx";
import { labelsOf } from "../src/domain/enumLabels.ts";

/**
 * Students (spec part 1 §2 "Students", issue 12): student accounts over the users table. The list,
 * the three-step account wizard, the view with its tabs and the account edit are hand-written pages;
 * every write goes through the student-profile calls (POST /student-profiles/…, PUT, PATCH avatar, DELETE).
 */
export const students = defineResource({
  table: "users",
  name: "students",
  label: "Students",
  singular: "Student",
  icon: SolutionOutlined,
  menu: "students",
  routes: {
    list: "/student-management",
    create: "/student-management/create-account",
    edit: "/student-management/edit-account/:id",
    show: "/student-management/student/:id/view",
  },
  softDelete: true,
  recordLabel: "fullName",
  permanentFilters: [{ field: "type", operator: "eq", value: "student" }],
  fields: {
    fullName: text("Name"),
    username: text("Username"),
    email: email("Email", { list: false }),
    phone: phone("Phone", { list: false }),
    branchId: relation("Branch", "branches"),
    schoolId: relation("School", "schools"),
    curriculumId: relation("Curriculum", "curriculums", { labelField: "abbreviation" }),
    levelId: relation("Level", "levels", { labelField: "abbreviation" }),
    status: enumOf("Status", labelsOf("users", "status")),
  },
  pages: {
    list: lazyPage(() => import("../src/pages/students/StudentListPage.tsx")),
    create: lazyPage(() => import("../src/pages/students/StudentWizardPage.tsx")),
    edit: lazyPage(() => import("../src/pages/students/StudentEditAccountPage.tsx")),
    show: lazyPage(() => import("../src/pages/students/StudentViewPage.tsx")),
  },
});

/** /student-management/update-account-information/{id}: the wizard again, over an existing (or draft) student. */
export const studentAccounts = defineResource({
  table: "users",
  name: "student_accounts",
  label: "Student Accounts",
  singular: "Student Account",
  menu: null,
  routes: { edit: "/student-management/update-account-information/:id" },
  softDelete: true,
  deletable: false,
  recordLabel: "fullName",
  fields: { fullName: text("Name") },
  pages: { edit: lazyPage(() => import("../src/pages/students/StudentWizardPage.tsx")) },
});
