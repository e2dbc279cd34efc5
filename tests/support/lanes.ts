/**
 * The database lanes of a run: PGlite always; a real PostgreSQL when TEST_DATABASE_URL is set.
 * Under CI a lane that cannot run is a failure, not a skip.
 */
export type Lane = "pglite" | "postgres";

export function databaseLanes(): Lane[] {
  if (process.env.TEST_DATABASE_URL) return ["pglite", "postgres"];
  if (process.env.CI) throw new Error("CI must run the real-PostgreSQL lane: TEST_DATABASE_URL is not set (.ci/run starts a server).");
  if (!warned) {
    warned = true;
    console.warn("[tests] real-PostgreSQL lane skipped: set TEST_DATABASE_URL=postgres://… to run it.");
  }
  return ["pglite"];
}
let warned = false;
