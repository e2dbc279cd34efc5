import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite } from "../../server/db/pglite.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import { migrate } from "../../server/db/migrate.ts";
import { seedDemo } from "../../server/db/seed-demo.ts";
import { databaseLanes } from "./lanes.ts";

/** Migrate and seed once per run; each test file then starts from a copy (DESIGN §9). */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "backoffice-test-"));
  const db = await openPglite();
  await migrate(db);
  await seedDemo(db);
  const dump = await db.dumpDataDir();
  await db.close();
  const dumpFile = path.join(dir, "template.tar");
  writeFileSync(dumpFile, dump);
  project.provide("pgliteTemplate", dumpFile);

  let templateName = "";
  const url = process.env.TEST_DATABASE_URL;
  if (databaseLanes().includes("postgres") && url) {
    templateName = `bo_template_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${templateName}"`);
    await admin.end();
    const tdb = await openPostgres(withDatabase(url, templateName), { max: 2 });
    await migrate(tdb);
    await seedDemo(tdb);
    await tdb.close();
  }
  project.provide("postgresTemplate", templateName);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (templateName && url) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists "${templateName}" with (force)`);
      await admin.end();
    }
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}
