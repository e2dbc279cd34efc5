import { lazyPage } from "../src/framework/routes.tsx";
import { BookOutlined } from "@ant-design/icons";
import { defineResource, text, longText, number, enumOf, relation, date, files } from "../src/framework/declare.ts";
import { TUTORS_ONLY } from "./users.ts";

export const CATEGORY_CODES = { regular: "Regular", double_lesson: "Double Lesson", special: "Special", others: "Others" } as const;
export const CLASS_TYPE_CODES = { WLWD: "WLWD", WLWE: "WLWE", DBWD: "DBWD", DBWE: "DBWE" } as const;
export const CALENDAR_FREQUENCIES = { weekly: "Weekly", monthly: "Monthly", custom: "Custom" } as const;

/** A curriculum (A, IP, EXP, IB) with its linked levels (spec part 1 §3 "Curriculum and level"). */
export const curriculums = defineResource({
  table: "curriculums",
  label: "Curriculum & Level",
  singular: "Curriculum",
  icon: BookOutlined,
  menu: "programmes",
  routes: { list: "/programme/curriculum-level", create: "/programme/curriculum-level/create" },
  softDelete: true,
  fields: {
    name: text("Curriculum Name", { required: true, filter: true }),
    abbreviation: text("Abbreviation", { required: true, filter: true }),
    nameOfReport: text("Name in Reports"),
    companyId: relation("Company", "companies", { required: true, filter: true }),
  },
  pages: {
    list: lazyPage(() => import("../src/pages/programmes/CurriculumLevelPage.tsx")),
    create: lazyPage(() => import("../src/pages/programmes/CurriculumCreatePage.tsx")),
  },
});

/** A level (S1–S4, J1, J2); chosen on curriculums, calendars, programmes and tutors. */
export const levels = defineResource({
  table: "levels",
  label: "Levels",
  singular: "Level",
  menu: null,
  routes: {},
  softDelete: true,
  fields: {
    name: text("Level Name", { required: true }),
    abbreviation: text("Abbreviation", { required: true }),
    order: number("Order", { min: 0 }),
    companyId: relation("Company", "companies"),
  },
});

/** A subject (Mathematics, Chemistry, …) of a company. */
export const subjects = defineResource({
  table: "subjects",
  label: "Subjects",
  singular: "Subject",
  menu: null,
  routes: {},
  softDelete: true,
  fields: {
    name: text("Subject Name", { required: true }),
    abbreviation: text("Abbreviation"),
    companyId: relation("Company", "companies"),
  },
});

/** Programme categories (regular, double lesson, special, others) — shown with the programme types. */
export const categories = defineResource({
  table: "categories",
  label: "Categories & Type",
  singular: "Category",
  menu: "programmes",
  routes: { list: "/programme/categories-type" },
  softDelete: true,
  defaultSort: { field: "sortOrder", order: "asc" },
  fields: {
    name: text("Category Name", { required: true, filter: true }),
    code: enumOf("Code", CATEGORY_CODES, { required: true }),
    abbreviation: enumOf("Label", { R: "R", DB: "DB", S: "S", O: "O" }),
    sortOrder: number("Sort Order", { min: 0 }),
  },
  pages: { list: lazyPage(() => import("../src/pages/programmes/CategoriesTypePage.tsx")) },
});

/**
 * Programme types of a category, with their class-type code (WLWD, WLWE, DBWD, DBWE). Listed under the
 * categories on /programme/categories-type, created and edited there in a dialog (the spec has the
 * create and update mutations but no routes for them).
 */
export const programTypes = defineResource({
  table: "program_types",
  label: "Programme Types",
  singular: "Programme Type",
  menu: null,
  routes: {},
  dialogs: ["create", "edit"],
  softDelete: true,
  fields: {
    name: text("Programme Type", { required: true, filter: true }),
    fullName: text("Full Name"),
    shortName: text("Short Name"),
    abbreviation: text("Abbreviation"),
    code: enumOf("Class Type Code", CLASS_TYPE_CODES),
    categoryId: relation("Category", "categories", { required: true, filter: true }),
  },
});

/** An academic calendar (year, frequency, company, curriculum, levels) with its terms. */
export const academicCalendars = defineResource({
  table: "academic_calendars",
  label: "Academic Term",
  singular: "Academic Calendar",
  menu: "programmes",
  routes: { list: "/programme/academic-term", create: "/programme/academic-term/create", edit: "/programme/academic-term/:id/edit" },
  softDelete: true,
  fields: {
    name: text("Calendar Name", { required: true, filter: true }),
    year: number("Academic Year", { required: true, filter: true, min: 2000, max: 2100, defaultValue: new Date().getFullYear() }),
    category: enumOf("Frequency", CALENDAR_FREQUENCIES, { required: true, filter: true, defaultValue: "weekly" }),
    categoryId: relation("Programme Category", "categories", { filter: true }),
    companyId: relation("Company", "companies", { required: true, filter: true }),
    curriculumId: relation("Curriculum", "curriculums"),
    levelIds: relation("Levels", "levels", { many: true }),
  },
  pages: {
    create: lazyPage(() => import("../src/pages/programmes/AcademicCalendarFormPage.tsx")),
    edit: lazyPage(() => import("../src/pages/programmes/AcademicCalendarFormPage.tsx")),
  },
});

/** Terms of an academic calendar (edited on the calendar's form). */
export const terms = defineResource({
  table: "terms",
  label: "Terms",
  singular: "Term",
  menu: null,
  routes: {},
  softDelete: true,
  fields: {
    name: text("Term Name", { required: true }),
    startDate: date("Start Date", { required: true }),
    endDate: date("End Date", { required: true }),
    numberOfLessons: number("Number of Lessons", { min: 0 }),
    academicCalendarId: relation("Academic Calendar", "academic_calendars"),
  },
});

/** A programme: company, curriculums, levels, subject, tutors, category, remark, and its class-kind counts. */
export const programs = defineResource({
  table: "programs",
  label: "Programme Management",
  singular: "Programme",
  menu: "programmes",
  routes: { list: "/programme/management", create: "/programme/management/create", show: "/programme/management/:id/view" },
  softDelete: true,
  fields: {
    name: text("Programme Name", { required: true, filter: true }),
    programCode: text("Programme Code", { filter: true }),
    companyId: relation("Company", "companies", { required: true, filter: true }),
    category: enumOf("Category", CATEGORY_CODES, { required: true, filter: true, defaultValue: "regular" }),
    categoryId: relation("Programme Category", "categories", { list: false }),
    programTypeId: relation("Programme Type", "program_types"),
    subjectId: relation("Subject", "subjects", { required: true, filter: true }),
    curriculumIds: relation("Curriculums", "curriculums", { many: true }),
    levelIds: relation("Levels", "levels", { many: true }),
    tutorIds: relation("Tutors", "users", { many: true, labelField: "fullName", where: TUTORS_ONLY }),
    remark: longText("Remark"),
    curriculumFiles: files("Curriculum Files", { folder: "curriculum-files" }),
    enrolledStudents: number("Enrolled Students", { form: false }),
    WLWD: number("WLWD", { form: false, list: false }),
    WLWE: number("WLWE", { form: false, list: false }),
    DBWD: number("DBWD", { form: false, list: false }),
    DBWE: number("DBWE", { form: false, list: false }),
    DL: number("DL", { form: false, list: false }),
    general: number("General", { form: false, list: false }),
    special: number("Special", { form: false, list: false }),
  },
});
