/**
 * Issue 39 §2: from the student's view, Statement opens the student's statement from the ledger (its balance due
 * the ledger's), and Whole family adds the siblings. Against the real in-process server.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { formatMoney, numericToCents } from "../../src/domain/money.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 60_000 };

describe("statement", () => {
  it("the student's view opens the statement; its balance due is the ledger's; Whole family adds the sibling", async () => {
    // a demo student with a sibling and ledger entries with one company only (the statement shows that company)
    const { rows } = await server.db.query<{ id: string; sibling: string; balance: string }>(
      `select u.id, s->>'lastName' as sibling,
         (select coalesce(sum(case when account in ('receivable', 'customer_credit') then debit - credit else 0 end), 0)::text from journal_lines where "studentId" = u.id) as balance
       from users u cross join lateral jsonb_array_elements(u.siblings) s
       where u.type = 'student' and (select count(distinct "companyId") from journal_entries where "studentId" = u.id) = 1
       order by (select count(*) from journal_entries where "studentId" = u.id) desc limit 1`,
    );
    const student = rows[0]!;
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/student-management/student/${student.id}/view`);
    fireEvent.click(await waitFor(() => screen.getByRole("button", { name: "Statement" }), wait));
    const balance = await waitFor(() => screen.getByTestId("statement-balance"), wait);
    expect(balance.textContent).toBe(`Balance due: ${formatMoney(numericToCents(student.balance)!)}`);
    expect(screen.getByRole("heading", { name: "STATEMENT OF ACCOUNT" })).toBeTruthy();
    fireEvent.click(screen.getByRole("switch", { name: "Whole family" }));
    await waitFor(() => screen.getByRole("heading", { name: "FAMILY STATEMENT" }), wait);
    expect(screen.getByTestId("statement-paper").textContent).toContain(student.sibling);
  }, 120_000);
});
