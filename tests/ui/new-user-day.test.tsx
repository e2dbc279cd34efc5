/**
 * A new user's day (issue 37) against the real in-process server: what a member of staff hit on first use —
 * dates typed as DD/MM/YYYY, Enter in a date field, labels in words, screens that open where work is.
 */
import { describe, expect, it, vi } from "vitest";
import { cleanup as cleanupRender, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { formatDay, todayInSingapore } from "../../src/domain/dates.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 60_000 };
const one = async <T,>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;

describe("a new user's day: dates", () => {
  it("a date of birth typed as 15/03/2012 is kept and shown as 15/03/2012, and Enter in the field does not submit the form", async () => {
    const student = (await server.db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' order by username limit 1`)).rows[0]!;
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/student-management/edit-account/${student.id}`);
    const user = userEvent.setup();
    const dob = (await screen.findByLabelText("Date of Birth", {}, wait)) as HTMLInputElement;
    await user.clear(dob);
    await user.type(dob, "15/03/2012{Enter}");
    await waitFor(() => expect(dob.value).toBe("15/03/2012"));
    // Enter picked the day; the form was not sent
    expect(probe.location).toBe(`/student-management/edit-account/${student.id}`);
    fireEvent.blur(dob);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toBe(`/student-management/student/${student.id}/view`), wait);
    const saved = (await server.db.query<{ dob: string }>(`select to_char(dob, 'YYYY-MM-DD') as dob from users where id = $1`, [student.id])).rows[0]!;
    expect(saved.dob).toBe("2012-03-15");
    expect(await screen.findByText("15/03/2012", {}, wait)).toBeTruthy();
  }, 180_000);
});

describe("a new user's day: first impressions", () => {
  it("the attendance list opens on today's lessons, its dates as DD/MM/YYYY", async () => {
    const today = todayInSingapore();
    const { n } = await one<{ n: number }>(`select count(*)::int as n from lessons where date = $1::date and status <> 'deleted' and "lessonStatus" <> 'deleted'`, [today]);
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, "/attendance/list");
    await screen.findByTestId("attendance-list", {}, wait);
    const [from, to] = [...document.querySelectorAll<HTMLInputElement>("form[aria-label='Filters'] .ant-picker input")];
    expect([from!.value, to!.value]).toEqual([formatDay(today), formatDay(today)]);
    await waitFor(() => expect(document.body.textContent).toContain(`(out of ${n} records)`), wait);
    const dates = [...document.querySelectorAll("[data-testid='attendance-list'] tbody tr td:first-child a")].map((a) => a.textContent);
    expect(dates.every((d) => d === formatDay(today))).toBe(true);
  }, 180_000);

  it("a student's Deposits tab names the payment advice and shows statuses in words: a deposit a refund paid back reads Refunded", async () => {
    const d = await one<{ studentId: string; pa: string }>(
      `select d."studentId", pa.name as pa from deposits d join payment_advices pa on pa.id = d."paymentAdviceId" where pa.name is not null and d.status = 'active' and d."depositStatus" = 'refunded' order by d.name limit 1`,
    );
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/student-management/student/${d.studentId}/view`);
    fireEvent.click(await screen.findByRole("tab", { name: "Deposits" }, wait));
    const link = await screen.findByRole("link", { name: d.pa }, wait);
    expect(screen.queryByRole("link", { name: "Open" })).toBeNull();
    expect(link.closest("tr")!.textContent).toContain("Refunded");
  }, 180_000);
});

describe("a new user's day: curriculum and level filters", () => {
  it("the student list's curriculum options name their company, so two companies' \"A Level\" are told apart", async () => {
    const c = await one<{ name: string; company: string }>(
      `select c.name, co.name as company from curriculums c join companies co on co.id = c."companyId" where c.status <> 'deleted' order by c.name limit 1`,
    );
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/student-management");
    fireEvent.mouseDown(await screen.findByLabelText("Curriculum", {}, wait));
    expect(await screen.findByTitle(`${c.name} (${c.company})`, {}, wait)).toBeTruthy();
  }, 180_000);
});

describe("a new user's day: no dead ends, nothing by accident", () => {
  it("a credit note without a number reads Draft in the list; Send to Finance asks first, and Cancel changes nothing", async () => {
    const draft = await one<{ id: string }>(`select id from credit_notes where name is null and "creditNoteStatus" = 'awaiting_front_desk_action' and type = 'suspension' and status = 'active' order by "updatedAt" desc limit 1`);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/finance/credit-note");
    expect((await screen.findAllByText("Draft", {}, wait)).length).toBeGreaterThan(0);
    cleanupRender();
    await renderResources(resources, `/finance/credit-note/update/${draft.id}`);
    fireEvent.click(await screen.findByRole("button", { name: "Send to Finance" }, wait));
    expect((await screen.findAllByText("Send to Finance?", {}, wait)).length).toBeGreaterThan(0);
    for (const cancel of [...document.querySelectorAll<HTMLButtonElement>(".ant-modal-confirm-btns button")].filter((b) => b.textContent === "Cancel")) fireEvent.click(cancel);
    expect(await one(`select "creditNoteStatus" from credit_notes where id = $1`, [draft.id])).toEqual({ creditNoteStatus: "awaiting_front_desk_action" });
  }, 180_000);
});

describe("a new user's day: a step is checked before it is confirmed", () => {
  it("Approve & Refund with no payee: the message shows under Payee Name before any confirmation, and goes once a payee is typed", async () => {
    const r = await one<{ id: string }>(`select id from refunds where "refundStatus" = 'awaiting_finance_approval' and status = 'active' order by "updatedAt" desc limit 1`);
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, `/finance/refund/${r.id}`);
    const payee = (await screen.findByLabelText("Payee Name", {}, wait)) as HTMLInputElement;
    await waitFor(() => expect(payee.value).not.toBe(""), wait);
    const flagged = () => payee.closest(".ant-form-item")!.classList.contains("ant-form-item-has-error");
    fireEvent.change(payee, { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Approve & Refund" }));
    await waitFor(() => expect([flagged(), payee.closest(".ant-form-item")!.textContent]).toEqual([true, "Payee NamePlease fill in the payee details and the refund method."]), wait);
    expect(screen.queryByText("Approve & Refund?")).toBeNull();
    // the field has no rule of its own: the message goes when the user fixes it, not at the next save
    fireEvent.change(payee, { target: { value: "Parent of student" } });
    await waitFor(() => expect(flagged()).toBe(false), wait);
    expect(await one(`select "refundStatus" from refunds where id = $1`, [r.id])).toEqual({ refundStatus: "awaiting_finance_approval" });
  }, 180_000);
});

describe("a new user's day: no lost work", () => {
  it("a draft payment advice offers Delete, which asks first and then removes the draft", async () => {
    const draft = await one<{ id: string }>(`select id from payment_advices where "paymentStatus" = 'draft' and status <> 'deleted' order by "updatedAt" desc limit 1`);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/finance/payment-advice/edit/${draft.id}`);
    fireEvent.click(await screen.findByRole("button", { name: "Delete" }, wait));
    expect((await screen.findAllByText("Delete this draft?", {}, wait)).length).toBeGreaterThan(0);
    const ok = [...document.querySelectorAll<HTMLButtonElement>(".ant-modal-confirm-btns button")].find((b) => b.textContent === "Delete")!;
    fireEvent.click(ok);
    await waitFor(() => expect(probe.location).toBe("/finance/payment-advice"), wait);
    expect(await one(`select status from payment_advices where id = $1`, [draft.id])).toEqual({ status: "deleted" });
  }, 180_000);
});

describe("a new user's day: unsaved work is not lost silently", () => {
  it("attendance marks not yet saved: Back asks Refine's unsaved-changes question, and answering Cancel stays on the lesson", async () => {
    const { lessonId } = await one<{ lessonId: string }>(
      `select ls."lessonId" from lessons_students ls join lessons l on l.id = ls."lessonId"
       where ls.status in ('attended', 'not_attended') and ls.type in ('enrolled', 'transferred') and l."lessonStatus" = 'active' and l.status = 'active' order by l.date desc limit 1`,
    );
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, `/attendance/detail/${lessonId}`);
    const remarks = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>("[data-testid='attendance-students'] tbody input.ant-input");
      expect(input).toBeTruthy();
      return input!;
    }, wait);
    fireEvent.change(remarks, { target: { value: "Came late" } });
    // jsdom has no dialogs: the user's answer to the browser's confirm() is Cancel
    const asked = vi.spyOn(window, "confirm").mockReturnValue(false);
    try {
      fireEvent.click(screen.getByRole("button", { name: "Back" }));
      expect(asked).toHaveBeenCalledWith("Are you sure you want to leave? You have unsaved changes.");
      expect(probe.location).toBe(`/attendance/detail/${lessonId}`);
    } finally {
      asked.mockRestore();
    }
  }, 180_000);
});
