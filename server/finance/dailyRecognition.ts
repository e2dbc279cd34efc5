/**
 * Lessons are delivered as days pass, not only when money moves (FINANCE.md §7): while the server runs, the
 * revenue of the lessons of a new Singapore day is recognised once that day begins. Each finance operation
 * already recognises its own student's revenue; this covers the students nobody touched.
 */
import type { Db } from "../db/index.ts";
import { recogniseAllRevenue } from "./ledgerBackfill.ts";
import { startEveryDay } from "./everyDay.ts";

/** Starts the check (the start-up run has recognised today already); `stop` waits for a run in progress. */
export function startDailyRecognition(db: Db): { stop(): Promise<void> } {
  return startEveryDay((today) =>
    recogniseAllRevenue(db).then(
      (n) => n && console.log(`Ledger: revenue recognised for ${today} (${n} entries).`),
      (e: unknown) => console.error("Revenue recognition failed:", e instanceof Error ? e.message : e),
    ),
  );
}
