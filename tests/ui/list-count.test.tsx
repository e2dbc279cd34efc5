/**
 * The cheap count (issue 38): a list that asks for a capped count counts its rows exactly up to the cap and shows
 * "N+" beyond it — or "about N", the engine's planner estimate, when it has one — here the students list with the
 * cap lowered below the demo's students.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { config, configureApp } from "../../src/app/config.ts";
import { recordCounter } from "../../src/framework/pages/recordCounter.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 120_000 };
const cap = config.listCountCap;
afterEach(() => configureApp({ listCountCap: cap }));

describe("the list counter's capped count", () => {
  it("reads 'N+' over the cap and the exact count up to it", () => {
    configureApp({ listCountCap: 10_000 });
    expect(recordCounter(1, 10, 10, 10_001, true)).toBe("Viewing from 1 - 10 (out of 10,000+ records)");
    expect(recordCounter(1, 10, 10, 10_000, true)).toBe("Viewing from 1 - 10 (out of 10000 records)");
    expect(recordCounter(1, 10, 10, 10_001)).toBe("Viewing from 1 - 10 (out of 10001 records)");
  });

  it("the students list with more students than the cap shows 'cap+', its first page still of 10", async () => {
    const { n } = (await server.db.query<{ n: number }>(`select count(*)::int as n from users where type = 'student' and status <> 'deleted'`)).rows[0]!;
    expect(n).toBeGreaterThan(12);
    // the copy has no planner statistics yet (PGlite runs no autovacuum): no estimate over the cap, so "12+"
    configureApp({ listCountCap: 12 });
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/student-management");
    // the rows first: until they arrive the counter is hidden and reads "0 records" (PagedTable)
    await waitFor(() => expect(document.querySelectorAll(".ant-table-tbody tr.ant-table-row")).toHaveLength(10), wait);
    expect(screen.getByTestId("record-counter").textContent).toBe("Viewing from 1 - 10 (out of 12+ records)");
  }, 180_000);

  it("past the cap the students list shows the planner's estimate as such: 'about N', N near the real count", async () => {
    // planner statistics, as PostgreSQL's autovacuum keeps them on a live database
    await server.db.exec("analyze users");
    const { n } = (await server.db.query<{ n: number }>(`select count(*)::int as n from users where type = 'student' and status <> 'deleted'`)).rows[0]!;
    configureApp({ listCountCap: 12 });
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/student-management");
    await waitFor(() => expect(document.querySelectorAll(".ant-table-tbody tr.ant-table-row")).toHaveLength(10), wait);
    await waitFor(() => expect(screen.getByTestId("record-counter").textContent).toMatch(/^Viewing from 1 - 10 \(out of about [\d,]+ records\)$/), wait);
    const about = Number(/about ([\d,]+)/.exec(screen.getByTestId("record-counter").textContent!)![1]!.replace(/,/g, ""));
    expect(Math.abs(about - n)).toBeLessThanOrEqual(n * 0.1);
  }, 180_000);
});
