/**
 * `npm run bench -- graphql --postgraphile http://127.0.0.1:5678/graphql` (issue 18: "keep them ahead of PostGraphile v5"):
 * after the engine-vs-SQL table, queries (a)(b)(c) are also sent to a PostGraphile v5 server on the same database,
 * alternating in rounds with the engine, by the same load client; the table shows both sides' requests per second.
 *
 * PostGraphile is not a dependency of the product; run it beside the bench (it needs Node ≥ 22), e.g. in a scratch folder:
 *   npm install postgraphile@5 postgraphile-plugin-connection-filter@4
 *   graphile.config.mjs:
 *     import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
 *     import { PostGraphileConnectionFilterPreset } from "postgraphile-plugin-connection-filter";
 *     import { makePgService } from "postgraphile/adaptors/pg";
 *     export default {
 *       extends: [PostGraphileAmberPreset, PostGraphileConnectionFilterPreset],
 *       pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ["public"], poolConfig: { max: 10 } })],
 *       schema: { connectionFilterRelations: true },
 *       disablePlugins: ["PgIndexBehaviorsPlugin"], // order and filter by any column, as the engine's admin may
 *       grafserv: { port: 5678, host: "127.0.0.1", graphiql: false, watch: false },
 *     };
 *   DATABASE_URL=$BENCH_DATABASE_URL NODE_ENV=production npx postgraphile -C graphile.config.mjs
 * PostGraphile connects as the database's owner (no row security): compare with `--as-admin`.
 */
import { measurePair, ms, table, type Rounds } from "./stats.ts";
import type { LoadClient } from "./http-load.ts";
import type { Case } from "./graphql.ts";

/** The same rows as (a)(b)(c) in PostGraphile's schema (connection filter plugin). (b) orders by lesson id, not date: ordering by a related table's column needs another plugin. */
export function postgraphileDocuments(classId: string): Record<string, string> {
  return {
    a: `{ allUsers(filter: {role: {equalTo: "student"}, status: {notEqualTo: "deleted"}, or: [{firstName: {likeInsensitive: "%an%"}}, {fullName: {likeInsensitive: "%an%"}}]}, first: 10, orderBy: [UPDATED_AT_DESC, ROW_ID_ASC]) {
      nodes { rowId studentId firstName lastName fullName email phone status companyId branchId updatedAt } totalCount } }`,
    b: `{ allLessonsStudents(filter: {lessonByLessonId: {classId: {equalTo: ${JSON.stringify(classId)}}}}, orderBy: [LESSON_ID_ASC, ROW_ID_ASC]) {
      nodes { rowId type status hasAttended entryTime remarks userByStudentId { rowId studentId fullName } lessonByLessonId { rowId date numberWeek lessonStatus } } } }`,
    c: `{ allPaymentAdvices(filter: {status: {notEqualTo: "deleted"}}, first: 10, orderBy: [UPDATED_AT_DESC, ROW_ID_ASC]) {
      nodes { rowId name paymentStatus issueDate dueDate paidAt gst updatedAt userByStudentId { rowId studentId fullName } companyByCompanyId { rowId name shortName } } totalCount } }`,
  };
}

type Answer = { data?: Record<string, unknown>; errors?: unknown };

/** Rows and counts of a one-field answer: the engine's list (+ _aggregate) or PostGraphile's connection. */
function shape(answer: Answer): string {
  const data = answer.data ?? {};
  const list = Object.entries(data).find(([k]) => !k.endsWith("_aggregate"))?.[1] as unknown[] | { nodes: unknown[]; totalCount?: number } | undefined;
  const aggregate = Object.entries(data).find(([k]) => k.endsWith("_aggregate"))?.[1] as { aggregate: { count: number } } | undefined;
  const rows = Array.isArray(list) ? list.length : (list?.nodes.length ?? 0);
  const total = aggregate?.aggregate.count ?? (Array.isArray(list) ? undefined : list?.totalCount);
  return `${rows} rows${total === undefined ? "" : `, total ${total}`}`;
}

export async function comparePostgraphile(
  url: string,
  cases: readonly Case[],
  classId: string,
  engine: { rounds: (c: Case) => Rounds; answer: (c: Case) => Promise<string> },
  load: LoadClient,
  o: { warmup: number; processWarmup: number; requests: number; concurrency: number },
): Promise<boolean> {
  const target = new URL(url);
  const documents = postgraphileDocuments(classId);
  const ask = async (query: string): Promise<Answer> => {
    const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
    return (await res.json()) as Answer;
  };
  const rows: string[][] = [["query", "rows", "engine p50", "req/s", "PostGraphile p50", "req/s", "engine ÷ PostGraphile req/s", ""]];
  let ok = true;
  console.log(`\nPostGraphile at ${url}: the same rows, each side alternating in rounds, the same load client`);
  const pairs: { c: Case; ours: Answer; postgraphile: Rounds }[] = [];
  for (const c of cases) {
    const letter = /^\(([a-z])\)/.exec(c.name)?.[1] ?? "";
    const query = documents[letter];
    if (!query) continue;
    const [theirs, ours] = [await ask(query), JSON.parse(await engine.answer(c)) as Answer];
    if (theirs.errors || shape(theirs) !== shape(ours)) throw new Error(`${c.name}: PostGraphile answers ${JSON.stringify(theirs.errors ?? shape(theirs)).slice(0, 400)}, the engine ${shape(ours)}`);
    const postgraphile: Rounds = (total, concurrency) =>
      load.round({ host: target.hostname, port: Number(target.port || 80), path: target.pathname, body: { query }, headers: {} }, total, concurrency);
    pairs.push({ c, ours, postgraphile });
  }
  // PostGraphile's process warmed as the engine's was (graphql.ts): its JIT settles too
  for (const { postgraphile } of pairs) await postgraphile(Math.ceil(o.processWarmup / pairs.length), o.concurrency);
  for (const { c, ours, postgraphile } of pairs) {
    const [e, p] = await measurePair(engine.rounds(c), postgraphile, { warmup: o.warmup, total: o.requests, concurrency: o.concurrency });
    const ahead = e.rps / p.rps;
    if (!(ahead > 1)) ok = false;
    rows.push([c.name, shape(ours), ms(e.p50), e.rps.toFixed(0), ms(p.p50), p.rps.toFixed(0), ahead.toFixed(2), ahead > 1 ? "AHEAD" : "BEHIND"]);
  }
  console.log(`${table(rows)}\n(latencies in ms; both over loopback HTTP from the bench's worker-thread clients)`);
  return ok;
}
