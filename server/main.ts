import { configFromEnv } from "./config.ts";
import { openDatabase } from "./db/index.ts";
import { DataDirLockedError } from "./db/lock.ts";
import { startUp } from "./start-up.ts";
import { buildBrowserAppIfStale } from "./build-app.ts";
import { demoAccountsText } from "./db/seed-demo.ts";
import { startOutboxDelivery } from "./mail/outbox.ts";
import { transportFromEnv } from "./mail/transport.ts";
import { startDailyRecognition } from "./finance/dailyRecognition.ts";
import { startDailyReminders } from "./finance/reminders.ts";
import { createPdfMaker } from "./finance/pdfMaker.ts";
import { mediaFor } from "./media/index.ts";
import { startAuditRetention } from "./audit/retention.ts";

const config = configFromEnv();
const dev = process.argv.includes("--dev");

const db = await openDatabase(config, { statementTimeoutMs: config.statementTimeoutMs }).catch((e: unknown) => {
  // a data directory in use is the operator's to resolve: say so in one line, not a stack trace
  if (!(e instanceof DataDirLockedError)) throw e;
  console.error(e.message);
  process.exit(1);
});
let closing = false;
let delivery: { stop(): Promise<void> } | undefined;
let recognition: { stop(): Promise<void> } | undefined;
let reminders: { stop(): Promise<void> } | undefined;
let retention: { stop(): Promise<void> } | undefined;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing…`);
  try {
    await delivery?.stop();
    await recognition?.stop();
    await reminders?.stop();
    await retention?.stop();
    await app?.close();
  } finally {
    await db.close();
    process.exit(0);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

if (!dev) await buildBrowserAppIfStale();
const started = await startUp(db, config, { logger: false, serveApp: !dev });
const app = started.app;
if (started.demoCreated) console.log("Demo data created.");
if (started.backfilled) console.log(`Ledger: ${started.backfilled} entries posted (documents made before it, revenue recognised to date).`);
// overdue reminders go out as each Singapore day begins (issue 39; once per PA and step), the PA's paper attached
const reminderPdf = createPdfMaker({ timeLimitMs: config.pdfTimeLimitMs, workers: 1 });
const dailyReminders = startDailyReminders(db, { pdfMaker: reminderPdf, media: mediaFor({ config, db }) });
reminders = { stop: () => dailyReminders.stop().finally(() => reminderPdf.close()) };
// audit log entries older than AUDIT_RETENTION_MONTHS are purged now and once a day (the purge logs itself)
retention = startAuditRetention(db, config.auditRetentionMonths);
await app.listen({ port: config.port, host: config.host });
// the revenue of lessons delivered since the last run is recognised as each Singapore day begins (the first day's
// walk, when start-up found none begun today, starts now that the server listens)
recognition = startDailyRecognition(db);
// Mail, SMS and notifications leave through the transport (MAIL_DROP_DIR: files; SMTP_URL: a mail relay; embedded: the log).
const transport = transportFromEnv(process.env, db.kind === "pglite");
if (transport) delivery = startOutboxDelivery(db, transport);
else console.log("No mail transport configured (set SMTP_URL): outgoing messages stay pending in the outbox.");
console.log(`Back-office running on http://localhost:${config.port} (database: ${db.kind === "pglite" ? `embedded, ${config.dataDir}` : "PostgreSQL"})`);
if (config.seedDemo) console.log(demoAccountsText());
