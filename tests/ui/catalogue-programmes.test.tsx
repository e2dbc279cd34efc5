/**
 * Programmes (issue 7 §3) against the real in-process server, as ops_manager: a programme's curriculum
 * files are uploaded through the media presign/PUT flow, kept in programs.curriculumFiles and downloadable
 * from the view; the tutor picker offers only users holding a teaching role; programme types are created
 * and edited in a dialog on /programme/categories-type while the fixed categories stay read-only.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { TEACHING_ROLES } from "../../resources/users.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

const wait = { timeout: 20_000 };
/** The options of one select's dropdown (antd names its listbox "<input id>_list"). */
const optionsOf = (inputId: string) =>
  [...(document.getElementById(`${inputId}_list`)?.closest(".ant-select-dropdown")?.querySelectorAll(".ant-select-item-option") ?? [])] as HTMLElement[];

/** The dialog on screen, if any (jsdom never ends antd's closing animation: a leaving dialog is closed). */
const openDialog = () => document.querySelector(".ant-modal:not(.ant-zoom-leave)");

async function pickFirst(label: string, inputId: string, search?: string) {
  const user = userEvent.setup();
  fireEvent.mouseDown(screen.getByLabelText(label));
  if (search) await user.type(screen.getByLabelText(label), search);
  const option = await waitFor(() => {
    const o = optionsOf(inputId)[0];
    if (!o || (search && !o.getAttribute("title")?.includes(search))) throw new Error(`no option for ${label}`);
    return o;
  }, wait);
  fireEvent.click(option);
}

describe("programme management", () => {
  it("offers only tutors as tutors, uploads several curriculum files, and the view downloads them", async () => {
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, "/programme/management/create");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Programme Name", {}, wait), "Literature Weekly");
    await pickFirst("Company", "field-companyId", "Bright");
    await pickFirst("Subject", "field-subjectId");

    // tutors: every option holds a teaching role; a staff member without one is not offered
    const tutors = await server.db.query<{ fullName: string }>(
      `select "fullName" from users where "multipleRoles" ?| $1 and status <> 'deleted'`,
      [[...TEACHING_ROLES]],
    );
    const tutorNames = new Set(tutors.rows.map((r) => r.fullName));
    const others = await server.db.query<{ fullName: string }>(`select "fullName" from users where username = 'ops_manager'`);
    expect(tutorNames.has(others.rows[0]!.fullName)).toBe(false);
    fireEvent.mouseDown(screen.getByLabelText("Tutors"));
    await waitFor(() => expect(optionsOf("field-tutorIds").length).toBeGreaterThan(0), wait);
    for (const o of optionsOf("field-tutorIds")) expect(tutorNames.has(o.getAttribute("title")!)).toBe(true);
    await user.type(screen.getByLabelText("Tutors"), others.rows[0]!.fullName.split(" ")[0]!);
    await waitFor(() => expect(optionsOf("field-tutorIds")).toHaveLength(0), wait);
    await user.clear(screen.getByLabelText("Tutors"));
    const tutorName = [...tutorNames].sort()[0]!;
    await user.type(screen.getByLabelText("Tutors"), tutorName);
    fireEvent.click(await waitFor(() => optionsOf("field-tutorIds").find((o) => o.getAttribute("title") === tutorName) ?? Promise.reject(new Error("tutor not offered")), wait));

    // curriculum files: two at once, then a third; one removed again
    // rc-upload renews its <input> after each upload: look it up each time
    const input = () => document.querySelector("#field-curriculumFiles") as HTMLInputElement;
    await user.upload(input(), [
      new File(["Week 1: poetry"], "syllabus.txt", { type: "text/plain" }),
      new File(["%PDF-1.4 reading list"], "reading-list.pdf", { type: "application/pdf" }),
    ]);
    await screen.findByText("syllabus.txt", {}, wait);
    await screen.findByText("reading-list.pdf", {}, wait);
    await user.upload(input(), new File(["draft"], "draft.txt", { type: "text/plain" }));
    await screen.findByText("draft.txt", {}, wait);
    await user.click(screen.getByLabelText("Remove draft.txt"));
    await waitFor(() => expect(screen.queryByText("draft.txt")).toBeNull());

    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toMatch(/^\/programme\/management(\?|$)/), wait);
    const { rows } = await server.db.query<{ id: string; curriculumFiles: { name: string; url: string }[]; tutorIds: string[] }>(
      `select id, "curriculumFiles", "tutorIds" from programs where name = 'Literature Weekly'`,
    );
    expect(rows).toHaveLength(1);
    const files = rows[0]!.curriculumFiles;
    expect(files.map((f) => f.name).sort()).toEqual(["reading-list.pdf", "syllabus.txt"]);
    for (const f of files) expect(f.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/public\?key=curriculum-files%2F/);
    expect(rows[0]!.tutorIds).toHaveLength(1);

    // the stored files are served back as they were uploaded
    const syllabus = files.find((f) => f.name === "syllabus.txt")!;
    expect(await (await fetch(syllabus.url)).text()).toBe("Week 1: poetry");

    // the view lists them as download links
    fireEvent.click(await within((await screen.findByText("Literature Weekly", {}, wait)).closest("tr")!).findByLabelText("View", {}, wait));
    await waitFor(() => expect(probe.location).toBe(`/programme/management/${rows[0]!.id}/view`), wait);
    const link = (await screen.findByText("syllabus.txt", {}, wait)).closest("a")!;
    expect(link.getAttribute("href")).toMatch(/\/media\/download\?key=curriculum-files%2F.+syllabus\.txt$/);
    const download = await fetch(link.getAttribute("href")!);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("Week 1: poetry");
    expect(screen.getByText("reading-list.pdf")).toBeTruthy();
    await waitFor(() => expect(document.querySelector(".ant-descriptions")!.textContent).toContain(tutorName), wait);
  }, 120_000);
});

