/**
 * A new user's day (issue 37), second part, against the real in-process server: what each role is offered comes
 * from the rights the server enforces — a counted hand-off opens to act on it, history reads wherever the record
 * reads, a class's status is changed on its screen, a student link shows only to who may open it.
 */
import { describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import WebSocket from "ws";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { Root } from "../../src/app/Root.tsx";
import { enrolmentsWithLessonsAhead } from "../support/finance.ts";
import { callerAs, paidPaVia, type Caller } from "../support/ui-api.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

// its tests sign in more than the default 10 times a minute from one address when they run fast
const server = useUiServer({ AUTH_RATE_LIMIT: "1000" });
const wait = { timeout: 60_000 };
const one = async <T,>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;

describe("a new user's day: a counted hand-off opens to act on it", () => {
  it("sales: the menu and the list count the refunds awaiting sales, and each such row opens the refund to act on it", async () => {
    const { n } = await one<{ n: number }>(`select count(*)::int as n from refunds where "refundStatus" = 'awaiting_sale_action' and status <> 'deleted'`);
    expect(n).toBeGreaterThan(0);
    await signInAs(server.baseUrl, "sales");
    // the whole app (menu and page) as in the browser; its live lists over `ws`, since jsdom's socket does not reach Node's server
    vi.stubGlobal("WebSocket", WebSocket);
    try {
      await act(async () => {
        render(
          <MemoryRouter initialEntries={["/finance/refund"]}>
            <Root />
          </MemoryRouter>,
        );
      });
      await waitFor(() => expect(screen.getByTestId("menu-waiting-refunds").textContent).toBe(String(n)), wait);
      await waitFor(() => expect(screen.getByTestId("waiting-count").textContent).toBe(String(n)), wait);
      // every row opens: to act where sales has the step, to read elsewhere
      const opens = () =>
        [...document.querySelectorAll<HTMLTableRowElement>(".ant-table-tbody tr.ant-table-row")].map((row) => [
          row.textContent!.includes("Awaiting Sale Action"),
          row.querySelector("a[href^='/finance/refund/']")?.getAttribute("aria-label"),
        ]);
      await waitFor(() => expect(opens().length).toBeGreaterThan(0), wait);
      await waitFor(() => expect(opens().every(([mine, label]) => label === (mine ? "Edit" : "View"))).toBe(true), wait);
      expect(opens().some(([mine]) => !mine)).toBe(true);
      fireEvent.click(screen.getByRole("switch", { name: "Waiting for me" }));
      await waitFor(() => expect(document.body.textContent).toContain(`(out of ${n} records)`), wait);
      const rows = [...document.querySelectorAll<HTMLTableRowElement>(".ant-table-tbody tr.ant-table-row")];
      expect(rows.length).toBe(Math.min(n, 10));
      for (const row of rows) {
        expect(row.textContent).toContain("Awaiting Sale Action");
        await waitFor(() => expect(within(row).getByRole("link", { name: "Edit" }).getAttribute("href")).toMatch(/^\/finance\/refund\/[0-9a-f-]{36}$/), wait);
      }
    } finally {
      vi.unstubAllGlobals();
    }
  }, 180_000);
});

describe("a new user's day: history reads wherever the record reads", () => {
  it("front desk on a suspension whose credit note waits on finance: the note is read-only, its Log history opens", async () => {
    const s = await one<{ id: string; cnId: string }>(
      `select s.id, cn.id as "cnId" from suspensions s join credit_notes cn on cn."suspensionId" = s.id
       where cn."creditNoteStatus" = 'awaiting_finance_action' and cn.status <> 'deleted' order by cn."updatedAt" desc limit 1`,
    );
    const { logs } = await one<{ logs: number }>(`select count(*)::int as logs from credit_note_logs where "creditNoteId" = $1`, [s.cnId]);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/suspension/detail/${s.id}/view`);
    await screen.findByTestId("credit-note-status", {}, wait);
    const trigger = screen.getByRole("button", { name: "Log history" }) as HTMLButtonElement;
    expect(trigger.disabled).toBe(false);
    expect((screen.getByRole("button", { name: "History" }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(trigger);
    const table = await screen.findByTestId("log-history", {}, wait);
    await waitFor(() => expect(table.querySelectorAll("tbody tr.ant-table-row").length).toBe(Math.min(logs, 10)), wait);
  }, 180_000);
});

describe("a new user's day: a class's status", () => {
  it("front desk opens a new class and sets its status to Open: saved, and the availability follows", async () => {
    const c = await one<{ id: string }>(`select id from classes where "classStatus" = 'new' and status = 'active' order by name limit 1`);
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/class/management/${c.id}/view`);
    const status = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>("input[aria-label='Class Status']");
      expect(input).toBeTruthy();
      return input!;
    }, wait);
    fireEvent.mouseDown(status);
    fireEvent.click(await screen.findByTitle("Open", {}, wait));
    await waitFor(async () => expect(await one(`select "classStatus" from classes where id = $1`, [c.id])).toEqual({ classStatus: "open" }), wait);
    await waitFor(() => expect(screen.getByTestId("availability").textContent).toBe("Available"), wait);
  }, 180_000);
});

