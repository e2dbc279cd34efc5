/**
 * Finance benchmarks (issue 14 "Done when"): the PA list as the finance list page asks for it (engine vs
 * hand SQL: a case of bench/graphql.ts) and the save of a 3-class payment advice through
 * PUT /api/v2/finances/payment-advices/{id} — validation, pricing from the database, one transaction with
 * its log row — measured one save after another (each sends the updatedAt the previous one returned).
 */
import http from "node:http";
import type { Db } from "../server/db/index.ts";
import { todayInSingapore } from "../src/domain/dates.ts";
import { runConcurrent, summarize, type Summary } from "./stats.ts";

export const PA_LIST_GQL = `query PaymentAdviceList($where: payment_advices_bool_exp!, $limit: Int!, $offset: Int!, $orderBy: [payment_advices_order_by!]) {
  payment_advices(where: $where, limit: $limit, offset: $offset, order_by: $orderBy) {
    id name paymentStatus issueDate dueDate gst paymentSummaryStatic updatedAt
    student { id studentId fullName }
    company { id name shortName }
  }
  payment_advices_aggregate(where: $where) { aggregate { count } }
}`;
export const PA_LIST_VARS = {
  where: { _and: [{ status: { _neq: "deleted" } }, { paymentStatus: { _in: ["unpaid", "paid", "overpaid"] } }] },
  limit: 10,
  offset: 0,
  orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
};
const PA_LIST_WHERE = `p.status <> 'deleted' and p."paymentStatus" = any($1::text[])`;
export const PA_LIST_SQL = `select json_build_object('data', json_build_object(
  'payment_advices', coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name, 'paymentStatus', p."paymentStatus",
      'issueDate', p."issueDate", 'dueDate', p."dueDate", 'gst', p.gst, 'paymentSummaryStatic', p."paymentSummaryStatic", 'updatedAt', p."updatedAt",
      'student', (select json_build_object('id', s.id, 'studentId', s."studentId", 'fullName', s."fullName") from users s where s.id = p."studentId"),
      'company', (select json_build_object('id', c.id, 'name', c.name, 'shortName', c."shortName") from companies c where c.id = p."companyId")
    ) order by p."updatedAt" desc, p.id)
    from (select * from payment_advices p where ${PA_LIST_WHERE} order by p."updatedAt" desc, p.id limit 10) p), '[]'),
  'payment_advices_aggregate', json_build_object('aggregate', json_build_object('count', (select count(*) from payment_advices p where ${PA_LIST_WHERE})))
))::text as json`;
export const PA_LIST_PARAMS = [["unpaid", "paid", "overpaid"]];

export function request(agent: http.Agent, port: number, method: string, urlPath: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: urlPath, method, agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** p50/p95 of saving one 3-class draft `requests` times in a row, signed in with `token` (a PA role). */
export async function benchPaSave(db: Db, port: number, agent: http.Agent, token: string, requests: number, warmup: number): Promise<{ summary: Summary; classes: number }> {
  const { rows: picks } = await db.query<{ id: string; companyId: string; branchId: string; termId: string; start: string }>(
    `select distinct on (c."programId") c.id, c."companyId", c."branchId", l."termId" as "termId", min(l.date)::text as start
     from classes c join lessons l on l."classId" = c.id and l."lessonStatus" = 'active' and l.status = 'active' and l."termId" is not null
     where c."classType" = 'regular' and c."classStatus" = 'open' and c.status = 'active' and c."companyId" = (select id from companies where "shortName" = 'BME')
     group by c.id, l."termId" order by c."programId", count(*) desc, c.id limit 3`,
  );
  if (picks.length < 3) throw new Error("the bench database has fewer than 3 open regular classes of different programmes");
  const { rows: st } = await db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' and "companyId" = $1 order by username limit 1`, [picks[0]!.companyId]);
  const today = todayInSingapore();
  const fields = {
    studentId: st[0]!.id, companyId: picks[0]!.companyId, branchId: picks[0]!.branchId, issueDate: today, dueDate: today, gst: 9, isRegistrationFee: true,
    classInformations: picks.map((p) => ({ id: p.id, lessonStartDate: p.start, termIds: [p.termId], deductions: [{ name: "Goodwill", amount: "5.00" }] })),
  };
  const auth = { authorization: `Bearer ${token}` };
  const init = await request(agent, port, "POST", "/api/v2/finances/payment-advices/init", fields, auth);
  if (init.status !== 201) throw new Error(`PA init: HTTP ${init.status} ${init.text.slice(0, 300)}`);
  const pa = JSON.parse(init.text).data as { id: string; updatedAt: string };
  let updatedAt = pa.updatedAt;
  let n = 0;
  const save = async () => {
    const r = await request(agent, port, "PUT", `/api/v2/finances/payment-advices/${pa.id}`, { ...fields, remarks: `save ${n++}`, action: "save", updatedAt }, auth);
    if (r.status !== 200) throw new Error(`PA save: HTTP ${r.status} ${r.text.slice(0, 300)}`);
    updatedAt = (JSON.parse(r.text).data as { updatedAt: string }).updatedAt;
  };
  await runConcurrent(warmup, 1, save);
  const r = await runConcurrent(requests, 1, save);
  return { summary: summarize(r.latencies, r.wallMs), classes: picks.length };
}
