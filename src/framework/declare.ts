/**
 * What resource files import: `defineResource` and the field helpers, without React pages, so the
 * declarations load anywhere (browser, server checks, tests).
 */
export { defineResource } from "./defineResource.ts";
export { text, longText, richText, number, money, date, time, dateTime, enumOf, boolean, relation, image, file, files, phone, email, amountRows } from "./fields.ts";
export type { Resource } from "./types.ts";
