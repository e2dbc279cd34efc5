/**
 * `npm run simulate -- --runs N [--max-commands M] [--seed=S] [--full-check command|sequence] [--no-kills] [--minutes M] [--template NAME|FILE] [--ignore <check name>]…`:
 * the randomised finance workflow (tests/support/financeCommands.ts) for N sequences, on a freshly migrated and
 * seeded database — PGlite, or PostgreSQL when TEST_DATABASE_URL is set (a scratch template database is created
 * from it and dropped at the end; the "at once" commands then really run concurrently, and now and then a child
 * server is killed with SIGKILL mid-payment). Each server offers a pool of students, one pair per sequence; when
 * it is used up the server is opened again on a fresh copy of the template. `--full-check sequence` (the default
 * here) runs the whole-database reconciliation at the end of each sequence instead of after every command.
 * Prints the figures and, on a violation, the shortest failing sequence with its seed (pass it back with the
 * same --runs to replay); exits 1 on a violation.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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
    "max-commands": { type: "string", default: "40" },
    seed: { type: "string" },
    "full-check": { type: "string", default: "sequence" },
    "no-kills": { type: "boolean", default: false },
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

/** The seeded template once; each `open` is a fresh copy of it (as the test suite does, tests/support/global-db.ts). */
async function opener(): Promise<{ open: () => Promise<SimServer>; dispose: () => Promise<void> }> {
  if (!url) {
    // --template FILE: the seeded PGlite data directory kept as a file between runs
    const dump: Uint8Array = values.template && existsSync(values.template) ? readFileSync(values.template) : await seededPglite();
    if (values.template && !existsSync(values.template)) writeFileSync(values.template, dump);
    return { open: async () => serverOver(await openPglite({ loadDataDir: dump })), dispose: async () => {} };
  }
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  // --template NAME: a seeded database kept between runs (made by the first run that names it), for parallel workers
  const kept = values.template;
  const template = kept ?? `bo_sim_template_${process.pid}`;
  const exists = kept && (await new pg.Pool({ connectionString: url, max: 1 }).query(`select 1 from pg_database where datname = $1`, [kept]).then((r) => r.rowCount === 1));
  if (!exists) {
    await admin(`create database "${template}"`);
    const tdb = await openPostgres(withDatabase(url, template), { max: 2 });
    await migrate(tdb);
    await seedDemo(tdb);
    await tdb.close();
  }
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

const started = Date.now();
const { open, dispose } = await opener();
const fullCheck = values["full-check"] === "command" ? "command" : "sequence";
const sim = new Simulation(open, 2, new Set(values.ignore), {
  kills: !values["no-kills"],
  fullCheck,
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
await sim.close();
await dispose();

const s = sim.stats;
if (values.ignore.length) console.log(`NOT CHECKED (--ignore): ${values.ignore.join("; ")}`);
console.log(`finance simulation on ${lane}: ${result.failed ? result.numRuns - 1 : result.numRuns} sequences passed of ${runs} asked${result.interrupted ? ` (stopped after --minutes ${values.minutes})` : ""} (${s.sequences} run, shrinking included), ${s.commands} commands run (${s.refused} refused by the service), violations: ${result.failed ? 1 : 0}`);
const runSeconds = (Date.now() - started) / 1000 - setupSeconds;
console.log(`  by command: ${Object.entries(s.byCommand).sort(([, a], [, b]) => b - a).map(([k, v]) => `${k} ${v}`).join(", ")}`);
console.log(`  refusals (predicted by the model), by kind:\n${Object.entries(s.refusals).sort(([, a], [, b]) => b - a).map(([k, v]) => `    ${v} × ${k}`).join("\n") || "    none"}`);
console.log(`  kill -9: ${Object.entries(s.kills).map(([k, v]) => `${k} ${v}`).join(", ") || (sim.kills ? "none drawn" : "off on this lane")}`);
console.log(`  servers opened ${s.servers} (${s.studentsPerServer} students each, ${sim.studentsPerSequence} per sequence); whole-database checks after every ${fullCheck}`);
console.log(`  seed ${result.seed}; setup ${setupSeconds.toFixed(1)} s, run ${runSeconds.toFixed(1)} s: ${((s.sequences * 60) / runSeconds).toFixed(1)} sequences/min, ${((s.commands * 60) / runSeconds).toFixed(1)} commands/min`);
if (result.failed) {
  console.log(fc.defaultReportMessage(result));
  console.log(`violation: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`);
  console.log(`replay (the same sequences): npm run simulate -- --runs ${runs} --max-commands ${maxCommands} --full-check ${fullCheck}${values["no-kills"] ? " --no-kills" : ""} --seed=${result.seed}`);
  process.exit(1);
}
process.exit(0);
