import { lazyPage } from "../src/framework/routes.tsx";
import { TeamOutlined } from "@ant-design/icons";
import { defineResource, text, email, phone, enumOf, relation, image, date } from "../src/framework/declare.ts";
import { STAFF_ROLE_LABELS } from "../src/pages/users/roles.ts";
import { labelsOf } from "../src/domain/enumLabels.ts";

/** Roles that teach (the roles table's isTeaching): a programme's tutors are users holding one of them. */
export const TEACHING_ROLES = ["fulltime_tutor", "parttime_tutor", "hod", "tutor"] as const;
/** Users who may be picked as tutors. */
export const TUTORS_ONLY = { multipleRoles: { _has_keys_any: TEACHING_ROLES } } as const;
/** Users who may be picked as students (spec part 2 §5: "selects only the role student"). */
export const STUDENTS_ONLY = { role: { _eq: "student" } } as const;

/**
 * Staff accounts (spec part 1 §2 "Users"). The list is generated (students excluded: they live under
 * Students); create and update go through POST /users and PUT /users/{id} so a new user gets a
 * temporary password by mail; the view shows the lock state with unlock and password reset.
 */
export const users = defineResource({
  table: "users",
  label: "Users",
  singular: "User",
  icon: TeamOutlined,
  menu: "users",
  routes: { list: "/user", create: "/user/create", edit: "/user/:userId/update", show: "/user/:id/view" },
  softDelete: true,
  // Deleting is DELETE /users/{id} from the view (it also ends the user's sessions).
  deletable: false,
  recordLabel: "fullName",
  permanentFilters: [{ field: "type", operator: "ne", value: "student" }],
  fields: {
    avatarUrl: image("Avatar", { folder: "avatars", filter: false }),
    username: text("Username", { required: true, filter: true }),
    fullName: text("Full Name", { filter: true, form: false }),
    firstName: text("First Name", { list: false }),
    lastName: text("Last Name", { list: false }),
    email: email("Email", { filter: true }),
    phone: phone("Phone", { list: false }),
    dob: date("Date of Birth", { list: false }),
    role: enumOf("Role", STAFF_ROLE_LABELS, { filter: true, form: false }),
    branchId: relation("Branch", "branches", { filter: true }),
    status: enumOf("Status", labelsOf("users", "status"), { filter: true }),
  },
  pages: {
    create: lazyPage(() => import("../src/pages/users/UserCreatePage.tsx")),
    edit: lazyPage(() => import("../src/pages/users/UserEditPage.tsx")),
    show: lazyPage(() => import("../src/pages/users/UserViewPage.tsx")),
  },
});

/** The roles (spec part 1 §2 "/roles"): each with its users' count, and the access-policy editor for admins. */
export const roles = defineResource({
  table: "roles",
  label: "User Roles",
  singular: "Role",
  menu: "users",
  routes: { list: "/roles" },
  deletable: false,
  exportable: false,
  fields: {
    name: enumOf("Role", STAFF_ROLE_LABELS),
    abbreviation: text("Abbreviation"),
    roleCode: text("Role Code"),
    totalUsers: text("Users", { form: false }),
  },
  pages: { list: lazyPage(() => import("../src/pages/roles/RolesPage.tsx")) },
});

/** The audit log (issue 36, admins): every recorded change; the page reads the audit trail's REST call. */
export const auditLog = defineResource({
  table: "users",
  name: "audit_log",
  label: "Audit Log",
  menu: "users",
  routes: { list: "/audit-log" },
  deletable: false,
  exportable: false,
  fields: { id: text("Id") },
  pages: { list: lazyPage(() => import("../src/pages/audit-log/AuditLogPage.tsx")) },
});
