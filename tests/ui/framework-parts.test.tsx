/** The framework's pure parts: selection, counter, link breaking, CSV, rich-text formats, routes and Refine entries. */
import { describe, expect, it, vi } from "vitest";
import { render } from "@testing-library/react";
import { resources } from "../../resources/index.ts";
import { companies } from "../../resources/companies.ts";
import { branches, classrooms } from "../../resources/branches.ts";
import { holidays } from "../../resources/holidays.ts";
import { enquiries } from "../../resources/enquiries.ts";
import { fillRoute, refineResources, resourcePages, listSelection, showSelection, formSelection, humanize } from "../../src/framework/index.ts";
import { recordCounter, permanentFilters } from "../../src/framework/pages/ListView.tsx";
import { splitLongLinks, TextWithLinks } from "../../src/framework/text.tsx";
import { csvCell, toCsv } from "../../src/framework/csv.ts";
import { BASE_COLOURS, BRAND_HUES, RICH_TEXT_FONTS, RICH_TEXT_PALETTE } from "../../src/framework/richText.ts";
import { KINDS, decodeRecord, encodeValues } from "../../src/framework/kinds.tsx";
import { backPath } from "../../src/framework/pages/FormPage.tsx";
import { registerResources } from "../../src/framework/registry.ts";
import { keyPathOf, mediaKey } from "../../src/framework/media.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

describe("the counter 'Viewing from X - Y (out of N records)'", () => {
  it.each([
    [1, 10, 10, 23, "Viewing from 1 - 10 (out of 23 records)"],
    [2, 10, 10, 23, "Viewing from 11 - 20 (out of 23 records)"],
    [3, 10, 3, 23, "Viewing from 21 - 23 (out of 23 records)"],
    [1, 10, 0, 0, "Viewing from 0 - 0 (out of 0 records)"],
  ])("page %i size %i showing %i of %i", (page, size, shown, total, text) => expect(recordCounter(page, size, shown, total)).toBe(text));
});

describe("long links inside text are broken after 60 characters", () => {
  const link = "https://example.com/" + "x".repeat(130); // 150 characters
  it("splits the link into 60-character pieces and leaves other text alone", () => {
    const parts = splitLongLinks(`see ${link} now`);
    expect(parts[0]).toEqual([{ text: "see ", link: false }]);
    expect(parts[1]!.map((p) => p.text.length)).toEqual([60, 60, 30]);
    expect(parts[1]!.map((p) => p.text).join("")).toBe(link);
    expect(parts[2]).toEqual([{ text: " now", link: false }]);
  });
  it("short links stay whole", () => expect(splitLongLinks("https://a.sg")[0]).toEqual([{ text: "https://a.sg", link: true }]));
  it("renders line breaks inside the link", () => {
    const { container } = render(<TextWithLinks value={link} />);
    const a = container.querySelector("a")!;
    expect(a.getAttribute("href")).toBe(link);
    expect(a.querySelectorAll("br")).toHaveLength(2);
  });
});

describe("CSV", () => {
  it("quotes, escapes and defuses formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("-S$1.00")).toBe("'-S$1.00");
    expect(toCsv(["A", "B"], [["1", "2"]])).toBe("\uFEFFA,B\r\n1,2\r\n");
  });
});

