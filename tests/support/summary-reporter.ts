import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with one plain line, "tests: N passed, N failed", that any CI log reader understands, after
 * naming every test that passed only on a retry (browser tests retry once in CI) with its first attempt's
 * error, so flakiness stays visible and can be mended.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const flaky: string[] = [];
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed" && test.diagnostic()?.flaky) {
          // the failed attempt's error, so a flaky test can be mended from the CI log alone
          const first = test.result().errors?.[0];
          flaky.push(`${module.moduleId} > ${test.fullName}${first ? `\n  first attempt: ${first.message.split("\n")[0]}` : ""}`);
        }
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else skipped++;
      }
      // A file or suite that failed outside any test (a beforeAll, an import) counts once.
      failed += failedHere || (module.state() === "failed" ? 1 : 0);
    }
    for (const name of flaky) console.log(`flaky (passed on retry): ${name}`);
    console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  }
}
