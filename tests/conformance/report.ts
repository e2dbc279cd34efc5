/**
 * Conformance progress: runs the conformance lane (the same harness `npm test` runs, pending fixtures included)
 * and prints pass/fail per fixture dir and the most common failure causes.
 *
 *   npx tsx tests/conformance/report.ts                  # print
 *   npx tsx tests/conformance/report.ts --write-pending  # also rewrite OUT_OF_SCOPE.md's NOT YET PASSING section
 *   npx tsx tests/conformance/report.ts --from run.json  # summarise an earlier `vitest --reporter=json` output
 *   npx tsx tests/conformance/report.ts --verbose        # every failing fixture with its first failure
 *
 * With TEST_DATABASE_URL set, both database lanes run (as in vitest); a fixture failing on either is pending.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadManifest, OUT_OF_SCOPE_FILE, PENDING_HEADING, readExclusions, REPO_ROOT } from "./fixtures.ts";
import { failureCause } from "./report-causes.ts";

interface AssertionResult {
  ancestorTitles: string[];
  title: string;
  status: string;
  failureMessages?: string[];
}
interface JsonReport {
  testResults: { name: string; status: string; message?: string; assertionResults: AssertionResult[] }[];
}

const argv = process.argv.slice(2);
const writePending = argv.includes("--write-pending");
const verbose = argv.includes("--verbose");
const fromIndex = argv.indexOf("--from");

function runVitest(): JsonReport {
  const dir = mkdtempSync(path.join(os.tmpdir(), "conformance-report-"));
  const out = path.join(dir, "report.json");
  try {
    const r = spawnSync("npx", ["vitest", "run", "--project", "conformance", "--reporter=json", `--outputFile=${out}`], {
      cwd: REPO_ROOT,
      env: { ...process.env, CONFORMANCE_INCLUDE_PENDING: "1" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    try {
      return JSON.parse(readFileSync(out, "utf8")) as JsonReport;
    } catch {
      throw new Error(`vitest produced no JSON report (exit ${r.status})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface FixtureResult {
  dir: string;
  file: string;
  lane: string;
  passed: boolean;
  /** filtered out of this run (vitest -t): neither passed nor failed */
  notRun: boolean;
  message?: string;
}

const failed = (r: FixtureResult) => !r.passed && !r.notRun;

function collect(report: JsonReport): { results: FixtureResult[]; fileErrors: string[] } {
  const results: FixtureResult[] = [];
  const fileErrors: string[] = [];
  for (const file of report.testResults) {
    if (!file.name.endsWith("hasura-fixtures.test.ts")) continue;
    if (file.message) fileErrors.push(file.message.split("\n").slice(0, 3).join(" "));
    for (const a of file.assertionResults) {
      if (a.ancestorTitles.length === 0) {
        // the file's own checks (OUT_OF_SCOPE.md against MANIFEST.json), not a fixture
        if (a.status === "failed") fileErrors.push(`${a.title}: ${(a.failureMessages?.[0] ?? "").split("\n")[0]}`);
        continue;
      }
      const suite = a.ancestorTitles[a.ancestorTitles.length - 1];
      const space = suite.indexOf(" ");
      results.push({
        lane: suite.slice(0, space),
        dir: suite.slice(space + 1),
        file: a.title,
        passed: a.status === "passed",
        notRun: a.status === "skipped" || a.status === "pending" || a.status === "todo",
        message: a.failureMessages?.[0],
      });
    }
  }
  return { results, fileErrors };
}