describe("rich text: the spec's font whitelist and 90 preset colours", () => {
  it("fonts", () =>
    expect(RICH_TEXT_FONTS).toEqual(["arial", "verdana", "tahoma", "timesnewroman", "georgia", "couriernew", "comicsansms", "trebuchetms", "impact", "helvetica", "variablefont"]));
  it("90 distinct colours: ten base colours plus transparency steps of seven brand hues", () => {
    expect(RICH_TEXT_PALETTE).toHaveLength(90);
    expect(new Set(RICH_TEXT_PALETTE).size).toBe(90);
    expect(RICH_TEXT_PALETTE.slice(0, 10)).toEqual([...BASE_COLOURS]);
    expect(BRAND_HUES).toHaveLength(7);
    const steps = RICH_TEXT_PALETTE.slice(10);
    expect(steps.every((c) => /^#[0-9a-f]{6}$|^rgba\(\d+, \d+, \d+, 0?\.\d+\)$/.test(c))).toBe(true);
  });
});

describe("resources → GraphQL selections, routes and Refine entries", () => {
  registerResources(resources);
  it("the selection is derived from the fields", () => {
    expect(listSelection(companies)).toEqual(["id", "logoUrl", "name", "shortName", "uen", "telNo", "hasGstNo", "gstRefNo", "updatedAt", "status"]);
    expect(showSelection(companies)).toContain("address");
    expect(formSelection(classrooms, "create")).toEqual(["id", "name", "capacity", "status", "branchId"]);
  });
  it("one page per spec route", () => {
    const paths = resourcePages([companies, branches, classrooms, holidays, enquiries]).map((p) => p.path);
    expect(paths).toEqual([
      "/company",
      "/company/create",
      "/company/:companyId/update",
      "/branch",
      "/branch/create",
      "/branch/:branchId/edit",
      "/branch/:branchId/detail",
      "/branch/:branchId/detail/class-room/add-new",
      "/branch/:branchId/detail/class-room/:id/edit",
      "/programme/holiday",
      "/programme/holiday/create",
      "/programme/holiday/:id/update",
      "/enquiry",
      "/enquiry/create",
      "/enquiry/:id/update",
    ]);
  });
  it("a route's page chunk can be started before the page renders: a generated list, the Create Account wizard, another resource's hand-written page, every route", async () => {
    const routes = resourcePages(resources);
    const preloaded = (path: string) => routes.find((r) => r.path === path)?.preload?.() as Promise<{ default: unknown }> | undefined;
    expect((await preloaded("/branch"))?.default).toBe((await import("../../src/framework/pages/ListPage.tsx")).default);
    expect((await preloaded("/student-management/create-account"))?.default).toBe((await import("../../src/pages/students/StudentWizardPage.tsx")).default);
    expect((await preloaded("/finance/payment-advice"))?.default).toBe((await import("../../src/pages/finance/PaymentAdviceListPage.tsx")).default);
    expect(routes.filter((r) => !r.preload).map((r) => r.path)).toEqual([]);
  });
  it("Refine entries name the table, use :id for the record and carry label, icon and menu group", () => {
    const entries = refineResources(resources);
    const company = entries.find((e) => e.name === "companies")!;
    expect(company).toMatchObject({ list: "/company", create: "/company/create", edit: "/company/:id/update", show: undefined });
    expect(company.meta).toMatchObject({ label: "Companies", parent: "companies", hide: false });
    expect(entries.find((e) => e.name === "classrooms")).toMatchObject({ edit: "/branch/:branchId/detail/class-room/:id/edit", meta: { hide: true } });
  });
  it("soft deletion and the parent filter the list", () => {
    expect(permanentFilters(classrooms, "b1")).toEqual([
      { operator: "and", key: "not-deleted", value: [{ field: "status", operator: "ne", value: "deleted" }] },
      { operator: "and", key: "parent", value: [{ field: "branchId", operator: "eq", value: "b1" }] },
    ]);
  });
  it("after saving a classroom the user goes back to the branch detail", () => {
    expect(backPath(classrooms, { branchId: "b1", id: "c1" })).toBe("/branch/b1/detail");
    expect(backPath(branches, { branchId: "b1" })).toBe("/branch");
    expect(fillRoute("/branch/:branchId/detail/class-room/:id/edit", { branchId: "b 1", id: "c" })).toBe("/branch/b%201/detail/class-room/c/edit");
  });
  it("humanises names", () => expect(humanize("gstRefNo")).toBe("Gst Ref No"));
});

describe("field kinds decode GraphQL values and encode form values", () => {
  const f = (name: string) => companies.fieldList.find((x) => x.name === name) ?? branches.fieldList.find((x) => x.name === name)!;
  it("money: numeric strings ↔ integer cents", () => {
    const money = { ...f("name"), kind: "money" as const };
    expect(KINDS.money.decode("1234.50", money)).toBe(123450);
    expect(KINDS.money.encode(123450, money)).toBe("1234.50");
    expect(KINDS.money.encode(null, money)).toBeNull();
    expect(KINDS.money.toText("-12.3", money)).toBe("-S$12.30");
  });
  it("date: YYYY-MM-DD both ways; dateTime: Singapore wall time ↔ UTC instant", () => {
    const d = { ...f("name"), kind: "date" as const };
    const dt = { ...f("name"), kind: "dateTime" as const };
    expect((KINDS.date.encode(KINDS.date.decode("2026-03-01", d), d))).toBe("2026-03-01");
    expect(KINDS.dateTime.encode(KINDS.dateTime.decode("2026-02-03T13:05:00Z", dt), dt)).toBe("2026-02-03T13:05:00.000Z");
    expect(KINDS.dateTime.toText("2026-02-03T13:05:00Z", dt)).toBe("21:05, 03/02/2026");
  });
  it("amount rows: {name, amount} with amounts in cents in the form", () => {
    const rows = { ...f("name"), kind: "amountRows" as const };
    expect(KINDS.amountRows.decode([{ name: "Deposit", amount: "100.5" }], rows)).toEqual([{ name: "Deposit", amount: 10050 }]);
    expect(KINDS.amountRows.encode([{ name: "Deposit", amount: 10050 }], rows)).toEqual([{ name: "Deposit", amount: "100.50" }]);
  });
  it("phone {code, number}", () => {
    const p = { ...f("name"), kind: "phone" as const };
    expect(KINDS.phone.toText({ code: "+65", number: "91234567" }, p)).toBe("+65 91234567");
    expect(KINDS.phone.encode({ code: "+65", number: "" }, p)).toBeNull();
  });
  it("empty text becomes null; only declared fields are sent", () => {
    expect(encodeValues(companies.fieldList, { name: "X", gstRefNo: "", other: 1 })).toEqual({ name: "X", gstRefNo: null });
    expect(decodeRecord(companies.fieldList.filter((x) => x.name === "hasGstNo"), { hasGstNo: null })).toEqual({ hasGstNo: false });
  });
});

describe("media keys from the browser", () => {
  it("keep the folder and a safe file name", () => expect(mediaKey("companies", "My Logo.png")).toMatch(/^companies\/\d+-[a-z0-9]+-My_Logo\.png$/));
  it("read the key back from a public URL", () => expect(keyPathOf("/media/public?key=companies%2Fa.png")).toBe("companies/a.png"));
});
