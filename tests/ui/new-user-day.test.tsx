/**
 * A new user's day (issue 37) against the real in-process server: what a member of staff hit on first use —
 * dates typed as DD/MM/YYYY, Enter in a date field, labels in words, screens that open where work is.
 */
import { describe, expect, it, vi } from "vitest";
import { act, cleanup as cleanupRender, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { formatDay, todayInSingapore } from "../../src/domain/dates.ts";
import { api } from "../../src/app/api.ts";
import { enrolmentsWithLessonsAhead } from "../support/finance.ts";
import { callerAs, paidPaVia, type Caller } from "../support/ui-api.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

// each test signs in: more than the default 10 credential calls a minute from one address when tests run fast
const server = useUiServer({ AUTH_RATE_LIMIT: "1000" });
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
  it("the student list's curriculum and level options name their company, so two companies' \"A Level\" are told apart; its filter boxes are wide enough to read", async () => {
    // a name two companies both use, for curricula and for levels
    const twice = async (table: string) =>
      (await server.db.query<{ title: string }>(
        `select t.name || ' (' || co.name || ')' as title from ${table} t join companies co on co.id = t."companyId"
         where t.status <> 'deleted' and t.name in (select name from ${table} where status <> 'deleted' group by name having count(distinct "companyId") > 1)
         order by t.name, co.name limit 2`,
      )).rows.map((r) => r.title);
    const [curricula, levels] = [await twice("curriculums"), await twice("levels")];
    expect([curricula.length, levels.length]).toEqual([2, 2]);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/student-management");
    fireEvent.mouseDown(await screen.findByLabelText("Curriculum", {}, wait));
    for (const title of curricula) expect(await screen.findByTitle(title, {}, wait)).toBeTruthy();
    fireEvent.mouseDown(screen.getByLabelText("Level"));
    for (const title of levels) expect(await screen.findByTitle(title, {}, wait)).toBeTruthy();
    // jsdom lays nothing out: the width each filter box is given
    const widths = ["Branch", "Curriculum", "Level", "School"].map((label) => (screen.getByLabelText(label).closest(".ant-select") as HTMLElement).style.minWidth);
    expect(widths).toEqual(["200px", "200px", "200px", "200px"]);
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
  it("Approve & Refund with no payee: the message shows under Payee Name before any confirmation; the payee typed, the refund is approved and no message is left", async () => {
    // a refund waiting on the finance manager, its method chosen and no payee yet, made through the calls staff make
    const [e] = await enrolmentsWithLessonsAhead(server, 1);
    const [frontDesk, sales, financeManager] = [await callerAs(server.baseUrl, "front_desk"), await callerAs(server.baseUrl, "sales"), await callerAs(server.baseUrl, "finance_manager")];
    await paidPaVia(frontDesk, e!, e!.studentId);
    const created = await frontDesk("POST", "/refund", { type: "withdrawal", studentId: e!.studentId, classId: e!.id, noticeDate: todayInSingapore(), lastLessonDate: e!.lessons[0]!.date, reason: "Moving abroad" });
    expect(created.status, created.message).toBe(201);
    const id = created.data.refundId as string;
    const step = async (as: Caller, method: string, path: string, body: Record<string, unknown>) => {
      const reply = await as(method, path, { ...body, updatedAt: (await as("GET", `/refund/${id}`)).data.updatedAt });
      expect(reply.status, reply.message).toBe(200);
    };
    await step(frontDesk, "PATCH", `/refund/${id}/change-refund-status`, { status: "awaiting_sale_action" });
    await step(sales, "PATCH", `/refund/${id}`, { studentFeedback: { feedback: "Family moving abroad" }, rating: "good" });
    await step(sales, "PATCH", `/refund/${id}/change-refund-status`, { status: "awaiting_finance_approval" });
    await step(financeManager, "PATCH", `/refund/${id}`, { refundMethod: "cheque" });

    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, `/finance/refund/${id}`);
    const payee = (await screen.findByLabelText("Payee Name", {}, wait)) as HTMLInputElement;
    const item = () => payee.closest(".ant-form-item")!;
    fireEvent.click(screen.getByRole("button", { name: "Approve & Refund" }));
    await waitFor(() => expect([item().classList.contains("ant-form-item-has-error"), item().textContent]).toEqual([true, "Payee NamePlease fill in the payee details and the refund method."]), wait);
    expect(screen.queryByText("Approve & Refund?")).toBeNull();
    expect(await one(`select "refundStatus" from refunds where id = $1`, [id])).toEqual({ refundStatus: "awaiting_finance_approval" });
    // the field has no rule of its own: the message must go with the user's fix, or it stays after the step succeeds
    fireEvent.change(payee, { target: { value: "Parent of student" } });
    fireEvent.click(screen.getByRole("button", { name: "Approve & Refund" }));
    expect((await screen.findAllByText("Approve & Refund?", {}, wait)).length).toBeGreaterThan(0);
    fireEvent.click([...document.querySelectorAll<HTMLButtonElement>(".ant-modal-confirm-btns button")].find((b) => b.textContent === "Approve & Refund")!);
    await waitFor(() => expect(screen.getByTestId("refund-number").textContent).toMatch(/^RF-/), wait);
    expect(await one(`select "refundStatus", "payeeDetails"->>'name' as payee from refunds where id = $1`, [id])).toEqual({ refundStatus: "refunded", payee: "Parent of student" });
    // antd lets the message fade out: it goes once the field is no longer in error
    await waitFor(() => expect([item().classList.contains("ant-form-item-has-error"), item().textContent]).toEqual([false, "Payee Name"]), wait);
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

describe("a new user's day: one date format", () => {
  const iso = /\d{4}-\d{2}-\d{2}/;
  const day = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

  it("a class's lessons and transfer requests read DD/MM/YYYY, none as YYYY-MM-DD", async () => {
    const c = await one<{ classId: string; transferDay: string; lessonDay: string }>(
      `select t."fromClassId" as "classId", to_char(t."lessonStartDate", 'YYYY-MM-DD') as "transferDay",
        (select to_char(l.date, 'YYYY-MM-DD') from lessons l where l."classId" = t."fromClassId" and l.status <> 'deleted' and l."lessonStatus" <> 'deleted' order by l.date limit 1) as "lessonDay"
       from request_transfer_classes t where t.status <> 'deleted' and t."lessonStartDate" is not null order by t."createdAt" desc limit 1`,
    );
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, `/class/management/${c.classId}/view`);
    const lessons = await screen.findByTestId("class-lessons", {}, wait);
    await waitFor(() => expect(lessons.querySelector("tbody tr.ant-table-row td:nth-child(2)")?.textContent).toBe(day(c.lessonDay)), wait);
    await screen.findAllByText(day(c.transferDay), {}, wait);
    expect(document.body.textContent).not.toMatch(iso);
  }, 180_000);

  it("an academic calendar's terms read DD/MM/YYYY", async () => {
    const term = await one<{ calendarId: string; start: string }>(
      `select t."academicCalendarId" as "calendarId", to_char(t."startDate", 'YYYY-MM-DD') as start from terms t join academic_calendars a on a.id = t."academicCalendarId"
       where t.status <> 'deleted' and a.status <> 'deleted' order by a.name, t."startDate" limit 1`,
    );
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, `/programme/academic-term/${term.calendarId}/edit`);
    await waitFor(() => expect((screen.getByLabelText("Term 1 start date") as HTMLInputElement).value).toBe(day(term.start)), wait);
  }, 180_000);

  it("the suspension list reads its dates DD/MM/YYYY, none as YYYY-MM-DD", async () => {
    const { start } = await one<{ start: string }>(`select to_char("startDate", 'YYYY-MM-DD') as start from suspensions where status <> 'deleted' order by "updatedAt" desc limit 1`);
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, "/suspension");
    expect((await screen.findAllByText(day(start), {}, wait)).length).toBeGreaterThan(0);
    expect(document.body.textContent).not.toMatch(iso);
  }, 180_000);

  it("an invoice's payments and the Payment Date of a new payment read DD/MM/YYYY", async () => {
    const inv = await one<{ paId: string; id: string; paid: string }>(
      `select i."paymentAdviceId" as "paId", i.id, to_char(r."receiptDate", 'YYYY-MM-DD') as paid from invoices i join receipts r on r."invoiceId" = i.id
       where i."invoiceStatus" = 'partial_payment' and r.status = 'active' order by i.name limit 1`,
    );
    await signInAs(server.baseUrl, "ops_manager");
    await renderResources(resources, `/finance/invoice/${inv.paId}/${inv.id}`);
    expect((await screen.findAllByText(day(inv.paid), {}, wait)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole("button", { name: "Record payment" }));
    const paymentDate = (await screen.findByLabelText("Payment Date", {}, wait)) as HTMLInputElement;
    expect(paymentDate.placeholder).toBe(formatDay(todayInSingapore()));
    expect(document.body.textContent).not.toMatch(iso);
  }, 180_000);
});

/** Leaves the page as an in-app link would, the user answering the browser's "leave?" with Cancel; what was asked. */
async function leaveAnsweringCancel(to: string): Promise<unknown[][]> {
  const asked = vi.spyOn(window, "confirm").mockReturnValue(false);
  try {
    await act(async () => probe.navigate(to));
    return asked.mock.calls;
  } finally {
    asked.mockRestore();
  }
}
const UNSAVED = "Are you sure you want to leave? You have unsaved changes.";

describe("a new user's day: unsaved work on the wizard and the PA builder", () => {
  it("wizard step 2: a parent's name typed, then leaving asks first, and Cancel stays on the step", async () => {
    const { id: branchId } = await one<{ id: string }>(`select id from branches where status = 'active' order by name limit 1`);
    await signInAs(server.baseUrl, "front_desk");
    // a draft whose account step is saved: the wizard resumes it at step 2 (Family)
    const draft = (await api<{ id: string }>("POST", "/student-profiles/init", { firstName: "Leave", lastName: "Test", username: "leave.test", branchId })).data!;
    await renderResources(resources, `/student-management/create-account?id=${draft.id}`);
    const first = await screen.findByLabelText("First Name", { selector: "#parent-0-firstName" }, wait);
    fireEvent.change(first, { target: { value: "Kok-Wah" } });
    expect(await leaveAnsweringCancel("/student-management")).toEqual([[UNSAVED]]);
    expect(probe.location).toBe(`/student-management/create-account?id=${draft.id}`);
    expect((screen.getByLabelText("First Name", { selector: "#parent-0-firstName" }) as HTMLInputElement).value).toBe("Kok-Wah");
  }, 180_000);

  it("PA builder: a draft opened and left untouched leaves without asking; a class just added, leaving asks first, and Cancel keeps the class on the page", async () => {
    // a draft with no class yet and notes (the rich-text editor shows them): any class of its company may be added
    const pa = await one<{ id: string }>(
      `update payment_advices set "classInformations" = '[]' where id = (select id from payment_advices where "paymentStatus" = 'draft' and status <> 'deleted'
         and "companyId" is not null and "studentId" is not null and coalesce(notes, '') <> '' order by "updatedAt" desc limit 1) returning id`,
    );
    const path = `/finance/payment-advice/edit/${pa.id}`;
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, path);
    // the notes are in the editor: nothing was changed, so nothing is asked
    await waitFor(() => expect(document.querySelector(".ql-editor")?.textContent).not.toBe(""), wait);
    await screen.findByRole("button", { name: /Add Class/ }, wait);
    expect(await leaveAnsweringCancel("/finance/payment-advice")).toEqual([]);
    // the list may already have put its paging in the address
    expect(probe.location).toMatch(/^\/finance\/payment-advice($|\?)/);

    await act(async () => probe.navigate(path));
    fireEvent.click(await screen.findByRole("button", { name: /Add Class/ }, wait));
    const picker = await waitFor(() => {
      const dialog = screen.getAllByRole("dialog").find((d) => d.textContent?.includes("Select a Programme & Class"));
      expect(dialog).toBeTruthy();
      return dialog!;
    }, wait);
    fireEvent.click(await within(picker).findByRole("button", { name: "Apply" }, wait));
    const row = await waitFor(() => {
      const first = picker.querySelector<HTMLInputElement>("[data-testid='picker-classes'] tbody tr.ant-table-row input[type='checkbox']");
      expect(first).toBeTruthy();
      return first!;
    }, wait);
    fireEvent.click(row);
    fireEvent.click(within(picker).getByRole("button", { name: "Add to Payment" }));
    await waitFor(() => expect(screen.getAllByTestId("class-card")).toHaveLength(1), wait);
    expect(await leaveAnsweringCancel("/finance/payment-advice")).toEqual([[UNSAVED]]);
    expect(probe.location).toBe(path);
    expect(screen.getAllByTestId("class-card")).toHaveLength(1);
  }, 180_000);
});

describe("a new user's day: reports, the profile and a step's messages", () => {
  it("a report's figures and totals keep each number on one line (nowrap)", async () => {
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, "/report/daily-closing-report");
    const total = await screen.findByTestId("report-total-total", {}, wait);
    await waitFor(() => expect(total.textContent).toMatch(/^S\$/), wait);
    // jsdom lays nothing out: the style that keeps "S$1,769.37" whole
    expect(total.style.whiteSpace).toBe("nowrap");
    const cells = [...document.querySelectorAll<HTMLElement>(".ant-table-tbody tr.ant-table-row td")];
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((td) => td.style.whiteSpace === "nowrap")).toBe(true);
  }, 180_000);

  it("a student's Attendance tab lists lessons by date, newest first, even after a mark on an old lesson was changed", async () => {
    const s = await one<{ studentId: string; oldest: string }>(
      `select ls."studentId", (array_agg(ls.id order by l.date, ls.id))[1] as oldest from lessons_students ls join lessons l on l.id = ls."lessonId"
       where ls.status <> 'deleted' group by ls."studentId" having count(*) > 3 order by ls."studentId" limit 1`,
    );
    // the mark on the oldest lesson changed today
    await server.db.query(`update lessons_students set "updatedAt" = now() + interval '1 minute' where id = $1`, [s.oldest]);
    const { rows } = await server.db.query<{ day: string }>(
      `select to_char(l.date, 'DD/MM/YYYY') as day from lessons_students ls join lessons l on l.id = ls."lessonId"
       where ls."studentId" = $1 and ls.status <> 'deleted' order by l.date desc limit 10`,
      [s.studentId],
    );
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/student-management/student/${s.studentId}/view`);
    fireEvent.click(await screen.findByRole("tab", { name: "Attendance" }, wait));
    const shown = () => [...document.querySelectorAll(".ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row td:nth-child(2)")].map((td) => td.textContent);
    await waitFor(() => expect(shown()).toEqual(rows.map((r) => r.day)), wait);
  }, 180_000);
});
