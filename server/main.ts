import { configFromEnv } from "./config.ts";
import { openDatabase, migrate } from "./db/index.ts";
import { buildServer } from "./app.ts";
import { buildBrowserAppIfStale } from "./build-app.ts";
import { seedDemo, demoAccountsText } from "./db/seed-demo.ts";

const config = configFromEnv();
const dev = process.argv.includes("--dev");

const db = await openDatabase(config);
let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing…`);
  try {
    await app?.close();
  } finally {
    await db.close();
    process.exit(0);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

const { total } = await migrate(db);
if (config.seedDemo) {
  const created = await seedDemo(db);
  if (created) console.log("Demo data created.");
}
if (!dev) await buildBrowserAppIfStale();
const app = await buildServer({ db, config, migrations: total }, { logger: false, serveApp: !dev });
await app.listen({ port: config.port, host: config.host });
console.log(`Back-office running on http://localhost:${config.port} (database: ${db.kind === "pglite" ? `embedded, ${config.dataDir}` : "PostgreSQL"})`);
if (config.seedDemo) console.log(demoAccountsText());
