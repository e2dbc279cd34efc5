/**
 * `npm run bench -- hostile [--scale N] [--requests N] [--concurrency N]` (issue 11)
 *
 * 16 clients (--concurrency) page through the student list over loopback HTTP as front_desk, first alone,
 * then while hostile clients send, as fast as they are answered, the depth-7 users → branch → users fan-out
 * and a 13,500-character _regex (staff: refused by the request budget), then while a signed-in admin sends the
 * fan-out (refused by the same budget), and finally while the admin secret (the operator's tooling, unbounded as
 * in Hasura) runs it until the statement timeout. Prints the light query's
 * p50/p95/p99 per phase, /healthz latency, and what the hostile requests got. Fresh embedded database under
 * ./data/bench-hostile-<scale> (seeded once, reused).
 */
import http from "node:http";
import path from "node:path";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../server/config.ts";
import { openDatabase, migrate } from "../server/db/index.ts";
import { seedDemo, DEMO_PASSWORD } from "../server/db/seed-demo.ts";
import { seedScale } from "../server/db/seed-cli.ts";
import { buildServer } from "../server/app.ts";
import { percentile, runConcurrent } from "./stats.ts";

export interface HostileOptions {
  scale: number;
  requests: number;
  concurrency: number;
}

const STUDENTS = {
  query: `query StudentsList($limit: Int!, $offset: Int!) {
    users(where: {role: {_eq: "student"}, status: {_neq: "deleted"}}, limit: $limit, offset: $offset, order_by: [{updatedAt: desc}, {id: asc}]) { id studentId fullName email phone status }
    users_aggregate(where: {role: {_eq: "student"}, status: {_neq: "deleted"}}) { aggregate { count } }
  }`,
  variables: { limit: 10, offset: 0 },
};
const FAN_OUT = { query: `{ users { id branch { id users { id branch { id users { id branch { id users { id } } } } } } } }` };
const LONG_REGEX = { query: `query($p: String!) { users(where: {fullName: {_regex: $p}}) { id } }`, variables: { p: "(a|b)".repeat(2700) } };

