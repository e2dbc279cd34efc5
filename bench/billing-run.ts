/**
 * `npm run bench -- billing-run [--students N] [--term "Term 3"]` (issue 39): a term billing run of N students (default 2,000) on
 * the scale data (the branch and term with the most students enrolled, or that term; the scale PAs bill each class's
 * first 12 lessons, so Term 3 is mostly left to bill; classes are added until the preview holds N billable), over HTTP as the screen makes it: the preview of the branch's term, then the issue in batches
 * of BILLING_BATCH_SIZE, one after another. Needs BENCH_DATABASE_URL, a PostgreSQL database seeded with
 * `DATABASE_URL=… npm run seed -- --scale 20000`. Goal: under 60 s for 2,000 students. The run bills a copy of that
 * database (`create database … template …`, dropped after), so every run starts from the same data whatever earlier runs
 * issued; nothing may be connected to BENCH_DATABASE_URL's database meanwhile (PostgreSQL copies only an idle database).
 */
import http from "node:http";
import { request } from "./finance.ts";
import os from "node:os";
import path from "node:path";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { openDatabase, migrate } from "../server/db/index.ts";
import { DEMO_PASSWORD } from "../server/db/seed-demo.ts";
import { buildServer } from "../server/app.ts";
import { configFromEnv } from "../server/config.ts";
import { todayInSingapore } from "../src/domain/dates.ts";
import pg from "pg";
import { BILLING_BATCH_SIZE, type BillingIssueResult, type BillingPreviewRow, type BillingRunSelection } from "../src/domain/finance/billingRun.ts";

