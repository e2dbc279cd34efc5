/**
 * `npm run simulate -- --runs N [--workers W] [--max-commands M] [--seed=S] [--full-check command|sequence] [--no-kills] [--kill-every K] [--sequences-per-server N] [--minutes M] [--template NAME|FILE] [--ignore <check name>]…`:
 * the randomised finance workflow (tests/support/financeCommands.ts) for N sequences, on a freshly migrated and
 * seeded database — PGlite, or PostgreSQL when TEST_DATABASE_URL is set (a scratch template database is created
 * from it and dropped at the end; the "at once" commands then really run concurrently, and now and then a child
 * server is killed with SIGKILL mid-payment: once in one sequence of every `--kill-every K`, default 10, as each kill costs a
 * child server's start, from a bundle built at the first). Each sequence takes fresh students: the seeded ones, then
 * copies of them made by SQL; the server is opened again on a fresh copy of the template after a failed sequence and
 * every `--sequences-per-server N` sequences (default 200). `--full-check sequence` (the default
 * here) reconciles at the end of each sequence instead of after every command: its own students, and the whole
 * database every `--whole-every K` sequences (default 10), before a server is replaced and at the end of the run.
 * Prints the figures and, on a violation, the shortest failing sequence with its seed (pass it back with the
 * same --runs to replay); exits 1 on a violation. `--workers W` runs W such processes at once over one seeded
 * template (each its own copies, students and seed: the given seed + its number), the runs shared between them, and
 * adds up their figures.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import fc from "fast-check";
import pg from "pg";
import type { Db } from "../server/db/types.ts";
import { openPglite } from "../server/db/pglite.ts";
import { openPostgres } from "../server/db/postgres.ts";
import { migrate } from "../server/db/migrate.ts";
import { seedDemo } from "../server/db/seed-demo.ts";
import { withDatabase } from "./support/global-db.ts";
import { Simulation, type SimServer } from "./support/financeModel.ts";
import { financeProperty } from "./support/financeCommands.ts";
import { serverOver } from "./support/server.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100" },
    workers: { type: "string", default: "1" },
    "max-commands": { type: "string", default: "40" },
    seed: { type: "string" },
    "full-check": { type: "string", default: "sequence" },
    "whole-every": { type: "string", default: "10" },
    "sequences-per-server": { type: "string", default: "200" },
    "no-kills": { type: "boolean", default: false },
    "kill-every": { type: "string", default: "10" },
    template: { type: "string" },
    minutes: { type: "string" },
    ignore: { type: "string", multiple: true, default: [] },
  },
});
const runs = Number(values.runs);
const maxCommands = Number(values["max-commands"]);
const url = process.env.TEST_DATABASE_URL;
const lane = url ? "postgres" : "pglite";

async function seededPglite() {
  const db = await openPglite();
  await migrate(db);
  await seedDemo(db);
  const dump = await db.dumpDataDir();
  await db.close();
  return dump;
}

const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(sql);
  await c.end();
};

/** The seeded PostgreSQL template `name`, made unless it exists; true when made here. */
async function pgTemplate(name: string): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const exists = await pool.query(`select 1 from pg_database where datname = $1`, [name]).then((r) => r.rowCount === 1);
  await pool.end();
  if (exists) return false;
  await admin(`create database "${name}"`);
  const tdb = await openPostgres(withDatabase(url!, name), { max: 2 });
  await migrate(tdb);
  await seedDemo(tdb);
  await tdb.close();
  return true;
}

/** The seeded template once; each `open` is a fresh copy of it (as the test suite does, tests/support/global-db.ts). */
async function opener(): Promise<{ open: () => Promise<SimServer>; dispose: () => Promise<void> }> {
  if (!url) {
    // --template FILE: the seeded PGlite data directory kept as a file between runs
    const dump: Uint8Array = values.template && existsSync(values.template) ? readFileSync(values.template) : await seededPglite();
    if (values.template && !existsSync(values.template)) writeFileSync(values.template, dump);
    return { open: async () => serverOver(await openPglite({ loadDataDir: dump })), dispose: async () => {} };
  }
  // --template NAME: a seeded database kept between runs (made by the first run that names it), for parallel workers
  const kept = values.template;
  const template = kept ?? `bo_sim_template_${process.pid}`;
  await pgTemplate(template);
  let n = 0;
  return {
    open: async () => {
      const name = `bo_sim_${process.pid}_${++n}`;
      await admin(`create database "${name}" template "${template}"`);
      const databaseUrl = withDatabase(url, name);
      const db: Db = await openPostgres(databaseUrl, { max: 4 });
      return { ...(await serverOver(db, { after: () => admin(`drop database if exists "${name}" with (force)`) })), databaseUrl };
    },
    dispose: () => (kept ? Promise.resolve() : admin(`drop database if exists "${template}" with (force)`)),
  };
}

