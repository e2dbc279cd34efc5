/**
 * Report speed (issue 17 §3, issue 38): every report over a year, as finance_manager through its REST call (the paged
 * ones: their first page), one request after another; budget p95 < 300 ms on a `seed --scale 20000` group. Printed as
 * a table by `npm run bench -- graphql`.
 */
import http from "node:http";
import { REPORTS } from "../src/domain/reports.ts";
import { todayInSingapore } from "../src/domain/dates.ts";
import { ms, runConcurrent, summarize, table } from "./stats.ts";

const BUDGET_MS = 300;

function get(agent: http.Agent, port: number, urlPath: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method: "GET", agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function benchReports(port: number, agent: http.Agent, token: string, requests: number): Promise<boolean> {
  const to = todayInSingapore();
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
  const rows: string[][] = [["report (one year)", "rows", "p50", "p95", "budget p95", ""]];
  let ok = true;
  for (const r of Object.values(REPORTS)) {
    const q = (r.filters as readonly string[]).includes("date") ? `date=${to}` : `from=${from}&to=${to}`;
    let count = 0;
    const once = async () => {
      const res = await get(agent, port, `/api/v2${r.endpoint}?${q}`, token);
      if (res.status !== 200) throw new Error(`${r.endpoint}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      count = (JSON.parse(res.text) as { data: { rows: unknown[] } }).data.rows.length;
    };
    await runConcurrent(2, 1, once);
    const m = await runConcurrent(requests, 1, once);
    const s = summarize(m.latencies, m.wallMs);
    const pass = s.p95 < BUDGET_MS;
    ok &&= pass;
    rows.push([r.title, String(count), ms(s.p50), ms(s.p95), `< ${BUDGET_MS}`, pass ? "PASS" : "OVER"]);
  }
  console.log(`\n${table(rows)}\n(latencies in ms; GET /api/v2/reports/… as finance_manager, one after another)`);
  return ok;
}