/** Runs `sql` on the server's maintenance database (create/drop database cannot run in the database itself). */
async function onServer(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function benchBillingRun(o: { students: number; term?: string }): Promise<boolean> {
  const source = process.env.BENCH_DATABASE_URL;
  if (!source) throw new Error("billing-run needs BENCH_DATABASE_URL: a PostgreSQL database seeded with `DATABASE_URL=… npm run seed -- --scale 20000`");
  const sourceName = decodeURIComponent(new URL(source).pathname.slice(1));
  const copyName = `${sourceName}_bench_${process.pid}`;
  const copy = new URL(source);
  copy.pathname = `/${copyName}`;
  await onServer(source, `create database "${copyName}" template "${sourceName}"`);
  try {
    return await benchOn(copy.toString(), o);
  } finally {
    await onServer(source, `drop database if exists "${copyName}" with (force)`);
  }
}

async function benchOn(url: string, o: { students: number; term?: string }): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-billing-"));
  const db = await openDatabase({ databaseUrl: url, dataDir });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { total } = await migrate(db);
    const app = await buildServer(
      { db, config: { ...configFromEnv({}, []), port: 0, host: "127.0.0.1", dataDir, databaseUrl: url, seedDemo: false, mediaDir: path.join(dataDir, "media") }, migrations: total },
      { logger: false, serveApp: false },
    );
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const port = (app.server.address() as AddressInfo).port;
      const signIn = async () => {
        const res = JSON.parse((await request(agent, port, "POST", "/auth/sign-in", { username: "finance_manager", password: DEMO_PASSWORD }, {})).text) as { data: { accessToken: string } };
        return { authorization: `Bearer ${res.data.accessToken}` };
      };
      let auth = await signIn();
      // a slow run outlives the 15-minute access token: sign in again, as the screen's session refresh does
      const post = async (urlPath: string, body: unknown) => {
        let res = await request(agent, port, "POST", urlPath, body, auth);
        if (res.status === 401) {
          auth = await signIn();
          res = await request(agent, port, "POST", urlPath, body, auth);
        }
        return res;
      };
      // the branch and term with the most students enrolled in open classes that have lessons in it
      const { rows } = await db.query<{ companyId: string; branchId: string; year: number; term: string; n: number }>(
        `select c."companyId", c."branchId", ac.year, t.name as term, count(distinct sc."userId")::int as n
         from student_classes sc join classes c on c.id = sc."classId" and c."classStatus" = 'open' and c.status = 'active'
         join academic_calendars ac on ac.id = c."academicCalendarId" join lessons l on l."classId" = c.id join terms t on t.id = l."termId"
         where sc.status = 'enrolled' and ($1::text is null or t.name = $1) group by 1, 2, 3, 4 order by n desc limit 1`,
        [o.term ?? null],
      );
      const pick = rows[0];
      if (!pick) throw new Error("no enrolled students in open classes: seed the scale data first");
      const dueDate = new Date(Date.parse(`${todayInSingapore()}T00:00:00Z`) + 14 * 86400_000).toISOString().slice(0, 10);
      // classes of that branch and term, in id order, until they hold the students asked for
      const { rows: classes } = await db.query<{ id: string; running: number }>(
        `select id, (sum(n) over (order by id))::int as running from (
           select c.id, count(distinct sc."userId") as n from classes c join academic_calendars ac on ac.id = c."academicCalendarId" and ac.year = $3
           join student_classes sc on sc."classId" = c.id and sc.status = 'enrolled'
           where c."branchId" = $1 and c."classStatus" = 'open' and c.status = 'active'
             and exists (select 1 from lessons l join terms t on t.id = l."termId" where l."classId" = c.id and t.name = $2)
           group by c.id) x order by id`,
        [pick.branchId, pick.term, pick.year],
      );
      // Classes in id order until they hold the students asked for; students already billed for the term are skipped,
      // so the selection grows (by the billable share the last preview found) until its preview has enough billable.
      const choose = (enrolled: number) => classes.slice(0, classes.findIndex((c) => c.running >= enrolled) + 1 || classes.length).map((c) => c.id);
      let classIds: string[] = [];
      let all: BillingPreviewRow[] = [];
      let previewMs = 0;
      for (let enrolled = o.students; ; ) {
        classIds = choose(enrolled);
        const sel: BillingRunSelection = { companyId: pick.companyId, branchId: pick.branchId, year: pick.year, termNames: [pick.term], classIds, programIds: [], dueDate };
        const started = Date.now();
        const preview = await post("/api/v2/finances/billing-runs/preview", sel);
        if (preview.status !== 200) throw new Error(`preview: ${preview.status} ${preview.text.slice(0, 300)}`);
        previewMs = Date.now() - started;
        all = (JSON.parse(preview.text) as { data: { rows: BillingPreviewRow[] } }).data.rows;
        const billableNow = all.filter((r) => !r.skipReason).length;
        if (billableNow >= o.students || classIds.length === classes.length) break;
        enrolled = Math.ceil((enrolled * o.students * 1.05) / Math.max(1, billableNow));
      }
      const sel: BillingRunSelection = { companyId: pick.companyId, branchId: pick.branchId, year: pick.year, termNames: [pick.term], classIds, programIds: [], dueDate };
      console.log(`branch with ${pick.n} students enrolled in ${pick.term} ${pick.year}; ${classIds.length} of its classes chosen (load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`);
      const billable = all.filter((r) => !r.skipReason).slice(0, o.students);
      console.log(`preview: ${all.length} students (${all.filter((r) => !r.skipReason).length} billable) in ${(previewMs / 1000).toFixed(1)} s`);

      const started = Date.now();
      const results: BillingIssueResult[] = [];
      for (let i = 0; i < billable.length; i += BILLING_BATCH_SIZE) {
        const res = await post("/api/v2/finances/billing-runs/issue", { ...sel, studentIds: billable.slice(i, i + BILLING_BATCH_SIZE).map((r) => r.studentId) });
        if (res.status !== 200) throw new Error(`issue: ${res.status} ${res.text.slice(0, 300)}`);
        results.push(...(JSON.parse(res.text) as { data: { results: BillingIssueResult[] } }).data.results);
      }
      const issueMs = Date.now() - started;
      const issued = results.filter((r) => r.status === "issued");
      const numbers = issued.map((r) => Number((r as { name: string }).name.split("-").at(-1)));
      const gapFree = numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
      console.log(`issue: ${issued.length} PAs issued, ${results.length - issued.length} skipped, in ${(issueMs / 1000).toFixed(1)} s (${(issueMs / Math.max(1, results.length)).toFixed(1)} ms per student, batches of ${BILLING_BATCH_SIZE}); numbers in order without a gap: ${gapFree}`);
      const totalMs = previewMs + issueMs;
      const ok = totalMs < 60_000 && gapFree && issued.length === billable.length;
      console.log(`billing run of ${billable.length} students: ${(totalMs / 1000).toFixed(1)} s preview + issue (goal < 60 s) ${ok ? "OK" : "OVER BUDGET OR INCOMPLETE"}; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
      return ok;
    } finally {
      await app.close();
    }
  } finally {
    agent.destroy();
    await db.close();
  }
}
