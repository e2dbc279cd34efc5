import { defineResource, text, longText, date, dateTime, relation } from "../src/framework/declare.ts";

/** A public or centre holiday: a calendar day, optionally with a start and end time. */
export const holidays = defineResource({
  table: "holidays",
  label: "Holidays",
  singular: "Holiday",
  menu: "programmes",
  routes: { list: "/programme/holiday", create: "/programme/holiday/create", edit: "/programme/holiday/:id/update" },
  softDelete: true,
  recordLabel: "name",
  fields: {
    name: text("Holiday Name", { required: true, filter: true }),
    date: date("Date", { required: "Please select date!", filter: true }),
    startTime: dateTime("Start Time"),
    endTime: dateTime("End Time", { notBefore: "startTime" }),
    companyId: relation("Company", "companies", { filter: true }),
    description: longText("Description"),
  },
});
