/**
 * The withdrawal's refund screen (issue 31): the student's paid deposits start ticked, and the summary follows
 * each tick at once, before anything is saved (the server's pricing code runs in the browser).
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { formatMoneyValue } from "../../src/domain/formats.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };

describe("the refund screen's summary", () => {
  it("starts with the student's paid deposits ticked and follows the ticks at once", async () => {
    const { rows } = await server.db.query<{ studentId: string; classId: string }>(
      `select sc."userId" as "studentId", sc."classId" from student_classes sc join classes c on c.id = sc."classId" and c.status = 'active'
       where sc.status = 'enrolled' and exists (select 1 from deposits d where d."studentId" = sc."userId" and d."depositStatus" = 'paid' and d.status = 'active')
       order by sc."userId", sc."classId" limit 1`,
    );
    const pick = rows[0]!;
    expect(pick, "an enrolled student holding a paid deposit in the demo data").toBeTruthy();
    const signIn = await fetch(`${server.baseUrl}/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.57.0.9" },
      body: JSON.stringify({ username: "front_desk", password: DEMO_PASSWORD }),
    });
    const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
    const made = await fetch(`${server.baseUrl}/api/v2/refund`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: "withdrawal", studentId: pick.studentId, classId: pick.classId, noticeDate: todayInSingapore(), lastLessonDate: todayInSingapore(), reason: "Moving" }),
    });
    expect(made.status).toBe(201);
    const { refundId } = ((await made.json()) as { data: { refundId: string } }).data;
    const { rows: held } = await server.db.query<{ amount: string }>(`select coalesce(sum(amount), 0)::text as amount from deposits where "studentId" = $1 and "depositStatus" = 'paid' and status = 'active'`, [pick.studentId]);
    const { rows: stored } = await server.db.query<{ classAmount: string; creditNoteAmount: string; total: string }>(
      `select summary->>'classAmount' as "classAmount", summary->>'creditNoteAmount' as "creditNoteAmount", summary->>'total' as total from refunds where id = $1`,
      [refundId],
    );
    const cents = (v: string) => numericToCents(v) ?? 0;

    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/finance/refund/${refundId}`);
    const total = await screen.findByTestId("refund-total", {}, wait);
    await waitFor(() => expect(total.textContent).toBe(formatMoneyValue(stored[0]!.total)), wait);
    expect(cents(stored[0]!.total)).toBe(cents(stored[0]!.classAmount) + cents(stored[0]!.creditNoteAmount) + cents(held[0]!.amount));

    const deposits = screen.getByText("Deposits Included").closest(".ant-card") as HTMLElement;
    const boxes = within(deposits).getAllByRole("checkbox") as HTMLInputElement[];
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes.every((b) => b.checked)).toBe(true);
    for (const b of boxes) fireEvent.click(b);
    const without = centsToNumeric(cents(stored[0]!.classAmount) + cents(stored[0]!.creditNoteAmount));
    await waitFor(() => expect(total.textContent).toBe(formatMoneyValue(without)), wait);
    fireEvent.click(boxes[0]!);
    await waitFor(() => expect(total.textContent).not.toBe(formatMoneyValue(without)), wait);
  }, 180_000);
});
