/**
 * `npm run bench [-- graphql|bundle|browser] [--scale N] [--requests N] [--warmup N] [--process-warmup N] [--concurrency N] [--as-admin]`
 * (--as-admin: GraphQL with an admin secret instead of the front_desk user's JWT; --only e,f: just those queries;
 * --client-in-server-thread: the engine's HTTP clients in the server's thread instead of a worker, the method before session 12;
 * --postgraphile URL: also compare (a)(b)(c) with a PostGraphile v5 server on the same database, see bench/postgraphile.ts)
 * `npm run bench -- hostile [--scale N] [--requests N] [--concurrency N]` (issue 11: light queries under hostile ones)
 * `npm run bench -- audit [--requests N]` (issue 36: a PA save and a student update with and without the audit trigger)
 * `npm run bench -- live [--subscribers 500,1000,2000,5000] [--rounds N] [--server main.ts]` (issue 38: live queries, BENCH_DATABASE_URL)
 * `npm run bench -- reports [--requests N]` (issues 17, 38: every report over a year, first page; BENCH_DATABASE_URL)
 * `npm run bench -- billing-run [--students N] [--term NAME]` (issue 39: a term billing run of 2,000 students on the scale data, BENCH_DATABASE_URL)
 * No sub-command runs graphql, bundle and browser. `browser`: issue 20's delivery budgets in Chromium (bench/browser.ts);
 *   `browser --waterfall`: also where the cold loads' time goes (bench/waterfall.ts, issue 33). DESIGN.md §10, issue 3 §10.
 */
import { benchGraphql } from "./graphql.ts";
import { benchBundle } from "./bundle.ts";
import { benchHostile } from "./hostile.ts";
import { benchBrowser } from "./browser.ts";
import { benchAudit } from "./audit.ts";
import { benchLive } from "./live.ts";
import { benchBillingRun } from "./billing-run.ts";

function option(argv: string[], name: string, fallback: number): number {
  const raw = textOption(argv, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} needs a positive whole number, got ${raw}`);
  return n;
}

function textOption(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const raw = argv[i].includes("=") ? argv[i].split("=")[1] : argv[i + 1];
  if (!raw || raw.startsWith("--")) throw new Error(`--${name} needs a value`);
  return raw;
}

function listOption(argv: string[], name: string): string[] | undefined {
  return textOption(argv, name)?.split(",").map((x) => x.trim()).filter(Boolean);
}

async function main() {
  const argv = process.argv.slice(2);
  const command = argv.find((a, i) => !a.startsWith("--") && !(i > 0 && argv[i - 1].startsWith("--") && !argv[i - 1].includes("=")));
  if (command && !["graphql", "bundle", "hostile", "browser", "audit", "live", "billing-run", "reports"].includes(command)) throw new Error(`unknown sub-command ${command}: use graphql, reports, bundle, hostile, browser, audit, live, billing-run or nothing (graphql, bundle and browser)`);
  let ok = true;
  if (command === "audit") {
    console.log("== The audit trail's cost (issue 36) ==");
    ok = await benchAudit({ requests: option(argv, "requests", 60) });
  }
  if (command === "billing-run") {
    console.log("== A term billing run (issue 39) ==");
    ok = await benchBillingRun({ students: option(argv, "students", 2000), term: textOption(argv, "term") });
  }
  if (command === "hostile") {
    console.log("== Light queries while hostile ones run (issue 11) ==");
    ok = await benchHostile({ scale: option(argv, "scale", 2000), requests: option(argv, "requests", 800), concurrency: option(argv, "concurrency", 16) });
  }
  if (command === "live") {
    console.log("== Live queries: N subscribers, distinct variables (issue 38) ==");
    const subscribers = (listOption(argv, "subscribers") ?? ["500", "1000", "2000", "5000"]).map(Number);
    if (subscribers.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error("--subscribers needs positive whole numbers, e.g. 500,1000");
    ok = await benchLive({ subscribers, rounds: option(argv, "rounds", 5), server: textOption(argv, "server") });
  }
  if (command === "reports") {
    console.log("== Every report over a year (issues 17, 38) ==");
    ok = await benchGraphql({ scale: option(argv, "scale", 20000), requests: option(argv, "requests", 20), warmup: 0, processWarmup: 0, concurrency: 2, asAdmin: false, reportsOnly: true });
  }
  if (!command || command === "graphql") {
    console.log("== GraphQL engine vs hand-written SQL ==");
    ok = await benchGraphql({
      scale: option(argv, "scale", 20000),
      // 1200 per side: with 300 the p50 ratio moved by ±0.15 between runs on a 2-core machine, as much as the
      // budget's margin; 100 warm-up requests let each of the 8 connections reach the plan it keeps (PostgreSQL
      // plans a prepared statement's first five runs for their values before it may keep a generic plan)
      requests: option(argv, "requests", 1200),
      warmup: option(argv, "warmup", 100),
      processWarmup: option(argv, "process-warmup", 3000),
      concurrency: option(argv, "concurrency", 8),
      asAdmin: argv.includes("--as-admin"),
      only: listOption(argv, "only"),
      clientInServerThread: argv.includes("--client-in-server-thread"),
      postgraphile: textOption(argv, "postgraphile"),
    });
  }
  if (!command || command === "bundle") {
    console.log("\n== Browser bundle ==");
    await benchBundle();
  }
  if (!command || command === "browser") {
    console.log("\n== Browser delivery (Chromium, cold cache, built app on the real server) ==");
    ok = (await benchBrowser({ waterfall: argv.includes("--waterfall") })) && ok;
  }
  if (!ok) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
