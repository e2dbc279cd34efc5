/**
 * Work done once as each Singapore day begins while the server runs (revenue recognition, overdue reminders):
 * checked every 10 minutes; the day the server starts on counts as done (its start-up did it, or it waits for the
 * next). `stop` waits for a run in progress.
 */
import { todayInSingapore } from "../../src/domain/dates.ts";

const CHECK_EVERY_MS = 10 * 60 * 1000;

export function startEveryDay(run: (today: string) => Promise<unknown>): { stop(): Promise<void> } {
  let lastDay = todayInSingapore();
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    const today = todayInSingapore();
    if (today === lastDay) return;
    lastDay = today;
    running = run(today);
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
