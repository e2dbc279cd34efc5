/**
 * `npm run simulate -- --runs N [--max-commands M] [--seed=S] [--ignore <check name>]…`: the randomised finance workflow of
 * tests/support/financeModel.ts for N sequences, on a freshly migrated and seeded database — PGlite, or
 * PostgreSQL when TEST_DATABASE_URL is set (a scratch database is created from it and dropped at the end; the
 * "at once" commands then really run concurrently). Prints the figures and, on a violation, the shortest failing
 * sequence with its seed (pass it back with the same --runs to replay); exits 1 on a violation.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import fc from "fast-check";
import pg from "pg";
import { buildServer } from "../server/app.ts";
import { configFromEnv } from "../server/config.ts";
import type { Db } from "../server/db/types.ts";
import { openPglite } from "../server/db/pglite.ts";
import { openPostgres } from "../server/db/postgres.ts";
import { migrate } from "../server/db/migrate.ts";
import { seedDemo } from "../server/db/seed-demo.ts";
import { withDatabase } from "./support/global-db.ts";
import { financeProperty, Simulation, type SimServer } from "./support/financeModel.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "100" }, "max-commands": { type: "string", default: "12" }, seed: { type: "string" }, ignore: { type: "string", multiple: true, default: [] } },
});
const runs = Number(values.runs);
const maxCommands = Number(values["max-commands"]);
const url = process.env.TEST_DATABASE_URL;
const lane = url ? "postgres" : "pglite";

async function serverOver(db: Db, drop: () => Promise<void>): Promise<SimServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-sim-"));
  const config = { ...configFromEnv({ DATA_DIR: dataDir, SEED_DEMO: "false", TRUST_PROXY: "true" } as NodeJS.ProcessEnv, []), port: 0, host: "127.0.0.1" };
  const app = await buildServer({ db, config, migrations: 0 }, { logger: false, serveApp: false });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The seeded template once; each `open` is a fresh copy of it (as the test suite does, tests/support/global-db.ts). */
async function opener(): Promise<{ open: () => Promise<SimServer>; dispose: () => Promise<void> }> {
  if (!url) {
    const db = await openPglite();
    await migrate(db);
    await seedDemo(db);
    const dump = await db.dumpDataDir();
    await db.close();
    return { open: async () => serverOver(await openPglite({ loadDataDir: dump }), async () => {}), dispose: async () => {} };
  }
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  const template = `bo_sim_template_${process.pid}`;
  await admin(`create database "${template}"`);
  const tdb = await openPostgres(withDatabase(url, template), { max: 2 });
  await migrate(tdb);
  await seedDemo(tdb);
  await tdb.close();
  let n = 0;
  return {
    open: async () => {
      const name = `bo_sim_${process.pid}_${++n}`;
      await admin(`create database "${name}" template "${template}"`);
      return serverOver(await openPostgres(withDatabase(url, name), { max: 4 }), () => admin(`drop database if exists "${name}" with (force)`));
    },
    dispose: () => admin(`drop database if exists "${template}" with (force)`),
  };
}

const started = Date.now();
const { open, dispose } = await opener();
const sim = new Simulation(open, 2, new Set(values.ignore));
await sim.start();
const setupSeconds = (Date.now() - started) / 1000;
const result = await fc.check(financeProperty(sim, maxCommands), {
  numRuns: runs,
  ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
});
await sim.close();
await dispose();

const s = sim.stats;
if (values.ignore.length) console.log(`NOT CHECKED (--ignore): ${values.ignore.join("; ")}`);
console.log(`finance simulation on ${lane}: ${result.failed ? result.numRuns - 1 : result.numRuns} sequences passed of ${runs} asked (${s.sequences} run, shrinking included), ${s.commands} commands run (${s.refused} refused by the service), violations: ${result.failed ? 1 : 0}`);
console.log(`  by command: ${Object.entries(s.byCommand).map(([k, v]) => `${k} ${v}`).join(", ")}`);
console.log(`  servers opened ${s.servers} (${s.studentsPerServer} students each, ${sim.studentsPerSequence} per sequence)`);
console.log(`  seed ${result.seed}; setup ${setupSeconds.toFixed(1)} s, run ${((Date.now() - started) / 1000 - setupSeconds).toFixed(1)} s`);
if (result.failed) {
  console.log(fc.defaultReportMessage(result));
  console.log(`violation: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`);
  console.log(`replay (the same sequences): npm run simulate -- --runs ${runs} --max-commands ${maxCommands} --seed=${result.seed}`);
  process.exit(1);
}
process.exit(0);
