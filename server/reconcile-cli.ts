/**
 * `npm run reconcile`: the month-end check of the books (FINANCE.md §6, §7). Opens the same database as
 * `npm start` and `npm run seed` (DATABASE_URL, else the embedded one under DATA_DIR), recomputes every
 * balance from the documents and from the ledger, prints each difference with the document's number (or
 * the student) and exits 1 when there is any, 0 when the books agree. It writes nothing.
 */
import { configFromEnv } from "./config.ts";
import { openDatabase } from "./db/index.ts";
import { formatDifference, reconcile } from "./finance/reconcile.ts";

async function main(): Promise<number> {
  const db = await openDatabase(configFromEnv());
  try {
    const differences = await reconcile(db);
    for (const d of differences) console.log(formatDifference(d));
    console.log(differences.length ? `${differences.length} difference(s) found.` : "The ledger and the documents agree.");
    return differences.length ? 1 : 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);