function printReport(results: FixtureResult[], fileErrors: string[]): void {
  const manifest = loadManifest();
  const exclusions = readExclusions();
  const outOfScope = exclusions.filter((e) => !e.pending);
  const lanes = [...new Set(results.map((r) => r.lane))];
  console.log(`Hasura conformance (${lanes.join(" + ") || "no lane ran"}), pending fixtures included\n`);
  const rows: string[][] = [["dir", ...lanes.flatMap((l) => [`${l} pass`, `${l} fail`]), "out of scope"]];
  let total = 0;
  for (const spec of manifest) {
    const oos = outOfScope.some((e) => e.target === spec.dir)
      ? spec.fixtures.length
      : spec.fixtures.filter((f) => outOfScope.some((e) => e.target === `${spec.dir}/${f}`)).length;
    const cells = lanes.flatMap((lane) => {
      const rs = results.filter((r) => r.lane === lane && r.dir === spec.dir);
      return [String(rs.filter((r) => r.passed).length), String(rs.filter(failed).length)];
    });
    total += spec.fixtures.length;
    rows.push([spec.dir.replace(/^queries\//, ""), ...cells, String(oos)]);
  }
  const sum = (i: number) => rows.slice(1).reduce((s, r) => s + Number(r[i]), 0);
  rows.push(["TOTAL", ...rows[0].slice(1).map((_, i) => String(sum(i + 1)))]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "));
    if (i === 0 || i === rows.length - 2) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  console.log(`(${total} fixtures listed in MANIFEST)\n`);

  const causes = new Map<string, FixtureResult[]>();
  const notRun = results.filter((r) => r.notRun).length;
  if (notRun > 0) console.log(`${notRun} fixture run(s) were filtered out of this run (not counted).\n`);
  for (const r of results.filter(failed)) {
    const c = failureCause(r.message ?? "");
    causes.set(c, [...(causes.get(c) ?? []), r]);
  }
  if (causes.size > 0) {
    console.log("Top failure causes (fixtures × lanes):");
    for (const [cause, rs] of [...causes.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 25)) {
      const examples = [...new Set(rs.map((r) => r.file))].slice(0, 3).join(", ");
      console.log(`  ${String(rs.length).padStart(3)}  ${cause}\n         e.g. ${examples}`);
    }
  }
  if (fileErrors.length > 0) console.log(`\nErrors outside tests (e.g. a teardown):\n  ${fileErrors.join("\n  ")}`);
  if (verbose) {
    console.log("\nFailing fixtures:");
    for (const r of results.filter(failed)) console.log(`- [${r.lane}] ${r.dir}/${r.file}\n    ${(r.message ?? "").split("\n")[0].slice(0, 400)}`);
  }
}

/** Rewrites the NOT YET PASSING section of OUT_OF_SCOPE.md from this run's failures. */
function writePendingSection(results: FixtureResult[]): number {
  const failing = new Map<string, { lanes: Set<string>; cause: string }>();
  if (results.some((r) => r.notRun)) throw new Error("--write-pending needs a full run: some fixtures were filtered out");
  for (const r of results.filter(failed)) {
    const key = `${r.dir}/${r.file}`;
    const entry = failing.get(key) ?? { lanes: new Set<string>(), cause: failureCause(r.message ?? "") };
    entry.lanes.add(r.lane);
    failing.set(key, entry);
  }
  const text = readFileSync(OUT_OF_SCOPE_FILE, "utf8");
  const start = text.indexOf(`## ${PENDING_HEADING}`);
  const before = (start >= 0 ? text.slice(0, start) : text).replace(/\s*$/, "\n");
  if (failing.size === 0) {
    writeFileSync(OUT_OF_SCOPE_FILE, before); // everything in scope passes: no pending section at all
    return 0;
  }
  const lines = [
    "",
    `## ${PENDING_HEADING}`,
    "",
    "Generated by `npx tsx tests/conformance/report.ts --write-pending` on " + new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC.",
    "Temporary: these fixtures are in scope and must pass; they are listed only so the suite is green while the engine",
    "is being built. Regenerate after engine changes (the report always runs them, whatever this section says).",
    "",
    ...[...failing.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, v]) => `- \`${key}\` — ${v.cause.replace(/`/g, "'")} (${[...v.lanes].join(", ")})`),
    "",
  ];
  writeFileSync(OUT_OF_SCOPE_FILE, before + lines.join("\n"));
  return failing.size;
}

const report = fromIndex >= 0 ? (JSON.parse(readFileSync(argv[fromIndex + 1], "utf8")) as JsonReport) : runVitest();
const { results, fileErrors } = collect(report);
printReport(results, fileErrors);
if (writePending) {
  const lanes = new Set(results.map((r) => r.lane));
  if (!lanes.has("postgres")) console.warn("\nNote: only the PGlite lane ran (TEST_DATABASE_URL unset); fixtures failing only on PostgreSQL are not listed.");
  const n = writePendingSection(results);
  console.log(`\nOUT_OF_SCOPE.md: NOT YET PASSING section rewritten with ${n} fixture(s).`);
}
