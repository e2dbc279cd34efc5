/**
 * Lessons are delivered as days pass, not only when money moves (FINANCE.md §7): while the server runs, the
 * revenue of the lessons of a new Singapore day is recognised once that day begins. Each finance operation
 * already recognises its own student's revenue; this covers the students nobody touched.
 */
import type { Db } from "../db/index.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { recogniseAllRevenue, recogniseIfDayBegan } from "./ledgerBackfill.ts";
import { startEveryDay } from "./everyDay.ts";

/**
 * Starts the check, and at once the walk a start on a new day owes (start-up leaves it so the server listens first;
 * finance operations meanwhile recognise their own students under the same locks). `stop` waits for a daily run in
 * progress; the start's walk ends with the database (each window is its own transaction and the day's mark is set
 * only at the end, so the next start walks again).
 */
export function startDailyRecognition(db: Db): { stop(): Promise<void> } {
  let stopping = false;
  const done = (today: string) => (n: number) => n && console.log(`Ledger: revenue recognised for ${today} (${n} entries).`);
  const failed = (e: unknown) => {
    if (!stopping) console.error("Revenue recognition failed:", e instanceof Error ? e.message : e);
  };
  void recogniseIfDayBegan(db).then(done(todayInSingapore()), failed);
  const daily = startEveryDay((today) => recogniseAllRevenue(db).then(done(today), failed));
  return {
    stop() {
      stopping = true;
      return daily.stop();
    },
  };
}
