/**
 * The declaration options added for issue 7's leftovers, checked without a server: dialogs and path
 * defaults are refused when they contradict the routes (R008, R009); a new record's defaults come from
 * the path; a files column reads back whatever list of stored files it holds.
 */
import { describe, expect, it } from "vitest";
import { defineResource, ResourceDeclarationError } from "../../src/framework/defineResource.ts";
import { date, files, number, relation, text } from "../../src/framework/fields.ts";
import { createDefaults } from "../../src/framework/pages/FormPage.tsx";
import { storedFiles } from "../../src/framework/inputs/FilesUpload.tsx";
import { KINDS } from "../../src/framework/kinds.tsx";
import { discounts } from "../../resources/finance-setup.ts";
import { programs } from "../../resources/programmes.ts";
import { referrals } from "../../resources/rewards.ts";

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as ResourceDeclarationError).code;
  }
  return undefined;
};

describe("declarations", () => {
  it("refuses a page that is both a route and a dialog (R008)", () => {
    expect(codeOf(() => defineResource({ table: "gadgets", label: "Gadgets", routes: { list: "/g", edit: "/g/:id/edit" }, dialogs: ["edit"], fields: { name: text() } }))).toBe("R008");
  });

  it("refuses a default from a parameter the create route lacks (R009)", () => {
    expect(codeOf(() => defineResource({ table: "gadgets", label: "Gadgets", routes: { list: "/g", create: "/g/new" }, fields: { order: number("Order", { fromParam: "order" }) } }))).toBe("R009");
  });

  it("refuses an order between dates unless both are dates (R010)", () => {
    expect(codeOf(() => defineResource({ table: "gadgets", label: "Gadgets", routes: {}, fields: { name: text(), endDate: date("End", { notBefore: "name" }) } }))).toBe("R010");
    expect(codeOf(() => defineResource({ table: "gadgets", label: "Gadgets", routes: {}, fields: { startDate: date("Start"), endDate: date("End", { notBefore: "startDate" }) } }))).toBeUndefined();
  });

  it("declares the issue-7 screens with these options", () => {
    expect(discounts.dialogs).toEqual(["edit"]);
    expect(discounts.fieldList.find((f) => f.name === "order")?.fromParam).toBe("order");
    expect(discounts.fieldList.find((f) => f.name === "endDate")?.notBefore).toBe("startDate");
    const curriculumFiles = programs.fieldList.find((f) => f.name === "curriculumFiles")!;
    expect(curriculumFiles).toMatchObject({ kind: "files", list: false, form: true, show: true });
    expect(programs.fieldList.find((f) => f.name === "tutorIds")).toMatchObject({ where: { multipleRoles: { _has_keys_any: ["fulltime_tutor", "parttime_tutor", "hod", "tutor"] } } });
    expect(referrals.fieldList.find((f) => f.name === "referrerId")).toMatchObject({ where: { role: { _eq: "student" } } });
  });
});

describe("defaults from the path", () => {
  const resource = defineResource({
    table: "gadgets",
    label: "Gadgets",
    routes: { list: "/g", create: "/g/create/:order/:companyId" },
    fields: { order: number("Order", { min: 0, fromParam: "order", defaultValue: 0 }), companyId: relation("Company", "companies", { fromParam: "companyId" }), name: text() },
  });
  it("takes numbers and ids from the path, falling back to the declared default", () => {
    expect(createDefaults(resource.fieldList, { order: "42", companyId: "c-1" })).toEqual({ order: 42, companyId: "c-1" });
    expect(createDefaults(resource.fieldList, { order: "-3" })).toEqual({ order: 0 });
    expect(createDefaults(resource.fieldList, { order: "4.5" })).toEqual({ order: 0 });
    expect(createDefaults(resource.fieldList, { order: "abc" })).toEqual({ order: 0 });
  });
});

describe("files kind", () => {
  const field = defineResource({ table: "gadgets", label: "Gadgets", routes: {}, fields: { manuals: files("Manuals") } }).fieldList[0]!;
  it("reads back a list of { name, url }, names bare URLs by their key and drops anything else", () => {
    expect(storedFiles([{ name: "a.pdf", url: "/media/public?key=x%2F1-a.pdf" }, "/media/public?key=x%2F2-b.txt", 7, null])).toEqual([
      { name: "a.pdf", url: "/media/public?key=x%2F1-a.pdf" },
      { name: "2-b.txt", url: "/media/public?key=x%2F2-b.txt" },
    ]);
    expect(storedFiles(null)).toEqual([]);
    expect(KINDS.files.encode(undefined, field)).toEqual([]);
    expect(KINDS.files.toText([{ name: "a.pdf", url: "u1" }, { name: "b.txt", url: "u2" }], field)).toBe("a.pdf, b.txt");
  });
});
