import { ReadOutlined } from "@ant-design/icons";
import { defineResource, text, number, relation, richText, dateTime, date, boolean, image } from "../src/framework/declare.ts";

/** Content categories of the posts (spec part 2 §2 "Content management"). */
export const contentCategories = defineResource({
  table: "content_categories",
  label: "Category",
  singular: "Category",
  icon: ReadOutlined,
  menu: "content-management",
  routes: { list: "/content-management/category", create: "/content-management/category/create", edit: "/content-management/category/:categoryId/update" },
  softDelete: true,
  fields: {
    name: text("Category Name", { required: true, filter: true }),
    order: number("Order", { min: 0, defaultValue: 0 }),
  },
});

/** Resource categories: a first level (no parent) and a second level under a first-level one. */
export const resourceCategories = defineResource({
  table: "resource_categories",
  label: "Resource Category",
  singular: "Resource Category",
  menu: "content-management",
  routes: {
    list: "/content-management/resource/category",
    create: "/content-management/resource/category/create",
    edit: "/content-management/resource/category/:rsCategoryId/update",
  },
  softDelete: true,
  fields: {
    name: text("Category Name", { required: true, filter: true }),
    level: number("Level", { required: true, min: 1, max: 2, defaultValue: 1, filter: true, help: "1: first level; 2: second level (choose its first-level parent)." }),
    parentId: relation("First-level Category", "resource_categories", { filter: true }),
    order: number("Order", { min: 0, defaultValue: 0 }),
  },
});

/** A post of the mobile app and website: rich text content, display flag and dates. */
export const posts = defineResource({
  table: "posts",
  label: "Post",
  singular: "Post",
  menu: "content-management",
  routes: { list: "/content-management/post", create: "/content-management/post/create", edit: "/content-management/post/:postId/update" },
  softDelete: true,
  recordLabel: "title",
  fields: {
    coverUrl: image("Cover Image", { folder: "posts" }),
    title: text("Title", { required: true, filter: true }),
    contentCategoryId: relation("Category", "content_categories", { required: true, filter: true }),
    content: richText("Content", { required: true }),
    datePosted: dateTime("Date Posted"),
    startDate: date("Start Date", { filter: true }),
    endDate: date("End Date", { notBefore: "startDate" }),
    isDisplay: boolean("Display", { filter: true, defaultValue: true }),
  },
});

/** A resource (worksheet, paper…) of a resource category, with its link. */
export const resourcePosts = defineResource({
  table: "resource_posts",
  label: "Resource Detail",
  singular: "Resource",
  menu: "content-management",
  routes: {
    list: "/content-management/resource/detail",
    create: "/content-management/resource/detail/create",
    edit: "/content-management/resource/detail/:rsId/update",
  },
  softDelete: true,
  recordLabel: "title",
  fields: {
    coverUrl: image("Cover Image", { folder: "resources" }),
    title: text("Title", { required: true, filter: true }),
    resourceCategoryId: relation("Resource Category", "resource_categories", { required: true, filter: true }),
    link: text("Link"),
    content: richText("Content"),
    datePosted: dateTime("Date Posted"),
    isDisplay: boolean("Display", { filter: true, defaultValue: true }),
  },
});

/** A survey: title, link, date and rich text content. */
export const surveys = defineResource({
  table: "surveys",
  label: "Survey",
  singular: "Survey",
  menu: "content-management",
  routes: { list: "/content-management/survey", create: "/content-management/survey/create", edit: "/content-management/survey/:surveyId/update" },
  softDelete: true,
  recordLabel: "title",
  fields: {
    title: text("Title", { required: true, filter: true }),
    link: text("Link"),
    date: date("Date", { filter: true }),
    content: richText("Content"),
  },
});
