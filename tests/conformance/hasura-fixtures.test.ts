/**
 * Hasura's own fixtures (../shared/conformance/hasura-tests-py) replayed against our engine, on each database lane,
 * with a fresh database and server per fixture dir. The only exclusions are the ones OUT_OF_SCOPE.md lists.
 *
 *   npx vitest run --project conformance                     (PGlite; TEST_DATABASE_URL=… adds real PostgreSQL)
 *   CONFORMANCE_INCLUDE_PENDING=1   also run the NOT YET PASSING section of OUT_OF_SCOPE.md
 *   CONFORMANCE_STRICT_ORDER=1      object keys must come in the expected order
 *   CONFORMANCE_VERBOSE=1           log transports, setup adaptations and advisory (error text) differences
 *   npx tsx tests/conformance/report.ts [--write-pending]   pass/fail per dir and the top failure causes
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "../../server/db/types.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { activeExclusions, loadManifest, readExclusions } from "./fixtures.ts";
import { DirRun } from "./runner.ts";
import { startServer, type ServerUnderTest } from "./server.ts";

const verbose = process.env.CONFORMANCE_VERBOSE === "1";
const specs = loadManifest();
const excluded = activeExclusions();

test("OUT_OF_SCOPE.md names only dirs and fixtures that MANIFEST.json lists, each with a reason", () => {
  const known = new Set(specs.flatMap((s) => [s.dir, ...s.fixtures.map((f) => `${s.dir}/${f}`)]));
  const stale = readExclusions().filter((e) => !known.has(e.target) || e.reason === "");
  expect(stale).toEqual([]);
});

for (const lane of databaseLanes()) {
  for (const spec of specs) {
    if (excluded.has(spec.dir)) continue;
    describe(`${lane} ${spec.dir}`, () => {
      let db: Db | undefined;
      let server: ServerUnderTest | undefined;
      let run: DirRun | undefined;
      /** A failed class setup fails every fixture of the dir with its cause (visible per test in every reporter). */
      let setupError: unknown;

      beforeAll(async () => {
        db = await openTestDb(lane);
        server = await startServer(db);
        run = new DirRun(spec, server);
        try {
          await run.setup();
        } catch (error) {
          setupError = error;
        }
        if (verbose) for (const line of run.log) console.info(line);
      });

      afterAll(async () => {
        try {
          if (run && !setupError) await run.teardown();
        } finally {
          await server?.close();
          await db?.close();
        }
      });

      for (const file of spec.fixtures) {
        if (excluded.has(`${spec.dir}/${file}`)) continue;
        test(file, async () => {
          if (setupError) throw new Error(`setup failed: ${setupError instanceof Error ? setupError.message : String(setupError)}`);
          const outcome = await run!.runFixture(file);
          if (verbose) console.info(`${spec.dir}/${file}: ${outcome.log.join(", ")}${outcome.notes.length ? `\n  advisory: ${outcome.notes.join("\n  advisory: ")}` : ""}`);
          if (outcome.failures.length > 0) throw new Error(outcome.failures.join("\n"));
        });
      }
    });
  }
}
