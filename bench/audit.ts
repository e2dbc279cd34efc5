/**
 * `npm run bench -- audit [--requests N]` (issue 36): what the audit trail costs. A PA save (REST, the finance
 * service) and a student update (GraphQL) with the audit trigger on and off, in alternating rounds on one embedded
 * database with the demo data; the ratio of the p50s (goal ≤ 1.10). Then the audit table's growth per 10,000
 * changes (student address updates, as a writer records them).
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { openDatabase, migrate, type Db } from "../server/db/index.ts";
import { seedDemo, DEMO_PASSWORD } from "../server/db/seed-demo.ts";
import { buildServer } from "../server/app.ts";
import { configFromEnv } from "../server/config.ts";
import { benchPaSave } from "./finance.ts";
import { runConcurrent, summarize } from "./stats.ts";

const ROUNDS = 4;

async function setTrigger(db: Db, on: boolean) {
  const { rows } = await db.query<{ t: string }>(`select c.relname as t from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.tgname = 'audit_row'`);
  for (const { t } of rows) await db.exec(`alter table public."${t}" ${on ? "enable" : "disable"} trigger audit_row`);
}

function call(agent: http.Agent, port: number, urlPath: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchAudit(o: { requests: number }): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-audit-"));
  const db = await openDatabase({ dataDir });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { total } = await migrate(db);
    await seedDemo(db);
    const app = await buildServer({ db, config: { ...configFromEnv({}, []), port: 0, host: "127.0.0.1", dataDir, seedDemo: false, mediaDir: path.join(dataDir, "media") }, migrations: total }, { logger: false, serveApp: false });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = (app.server.address() as AddressInfo).port;
    const token = async (username: string) => (JSON.parse((await call(agent, port, "/auth/sign-in", { username, password: DEMO_PASSWORD })).text) as { data: { accessToken: string } }).data.accessToken;
    const fm = await token("finance_manager");
    const admin = { authorization: `Bearer ${await token("admin")}` };
    const student = (await db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' order by username limit 1`)).rows[0]!.id;
    let n = 0;
    const update = async () => {
      const r = await call(agent, port, "/v1/graphql", { query: `mutation($id: uuid!, $a: String) { update_users_by_pk(pk_columns: {id: $id}, _set: {address: $a}) { id } }`, variables: { id: student, a: `Blk ${n++} Bench Road` } }, admin);
      if (r.status !== 200 || r.text.includes('"errors"')) throw new Error(`student update: ${r.text.slice(0, 300)}`);
    };
    const p50 = { pa: { on: [] as number[], off: [] as number[] }, student: { on: [] as number[], off: [] as number[] } };
    for (let round = 0; round < ROUNDS * 2; round++) {
      const on = round % 2 === 0;
      await setTrigger(db, on);
      const arm = on ? "on" : "off";
      p50.pa[arm].push((await benchPaSave(db, port, agent, fm, o.requests, 10)).summary.p50);
      await runConcurrent(10, 1, update);
      const s = await runConcurrent(o.requests, 1, update);
      p50.student[arm].push(summarize(s.latencies, s.wallMs).p50);
    }
    await setTrigger(db, true);
    const ratio = (x: { on: number[]; off: number[] }) => median(x.on) / median(x.off);
    console.log(`PA save (3 classes, REST):      p50 ${median(p50.pa.on).toFixed(2)} ms with the trigger, ${median(p50.pa.off).toFixed(2)} ms without — ratio ${ratio(p50.pa).toFixed(3)}`);
    console.log(`student update (GraphQL):       p50 ${median(p50.student.on).toFixed(2)} ms with the trigger, ${median(p50.student.off).toFixed(2)} ms without — ratio ${ratio(p50.student).toFixed(3)}`);
    console.log(`(median of ${ROUNDS} alternating rounds of ${o.requests} requests each; goal ≤ 1.10)`);

    const size = async () => Number((await db.query<{ b: string }>(`select pg_total_relation_size('app_internal.audit_log')::text as b`)).rows[0]!.b);
    const before = await size();
    const rowsBefore = Number((await db.query<{ n: string }>(`select count(*)::text as n from app_internal.audit_log`)).rows[0]!.n);
    const students = (await db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' order by username limit 100`)).rows.map((r) => r.id);
    for (let batch = 0; batch < 100; batch++) {
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('app.user_id', $1, true), set_config('app.role', 'admin', true), set_config('app.request_id', $2, true)`, [students[0], `bench-${batch}`]);
        await tx.query(`update users set address = 'Blk ' || $2::int || ' Growth Road, Singapore 123456' where id = any($1::uuid[])`, [students, batch]);
      });
    }
    const added = Number((await db.query<{ n: string }>(`select count(*)::text as n from app_internal.audit_log`)).rows[0]!.n) - rowsBefore;
    const grown = (await size()) - before;
    console.log(`audit_log growth: ${added} changes added ${(grown / 1024 / 1024).toFixed(2)} MB (table + indexes) → ${((grown / added) * 10_000 / 1024 / 1024).toFixed(2)} MB per 10,000 changes`);
    await app.close();
    return ratio(p50.pa) <= 1.1 && ratio(p50.student) <= 1.1;
  } finally {
    agent.destroy();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
