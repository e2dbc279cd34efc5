import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The browser lane needs Chromium (.ci/run installs Debian's). Like the real-PostgreSQL lane it is left out
// locally with a message when missing; under CI it always runs (and fails loudly if Chromium is absent).
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const browserLane = Boolean(process.env.CI) || existsSync(chromium);
if (!browserLane) console.warn(`[tests] browser lane (e2e) skipped: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH).`);

const e2eLane = {
  test: {
    name: "e2e",
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    // One server per worker (global-e2e.ts), so browser files run beside the other lanes' files, never two on one database.
    globalSetup: ["tests/support/global-e2e.ts"],
    // One retry in CI: a busy 2-core runner can miss a browser wait; the reporter names such tests.
    retry: process.env.CI ? 1 : 0,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
};

// One run, five lanes (DESIGN §9). The database lanes share one migrated+seeded template per run.
export default defineConfig({
  test: {
    globals: true,
    // Vitest leaves one core free by default, which on a 2-core CI runner means one file at a time while
    // much of each file's time is spent waiting on its server or PostgreSQL. Two files at a time, of any lane.
    maxWorkers: 2,
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    projects: [
      { test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-db.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "conformance",
          include: ["tests/conformance/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-db.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: "ui",
          include: ["tests/ui/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          globalSetup: ["tests/support/global-db.ts"],
          setupFiles: ["tests/support/ui-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...(browserLane ? [e2eLane] : []),
    ],
  },
});