/** The figures a worker prints for `--workers` to add up (one line, after its report). */
const FIGURES = "SIMULATE_FIGURES ";
interface Figures { passed: number; sequences: number; commands: number; violations: number; seconds: number }

/** --workers W: W processes of this script over one template, their runs and figures added up; the worst exit code. */
async function runWorkers(count: number): Promise<number> {
  const template = values.template ?? (url ? `bo_sim_template_${process.pid}` : path.join(os.tmpdir(), `bo-sim-template-${process.pid}.tar`));
  const made = url ? await pgTemplate(template) : !existsSync(template) && (writeFileSync(template, await seededPglite()), true);
  // the arguments given, less those each worker gets its own of
  const own = ["--workers", "--runs", "--template", "--seed"];
  const argv: string[] = [];
  const given = process.argv.slice(2);
  for (let i = 0; i < given.length; i++) {
    if (own.includes(given[i]!)) i++;
    else if (!own.some((o) => given[i]!.startsWith(`${o}=`))) argv.push(given[i]!);
  }
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => new Promise<{ code: number; figures?: Figures }>((resolve) => {
      const runsOf = Math.floor(runs / count) + (i < runs % count ? 1 : 0);
      const args = [...argv, "--runs", String(runsOf), "--template", template, ...(values.seed !== undefined ? [`--seed=${Number(values.seed) + i}`] : [])];
      const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], { stdio: ["ignore", "pipe", "inherit"], env: process.env });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("exit", (code) => {
        const lines = out.split("\n");
        for (const l of lines) if (l && !l.startsWith(FIGURES)) console.log(`[worker ${i + 1}] ${l}`);
        const line = lines.find((l) => l.startsWith(FIGURES));
        resolve({ code: code ?? 1, figures: line ? (JSON.parse(line.slice(FIGURES.length)) as Figures) : undefined });
      });
    })),
  );
  if (made) await (url ? admin(`drop database if exists "${template}" with (force)`) : Promise.resolve(rmSync(template, { force: true })));
  const sum = (k: keyof Figures) => results.reduce((s, r) => s + (r.figures?.[k] ?? 0), 0);
  const seconds = Math.max(...results.map((r) => r.figures?.seconds ?? 0));
  console.log(`finance simulation on ${lane}, ${count} workers: ${sum("passed")} sequences passed of ${runs} asked (${sum("sequences")} run, shrinking included), ${sum("commands")} commands, violations: ${sum("violations")}${results.some((r) => !r.figures) ? " (a worker ended without its figures)" : ""}`);
  console.log(`  run ${seconds.toFixed(1)} s (the longest worker): ${((sum("sequences") * 60) / seconds).toFixed(1)} sequences/min`);
  return Math.max(...results.map((r) => (r.figures ? r.code : Math.max(r.code, 1))));
}

if (Number(values.workers) > 1) process.exit(await runWorkers(Number(values.workers)));

const started = Date.now();
const { open, dispose } = await opener();
const fullCheck = values["full-check"] === "command" ? "command" : "sequence";
const sim = new Simulation(open, 2, new Set(values.ignore), {
  kills: !values["no-kills"],
  killEvery: Number(values["kill-every"]),
  fullCheck,
  wholeEvery: Number(values["whole-every"]),
  sequencesPerServer: Number(values["sequences-per-server"]),
  // the first failure at once (shrinking then takes a while)
  onFailure: (e, cmds) => failures++ === 0 && console.error(`FIRST FAILURE: ${cmds}\n  ${e instanceof Error ? e.message : String(e)}`),
});
let failures = 0;
await sim.start();
const setupSeconds = (Date.now() - started) / 1000;
// progress for a long run (stderr, once a minute)
const progress = setInterval(() => console.error(`[${new Date().toISOString()}] ${sim.stats.sequences} sequences, ${sim.stats.commands} commands, ${sim.stats.refused} with refusals, servers ${sim.stats.servers}`), 60_000);
const result = await fc.check(financeProperty(sim, maxCommands), {
  numRuns: runs,
  // --minutes M: stop drawing new sequences after M minutes (the figures say how many ran)
  ...(values.minutes ? { interruptAfterTimeLimit: Number(values.minutes) * 60_000, markInterruptAsFailure: false } : {}),
  ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
});
clearInterval(progress);
// the sequences since the last whole-database check, checked whole
const last = await sim.finalCheck().then(() => null, (e: unknown) => (e instanceof Error ? e.message : String(e)));
await sim.close();
await dispose();