function request(agent: http.Agent, port: number, method: "GET" | "POST", urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? "" : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method, agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const ms = (v: number) => v.toFixed(1);

export async function benchHostile(options: HostileOptions): Promise<boolean> {
  const dataDir = path.resolve(`data/bench-hostile-${options.scale}`);
  const marker = path.join(dataDir, "bench-seeded.json");
  const adminSecret = randomBytes(16).toString("hex");
  const config = { ...configFromEnv({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", HASURA_GRAPHQL_ADMIN_SECRET: adminSecret }, []), port: 0, host: "127.0.0.1" };
  if (!existsSync(marker)) {
    rmSync(dataDir, { recursive: true, force: true }); // an interrupted seed is started again
    // seeding without the statement timeout (as `npm run seed` does): bulk statements are long by design
    const seeding = await openDatabase(config);
    try {
      console.log(`Seeding PGlite ${path.relative(process.cwd(), dataDir)}: demo data + --scale ${options.scale}…`);
      await migrate(seeding);
      await seedDemo(seeding);
      await seedScale(seeding, options.scale, { log: (l) => console.log(`  ${l}`) });
      await seeding.exec("analyze");
      writeFileSync(marker, JSON.stringify({ at: new Date().toISOString() }));
    } finally {
      await seeding.close();
    }
  }
  const db = await openDatabase(config, { statementTimeoutMs: config.statementTimeoutMs });
  const { total } = await migrate(db);
  const app = await buildServer({ db, config, migrations: total }, { logger: false, serveApp: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const agents = Array.from({ length: options.concurrency + 4 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    const bearerOf = async (username: string) => {
      const signIn = await request(agents[0], port, "POST", "/auth/sign-in", { username, password: DEMO_PASSWORD });
      const token = (JSON.parse(signIn.text) as { data?: { accessToken?: string } }).data?.accessToken;
      if (!token) throw new Error(`sign-in as ${username} failed: ${signIn.status} ${signIn.text.slice(0, 200)}`);
      return { authorization: `Bearer ${token}` };
    };
    const staff = await bearerOf("front_desk");
    const signedInAdmin = await bearerOf("admin");
    const admin = { "x-hasura-admin-secret": adminSecret };

    let client = 0;
    const light = async () => {
      const agent = agents[client++ % options.concurrency];
      const r = await request(agent, port, "POST", "/v1/graphql", STUDENTS, staff);
      if (r.status !== 200 || r.text.includes('"errors"')) throw new Error(`student list failed: ${r.text.slice(0, 200)}`);
    };
    const rows: string[][] = [["phase", "light n", "p50", "p95", "p99", "max", "/healthz p99", "hostile requests (answer, ms)"]];
    const phase = async (name: string, hostile?: { body: unknown; headers: Record<string, string> }[], requests = options.requests) => {
      let running = true;
      const hostileLog = new Map<string, number[]>();
      const hostileLoops = (hostile ?? []).map(async (h, i) => {
        while (running) {
          const t = performance.now();
          const r = await request(agents[options.concurrency + i], port, "POST", "/v1/graphql", h.body, h.headers);
          const answer = r.text.includes('"errors"') ? (JSON.parse(r.text) as { errors: { message: string }[] }).errors[0].message.slice(0, 48) : `data, ${r.text.length} chars`;
          hostileLog.set(answer, [...(hostileLog.get(answer) ?? []), performance.now() - t]);
        }
      });
      const health: number[] = [];
      const healthLoop = (async () => {
        while (running) {
          const t = performance.now();
          await request(agents[options.concurrency + 3], port, "GET", "/healthz");
          health.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      if (hostile) await new Promise((r) => setTimeout(r, 200)); // the hostile requests are under way
      const { latencies } = await runConcurrent(requests, options.concurrency, light);
      running = false;
      await Promise.all([...hostileLoops, healthLoop]);
      const sorted = [...latencies].sort((a, b) => a - b);
      const hs = [...health].sort((a, b) => a - b);
      const answers = [...hostileLog].map(([a, t]) => `${t.length}× "${a}" (max ${ms(Math.max(...t))})`).join("; ");
      rows.push([name, String(sorted.length), ms(percentile(sorted, 50)), ms(percentile(sorted, 95)), ms(percentile(sorted, 99)), ms(sorted[sorted.length - 1]), ms(percentile(hs, 99)), answers || "—"]);
      return percentile(sorted, 99);
    };
    await phase("warm-up");
    rows.pop();
    const alone = await phase("student list alone");
    const staffHostile = await phase("+ staff fan-out and long regex", [
      { body: FAN_OUT, headers: staff },
      { body: LONG_REGEX, headers: staff },
    ]);
    const adminHostile = await phase("+ signed-in admin's fan-out", [{ body: FAN_OUT, headers: signedInAdmin }]);
    // each admin-secret fan-out holds the one embedded connection until the watchdog ends it: a short phase
    await phase("+ admin-secret fan-out (no budget)", [{ body: FAN_OUT, headers: admin }], options.concurrency * 4);
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) console.log(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  "));
    console.log(`(latencies in ms over loopback HTTP, ${options.concurrency} clients, ${options.requests} student-list requests per phase (the admin phase ${options.concurrency * 4}); statement timeout ${config.statementTimeoutMs} ms)`);
    const ok = staffHostile < 100 && adminHostile < 100;
    console.log(`${ok ? "OK" : "OVER BUDGET"}: the student list's p99 with the staff hostile queries running is ${ms(staffHostile)} ms, with a signed-in admin's fan-out ${ms(adminHostile)} ms (alone ${ms(alone)} ms; budget 100 ms).`);
    return ok;
  } finally {
    agents.forEach((a) => a.destroy());
    await app.close();
    await db.close();
  }
}
