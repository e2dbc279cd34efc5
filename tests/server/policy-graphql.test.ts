import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { databaseLanes } from "../support/db.ts";
import { STAFF_ROLES, bearer, signIn, startTestServer, userId, type TestServer } from "../support/auth.ts";

/** Per role: a table inside its data rules, and one outside them (docs/DECISIONS.md, Access policy). */
const TABLES: Record<(typeof STAFF_ROLES)[number], { inside: string; outside: string }> = {
  front_desk: { inside: "broadcasts", outside: "surveys" },
  ops_manager: { inside: "payment_advices", outside: "reward_reports" },
  hr: { inside: "users", outside: "broadcasts" },
  finance_staff: { inside: "refunds", outside: "broadcasts" },
  finance_manager: { inside: "credit_notes", outside: "broadcasts" },
  attendance_checker: { inside: "lessons_students", outside: "payment_advices" },
  sales: { inside: "news", outside: "payment_advices" },
  intern: { inside: "posts", outside: "reward_reports" },
  fulltime_tutor: { inside: "lessons", outside: "payment_advices" },
  parttime_tutor: { inside: "lesson_sessions", outside: "payment_advices" },
  hod: { inside: "lessons", outside: "payment_advices" },
};

async function gql(app: FastifyInstance, token: string, query: string) {
  const res = await app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query } });
  return res.json() as { data?: Record<string, unknown[]>; errors?: { message: string }[] };
}

describe.each(databaseLanes())("access policy: GraphQL permissions generated from the data rules [%s]", (lane) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of [...STAFF_ROLES, "admin"]) tokens[role] = (await signIn(server.app, role)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(STAFF_ROLES)("%s: a table inside its data rules answers, one outside (and enquiries) fails", async (role) => {
    const { inside, outside } = TABLES[role];
    const ok = await gql(server.app, tokens[role], `{ ${inside}(limit: 1) { id } }`);
    expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
    expect(Array.isArray(ok.data?.[inside])).toBe(true);
    for (const table of [outside, "enquiries"]) {
      const refused = await gql(server.app, tokens[role], `{ ${table}(limit: 1) { id } }`);
      expect(refused.errors?.length, `${role} ${table}`).toBeGreaterThan(0);
      expect(refused.data).toBeFalsy();
    }
  });

  it("admin reads every table", async () => {
    const res = await gql(server.app, tokens.admin, `{ enquiries(limit: 1) { id } refunds(limit: 1) { id } }`);
    expect(res.errors).toBeUndefined();
  });

  it("a tutor sees only the lessons they teach; hod sees every lesson", async () => {
    const tutorId = await userId(server.db, "fulltime_tutor");
    const mine = await gql(server.app, tokens.fulltime_tutor, `{ lessons { id sessions { tutorIds } } }`);
    expect(mine.errors).toBeUndefined();
    const lessons = mine.data!.lessons as { sessions: { tutorIds: string[] }[] }[];
    for (const l of lessons) expect(l.sessions.some((s) => s.tutorIds.includes(tutorId))).toBe(true);
    const { rows } = await server.db.query<{ n: number }>(`select count(*)::int as n from lessons`);
    const all = await gql(server.app, tokens.hod, `{ lessons_aggregate { aggregate { count } } }`);
    expect(all.errors).toBeUndefined();
    expect((all.data!.lessons_aggregate as unknown as { aggregate: { count: number } }).aggregate.count).toBe(rows[0].n);
    expect(lessons.length).toBeGreaterThan(0);
    expect(lessons.length).toBeLessThan(rows[0].n);
  });

  it("a role managing students cannot change a staff user through GraphQL (front_desk on admin)", async () => {
    const res = await gql(server.app, tokens.front_desk, `mutation { update_users(where: {username: {_eq: "admin"}}, _set: {firstName: "X"}) { affected_rows } }`);
    expect(res.errors).toBeUndefined();
    expect((res.data!.update_users as unknown as { affected_rows: number }).affected_rows).toBe(0);
  });
});
