/**
 * The lists' indexes serve the statements the engine really runs. The engine sends every value as a parameter,
 * and PostgreSQL keeps a generic plan for a prepared statement it runs again and again (after five runs, when
 * it costs no more than planning each run): such a plan cannot use a partial index whose predicate names a value
 * (`where status <> 'deleted'` says nothing about `status <> $2`). The student list's index was one; its generic
 * plan read the newest users of every role and sorted them (issue 18). PostgreSQL lane only: PGlite runs every
 * statement unprepared.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";

type PlanNode = { "Node Type": string; "Index Name"?: string; "Relation Name"?: string; Plans?: PlanNode[] };

/** The plan nodes of a tree, parents before children. */
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

const literal = (v: unknown) => (v === null ? "null" : `'${String(v).replace(/'/g, "''")}'`);

describe.runIf(databaseLanes().includes("postgres"))("the lists' indexes and the engine's reused statements", () => {
  let server: TestServer;
  const sent: { sql: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    // the statements the engine sends for reuse, as they reach the database
    server = await startTestServer("postgres", {
      observe: (db) => ({ ...db, query: (sql, params = [], options) => (options?.reuse && sent.push({ sql, params }), db.query(sql, params, options)) }),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The generic plan of the statement the engine sends for this request, with scans of whole tables and sorts priced out. */
  async function genericPlan(username: string, query: string, variables: Record<string, unknown>): Promise<PlanNode> {
    const { accessToken } = await signIn(server.app, username);
    sent.length = 0;
    const res = await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(accessToken), payload: { query, variables } });
    expect(res.json().errors).toBeUndefined();
    const [statement] = sent.filter((s) => s.sql.includes("json_agg"));
    return server.db.transaction(async (tx) => {
      // whatever the table sizes of the test database, the plan takes an index whenever one can serve it
      await tx.exec(`set local plan_cache_mode = force_generic_plan; set local enable_seqscan = off; set local enable_bitmapscan = off; set local enable_sort = off; set local enable_incremental_sort = off`);
      await tx.exec(`prepare list_statement as ${statement.sql}`);
      const explained = await tx.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (format json) execute list_statement(${statement.params.map(literal).join(", ")})`);
      await tx.exec(`deallocate list_statement`);
      return explained.rows[0]["QUERY PLAN"][0].Plan;
    });
  }

  /** The scan right under the page's Limit: the page's rows read in the list's order, none sorted afterwards. */
  const pageScan = (plan: PlanNode) => nodes(plan).find((n) => n["Node Type"] === "Limit")?.Plans?.[0];

  it("the student list (front desk) reads its page from the role's index in the list's order", async () => {
    const plan = await genericPlan(
      "front_desk",
      `query StudentsList($where: users_bool_exp!, $limit: Int!, $orderBy: [users_order_by!]) {
        users(where: $where, limit: $limit, order_by: $orderBy) { id fullName updatedAt }
        users_aggregate(where: $where) { aggregate { count } }
      }`,
      { where: { _and: [{ role: { _eq: "student" } }, { status: { _neq: "deleted" } }] }, limit: 10, orderBy: [{ updatedAt: "desc" }, { id: "asc" }] },
    );
    expect(pageScan(plan)).toMatchObject({ "Node Type": "Index Scan", "Index Name": "users_role_list_idx" });
  });

  it("the invoices of the newest dates (finance) are read from the invoices' list index in order", async () => {
    const plan = await genericPlan(
      "finance_staff",
      `query Invoices($where: invoices_bool_exp!) {
        invoices(where: $where, limit: 10, order_by: [{ invoiceDate: desc }, { updatedAt: desc }]) { id invoiceDate }
      }`,
      { where: { status: { _neq: "deleted" } } },
    );
    expect(pageScan(plan)).toMatchObject({ "Node Type": "Index Scan", "Index Name": "invoices_list_idx" });
  });
});
