import path from "node:path";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Enables Hasura's admin interfaces (/v1/query, /v2/query, /v1/metadata); absent when unset. */
  adminSecret?: string;
  stringifyNumericTypes: boolean;
  /** Create demo data on start: always on the embedded database, on request against DATABASE_URL. */
  seedDemo: boolean;
  mediaDir: string;
  /** Public address of this server, used in mails (and in signed upload URLs when configured). */
  publicUrl: string;
  /** PUBLIC_URL was set; otherwise upload URLs follow the address the browser used (localhost or 127.0.0.1 alike). */
  publicUrlConfigured: boolean;
  /** Believe X-Forwarded-For (per-address sign-in limits): only behind a proxy that sets it. */
  trustProxy: boolean;
  /** Credential calls (sign-in, password flows) per address per minute (AUTH_RATE_LIMIT). */
  authRateLimit: number;
  /** statement_timeout on PostgreSQL; on the embedded database the worker's watchdog (issue 11). */
  statementTimeoutMs: number;
  /** The shorter timeout of a non-admin role's GraphQL read (queries, subscriptions; issue 32); 0 = none. */
  staffStatementTimeoutMs: number;
  /** A PDF not made within this is stopped and answered 503 (issue 32; server/finance/pdfMaker.ts). */
  pdfTimeLimitMs: number;
  /** Worker threads that make PDFs at most. */
  pdfWorkers: number;
  /** Audit log entries older than this many months are purged once a day; 0 keeps them all (issue 36). */
  auditRetentionMonths: number;
  /** FINANCE_TEST_PAUSES=true: requests may stop inside a finance transaction (the simulation's kill -9; server/finance/testPause.ts). */
  financeTestPauses?: boolean;
}

export function configFromEnv(env = process.env, argv = process.argv): Config {
  const port = Number(env.PORT ?? 9000);
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    dataDir,
    databaseUrl,
    adminSecret: env.HASURA_GRAPHQL_ADMIN_SECRET || undefined,
    stringifyNumericTypes: argv.includes("--stringify-numeric-types") || env.HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES === "true",
    seedDemo: databaseUrl ? argv.includes("--seed-demo") || env.SEED_DEMO === "true" : env.SEED_DEMO !== "false",
    mediaDir: path.resolve(env.MEDIA_DIR ?? path.join(dataDir, "media")),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    trustProxy: env.TRUST_PROXY === "true",
    authRateLimit: Number(env.AUTH_RATE_LIMIT ?? 10),
    statementTimeoutMs: Number(env.STATEMENT_TIMEOUT_MS ?? 15_000),
    staffStatementTimeoutMs: Number(env.STAFF_STATEMENT_TIMEOUT_MS ?? 5_000),
    pdfTimeLimitMs: Number(env.PDF_TIME_LIMIT_MS ?? 10_000),
    pdfWorkers: Number(env.PDF_WORKERS ?? 1),
    auditRetentionMonths: auditRetentionMonths(env.AUDIT_RETENTION_MONTHS),
    financeTestPauses: env.FINANCE_TEST_PAUSES === "true",
  };
}

/** Seven years by default: beyond the five years Singapore asks accounting records to be kept. */
export const DEFAULT_AUDIT_RETENTION_MONTHS = 84;

function auditRetentionMonths(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_AUDIT_RETENTION_MONTHS;
  const months = Number(value);
  if (!Number.isInteger(months) || months < 0) throw new Error(`AUDIT_RETENTION_MONTHS must be a whole number of months (0 keeps the audit log forever), not "${value}".`);
  return months;
}
