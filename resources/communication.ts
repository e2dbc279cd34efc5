import { lazyPage } from "../src/framework/routes.tsx";
import { NotificationOutlined } from "@ant-design/icons";
import { defineResource, text, enumOf, relation, date, dateTime, image } from "../src/framework/declare.ts";
import { RECIPIENT_TYPES } from "../src/domain/communication.ts";

// Pages read it from src/domain (no import circle through the resources); re-exported for older imports.
export { RECIPIENT_TYPES };
/** Free-text in the spec; the values the send call writes. */
export const SEND_STATUSES = { draft: "Draft", scheduled: "Scheduled", sent: "Sent", failed: "Failed" } as const;

/** A broadcast by e-mail, SMS and/or app notification to filtered students or parents. */
export const broadcasts = defineResource({
  table: "broadcasts",
  label: "Broadcast",
  singular: "Broadcast",
  icon: NotificationOutlined,
  menu: "communication",
  routes: {
    list: "/communication/broadcast",
    show: "/communication/broadcast/broadcast-detail/:id",
    create: "/communication/broadcast/create",
    edit: "/communication/broadcast/update/:id",
  },
  softDelete: true,
  recordLabel: "title",
  fields: {
    title: text("Title", { required: true, filter: true }),
    subject: text("Subject"),
    recipientType: enumOf("Recipient Type", RECIPIENT_TYPES, { filter: true }),
    companyId: relation("Company", "companies", { filter: true }),
    broadcastStatus: enumOf("Status", SEND_STATUSES, { filter: true, form: false }),
    sentAt: dateTime("Sent At", { form: false }),
  },
  pages: {
    create: lazyPage(() => import("../src/pages/communication/BroadcastFormPage.tsx")),
    edit: lazyPage(() => import("../src/pages/communication/BroadcastFormPage.tsx")),
    show: lazyPage(() => import("../src/pages/communication/BroadcastDetailPage.tsx")),
  },
});

/** News with cover image and hashtags, to filtered recipients and/or recipients uploaded from a file. */
export const news = defineResource({
  table: "news",
  label: "News",
  singular: "News",
  menu: "communication",
  routes: {
    list: "/communication/news",
    show: "/communication/news/news-detail/:id",
    create: "/communication/news/create",
    edit: "/communication/news/update/:id",
  },
  softDelete: true,
  recordLabel: "title",
  fields: {
    coverUrl: image("Cover", { folder: "news" }),
    title: text("Title", { required: true, filter: true }),
    subject: text("Subject"),
    type: text("Type", { filter: true }),
    recipientType: enumOf("Recipient Type", RECIPIENT_TYPES, { filter: true }),
    newsStatus: enumOf("Status", SEND_STATUSES, { filter: true, form: false }),
    sentAt: dateTime("Sent At", { form: false }),
  },
  pages: {
    create: lazyPage(() => import("../src/pages/communication/NewsFormPage.tsx")),
    edit: lazyPage(() => import("../src/pages/communication/NewsFormPage.tsx")),
    show: lazyPage(() => import("../src/pages/communication/NewsDetailPage.tsx")),
  },
});

/** Students absent three times in a class, with the e-mail sent about it. */
export const threeTimesAbsents = defineResource({
  table: "three_times_absents",
  label: "Three Times Absent",
  singular: "Three Times Absent",
  menu: "communication",
  routes: { list: "/communication/three-times-absent" },
  softDelete: true,
  deletable: false,
  fields: {
    studentId: relation("Student", "users", { labelField: "fullName", filter: true }),
    classId: relation("Class", "classes", { filter: true }),
    emailStatus: enumOf("Email Status", { sent: "Sent", failed: "Failed", pending: "Pending" }, { filter: true }),
    absentDates: date("Absent Dates", { form: false, sortable: false }),
    createdAt: dateTime("Recorded At", { form: false }),
  },
});

/**
 * Unsubscribers are students with subscribe = false (no table of their own). The framework names a
 * resource by its table, so this page-only route rides on the broadcast logs table (see DECISIONS).
 */
export const unsubscribers = defineResource({
  table: "broadcast_logs",
  label: "Unsubscribers",
  singular: "Unsubscriber",
  menu: "communication",
  routes: { list: "/communication/unsubscribers" },
  deletable: false,
  exportable: false,
  fields: {},
  pages: { list: lazyPage(() => import("../src/pages/communication/UnsubscribersPage.tsx")) },
});