describe("a new user's day: no dead ends, one date format", () => {
  it("the attendance checker reads a lesson's students by name, with no link to a profile it may not open", async () => {
    const { lessonId, n } = await one<{ lessonId: string; n: number }>(
      `select ls."lessonId", count(*)::int as n from lessons_students ls join lessons l on l.id = ls."lessonId"
       where l."lessonStatus" = 'active' and l.status = 'active' and ls.status <> 'deleted' group by ls."lessonId", l.date order by l.date desc, ls."lessonId" limit 1`,
    );
    await signInAs(server.baseUrl, "attendance_checker");
    await renderResources(resources, `/attendance/detail/${lessonId}`);
    const table = await screen.findByTestId("attendance-students", {}, wait);
    await waitFor(() => expect(table.querySelectorAll("tbody tr.ant-table-row").length).toBe(n), wait);
    // each name shows once the access check has answered (as text: no link)
    await waitFor(() => expect([...table.querySelectorAll("tbody tr.ant-table-row td:nth-child(2)")].every((td) => td.textContent)).toBe(true), wait);
    expect(table.querySelector("a[href^='/student-management/student/']")).toBeNull();
  }, 180_000);

  it("the three-times-absent list shows its absent dates as DD/MM/YYYY", async () => {
    const t = await one<{ dates: string[] }>(`select "absentDates" as dates from three_times_absents where status <> 'deleted' order by "updatedAt" desc, id desc limit 1`);
    const shown = t.dates.map((d) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`).join(", ");
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/communication/three-times-absent");
    expect(await screen.findByText(shown, {}, wait)).toBeTruthy();
    expect(document.body.textContent).not.toContain(t.dates[0]);
  }, 180_000);
});

describe("a new user's day: buttons and counts from the rights the server enforces", () => {
  it("front desk: the Suspension and Withdrawal menu entries count the notes and refunds waiting on its own step", async () => {
    const waiting = async (table: string, column: string) =>
      (await one<{ n: number }>(`select count(*)::int as n from ${table} where "${column}" = 'awaiting_front_desk_action' and status <> 'deleted'`)).n;
    const [suspensions, withdrawals] = [await waiting("credit_notes", "creditNoteStatus"), await waiting("refunds", "refundStatus")];
    expect(withdrawals).toBeGreaterThan(0);
    await signInAs(server.baseUrl, "front_desk");
    vi.stubGlobal("WebSocket", WebSocket);
    try {
      await act(async () => {
        render(
          <MemoryRouter initialEntries={["/withdrawal"]}>
            <Root />
          </MemoryRouter>,
        );
      });
      await waitFor(() => expect(screen.getByTestId("menu-waiting-withdrawals").textContent).toBe(String(withdrawals)), wait);
      expect(screen.getByTestId("menu-waiting-suspensions").textContent).toBe(String(suspensions));
    } finally {
      vi.unstubAllGlobals();
    }
  }, 180_000);

  it("Void is not offered on an unpaid PA with part payments (the server refuses both voids), and is on one with nothing received", async () => {
    const pa = (invoiceStatus: string) =>
      one<{ id: string }>(
        `select pa.id from payment_advices pa join invoices i on i."paymentAdviceId" = pa.id
         where pa."paymentStatus" = 'unpaid' and pa.status <> 'deleted' and i."invoiceStatus" = $1 order by pa.name limit 1`,
        [invoiceStatus],
      );
    const [partPaid, unpaid] = [await pa("partial_payment"), await pa("active")];
    // the finance manager holds both void rights
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, `/finance/payment-advice/edit/${unpaid.id}`);
    expect(await screen.findByRole("button", { name: "Void" }, wait)).toBeTruthy();
    cleanup();
    await renderResources(resources, `/finance/payment-advice/edit/${partPaid.id}`);
    // the page has its record and the user's rights once Email to Parents shows (the same rights as Void, read from one policy)
    await screen.findByRole("button", { name: "Email to Parents" }, wait);
    expect(screen.queryByRole("button", { name: "Void" })).toBeNull();
  }, 180_000);

  it("Void is not offered on a suspension credit note whose PA was voided since (the server refuses it: the credit is the student's money)", async () => {
    const [e] = await enrolmentsWithLessonsAhead(server, 1);
    const [frontDesk, financeStaff, financeManager] = [await callerAs(server.baseUrl, "front_desk"), await callerAs(server.baseUrl, "finance_staff"), await callerAs(server.baseUrl, "finance_manager")];
    const { pa, receiptId } = await paidPaVia(frontDesk, e!, e!.studentId);
    const created = await frontDesk("POST", "/credit-notes", { type: "suspension", studentId: e!.studentId, classId: e!.id, startDate: e!.lessons[1]!.date, endDate: e!.lessons[1]!.date, reason: "Sick" });
    expect(created.status, created.message).toBe(201);
    const id = created.data.creditNoteId as string;
    const move = async (as: Caller, status: string) => {
      const current = await as("GET", `/credit-notes/${id}`);
      const moved = await as("PATCH", `/credit-notes/change-status-credit-note/${id}`, { status, updatedAt: current.data.updatedAt });
      expect(moved.status, moved.message).toBe(200);
    };
    await move(frontDesk, "awaiting_finance_action");
    const filled = await financeStaff("PUT", `/credit-notes/${id}`, { updatedAt: (await financeStaff("GET", `/credit-notes/${id}`)).data.updatedAt, numberOfLesson: 1, receiptId });
    expect(filled.status, filled.message).toBe(200);
    await move(financeStaff, "awaiting_finance_approval");
    await move(financeManager, "issued");
    await signInAs(server.baseUrl, "finance_manager");
    await renderResources(resources, `/finance/credit-note/update/${id}`);
    expect(await screen.findByRole("button", { name: "Void" }, wait)).toBeTruthy();
    cleanup();
    const { updatedAt } = await one<{ updatedAt: string }>(`select to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [pa.id]);
    const voided = await financeManager("PATCH", "/finances/payment-advices/void-paid-pa", { id: pa.id, reason: "Wrong class", updatedAt });
    expect(voided.status, voided.message).toBe(200);
    await renderResources(resources, `/finance/credit-note/update/${id}`);
    // the page has the note and its moves once its number shows (one answer)
    await waitFor(() => expect(screen.getByTestId("credit-note-number").textContent).toMatch(/^CN-/), wait);
    expect(screen.queryByRole("button", { name: "Void" })).toBeNull();
  }, 180_000);
});
