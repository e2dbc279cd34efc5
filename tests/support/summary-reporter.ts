import type { Reporter, TestModule } from "vitest/node";

/** Ends the run with one plain line, "tests: N passed, N failed", that any CI log reader understands. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  }
}