const s = sim.stats;
if (values.ignore.length) console.log(`NOT CHECKED (--ignore): ${values.ignore.join("; ")}`);
console.log(`finance simulation on ${lane}: ${result.failed ? result.numRuns - 1 : result.numRuns} sequences passed of ${runs} asked${result.interrupted ? ` (stopped after --minutes ${values.minutes})` : ""} (${s.sequences} run, shrinking included), ${s.commands} commands run (${s.refused} refused by the service), violations: ${(result.failed ? 1 : 0) + (last ? 1 : 0)}`);
const runSeconds = (Date.now() - started) / 1000 - setupSeconds;
console.log(`  by command: ${Object.entries(s.byCommand).sort(([, a], [, b]) => b - a).map(([k, v]) => `${k} ${v}`).join(", ")}`);
console.log(`  refusals (predicted by the model), by kind:\n${Object.entries(s.refusals).sort(([, a], [, b]) => b - a).map(([k, v]) => `    ${v} × ${k}`).join("\n") || "    none"}`);
console.log(`  kill -9: ${Object.entries(s.kills).map(([k, v]) => `${k} ${v}`).join(", ") || (sim.kills ? "none drawn" : "off on this lane")}${sim.kills ? ` (drawn in one sequence of every ${values["kill-every"]}: --kill-every)` : ""}`);
console.log(`  time (s): API calls ${(s.ms.api / 1000).toFixed(1)} (concurrent ones overlap), per-command checks ${(s.ms.checks / 1000).toFixed(1)}, whole-database checks ${(s.ms.fullChecks / 1000).toFixed(1)}, opening servers ${(s.ms.open / 1000).toFixed(1)}, starting child servers ${(s.ms.child / 1000).toFixed(1)}`);
console.log(`  API calls by route (calls, ms each): ${Object.entries(s.routes).sort(([, a], [, b]) => b.ms - a.ms).map(([k, v]) => `${k} ${v.n} × ${(v.ms / v.n).toFixed(0)}`).join(", ")}`);
console.log(`  servers opened ${s.servers} (${s.studentsPerServer} seeded students each, then copies of them: ${s.copies} made; a fresh database after ${values["sequences-per-server"]} sequences: --sequences-per-server), ${sim.studentsPerSequence} students per sequence; whole-database checks after every ${fullCheck === "sequence" ? `${values["whole-every"]} sequences (and the last), the sequence's students after each` : "command"}`);
console.log(`  seed ${result.seed}; setup ${setupSeconds.toFixed(1)} s, run ${runSeconds.toFixed(1)} s: ${((s.sequences * 60) / runSeconds).toFixed(1)} sequences/min, ${((s.commands * 60) / runSeconds).toFixed(1)} commands/min`);
const passed = result.failed ? result.numRuns - 1 : result.numRuns;
const violated = (result.failed ? 1 : 0) + (last ? 1 : 0);
if (last) console.log(`violation ${last}`);
console.log(`${FIGURES}${JSON.stringify({ passed, sequences: s.sequences, commands: s.commands, violations: violated, seconds: runSeconds } satisfies Figures)}`);
if (last && !result.failed) process.exit(1);
if (result.failed) {
  console.log(fc.defaultReportMessage(result));
  console.log(`violation: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`);
  console.log(`replay (the same sequences): npm run simulate -- --runs ${runs} --max-commands ${maxCommands} --full-check ${fullCheck}${values["no-kills"] ? " --no-kills" : ` --kill-every ${values["kill-every"]}`} --seed=${result.seed}`);
  process.exit(1);
}
process.exit(0);