describe("categories & type", () => {
  it("creates and edits a programme type in a dialog; the categories stay read-only", async () => {
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, "/programme/categories-type");
    const user = userEvent.setup();
    const categoriesCard = (await screen.findByText("Programme Categories", {}, wait)).closest(".ant-card") as HTMLElement;
    await waitFor(() => expect(within(categoriesCard).getAllByText("Double Lesson").length).toBeGreaterThan(0), wait);
    expect(within(categoriesCard).queryByLabelText("Edit")).toBeNull();
    expect(within(categoriesCard).queryByRole("button", { name: /Create/ })).toBeNull();

    const typesCard = screen.getByText("Programme Types").closest(".ant-card") as HTMLElement;
    await user.click(await within(typesCard).findByRole("button", { name: /Create/ }, wait));
    const dialog = await screen.findByRole("dialog", {}, wait);
    expect(within(dialog).getByText("Create Programme Type")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Please input Programme Type!")).toBeTruthy();
    await user.type(within(dialog).getByLabelText("Programme Type"), "Holiday Camp");
    await user.type(within(dialog).getByLabelText("Full Name"), "Holiday Camp Programme");
    fireEvent.mouseDown(within(dialog).getByLabelText("Category"));
    fireEvent.click(await waitFor(() => optionsOf("field-categoryId").find((o) => o.getAttribute("title") === "Special") ?? Promise.reject(new Error("no Special")), wait));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(openDialog()).toBeNull(), wait);
    const created = await server.db.query<{ id: string; code: string }>(
      `select p.id, c.code from program_types p join categories c on c.id = p."categoryId" where p.name = 'Holiday Camp' and p."fullName" = 'Holiday Camp Programme'`,
    );
    expect(created.rows).toEqual([{ id: expect.any(String), code: "special" }]);
    expect(probe.location).toBe("/programme/categories-type");

    // listed at once, then edited in the same dialog
    const row = await waitFor(() => {
      const r = [...typesCard.querySelectorAll("tr.ant-table-row")].find((tr) => tr.textContent?.includes("Holiday Camp")) as HTMLElement | undefined;
      if (!r) throw new Error("not listed yet");
      return r;
    }, wait);
    await user.click(await within(row).findByLabelText("Edit", {}, wait));
    const editDialog = (await waitFor(() => openDialog() ?? Promise.reject(new Error("no dialog")), wait)) as HTMLElement;
    expect(within(editDialog).getByText("Edit Programme Type")).toBeTruthy();
    const name = (await within(editDialog).findByLabelText("Programme Type", {}, wait)) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe("Holiday Camp"), wait);
    await user.clear(name);
    await user.type(name, "Holiday Camp (June)");
    await user.click(within(editDialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(openDialog()).toBeNull(), wait);
    const edited = await server.db.query<{ name: string }>(`select name from program_types where id = $1`, [created.rows[0]!.id]);
    expect(edited.rows[0]!.name).toBe("Holiday Camp (June)");
    await waitFor(() => expect(typesCard.textContent).toContain("Holiday Camp (June)"), wait);
  }, 120_000);
});
