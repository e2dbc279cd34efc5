import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";

/** Issue 11: every request is bounded before it reaches the database. */
describe.each(databaseLanes())("request limits of the GraphQL engine [%s]", (lane) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    token = (await signIn(server.app, "front_desk")).accessToken;
  });
  afterAll(async () => server?.close());

  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query, variables } });
    return res.json() as { data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string } }[] };
  };
  const studentList = () => gql(`{ users(where: {role: {_eq: "student"}}, limit: 10) { id fullName } }`);

  it("refuses the depth-7 users → branch → users fan-out by its row budget, and the next request answers", async () => {
    const r = await gql(`{ users { id branch { id users { id branch { id users { id branch { id users { id } } } } } } } }`);
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0].extensions.code).toBe("validation-failed");
    expect(r.errors?.[0].message).toMatch(/could return up to .* rows across its nested lists; the limit is 10000000/);
    const ok = await studentList();
    expect(ok.errors).toBeUndefined();
    expect((ok.data!.users as unknown[]).length).toBeGreaterThan(0);
  });

  it("bounds a signed-in admin too: the fan-out is refused, while an admin's lists are not cut at 1,000 rows", async () => {
    const adminToken = (await signIn(server.app, "admin")).accessToken;
    const asAdmin = async (query: string) =>
      (await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(adminToken), payload: { query } })).json() as { data?: Record<string, unknown[]>; errors?: { message: string }[] };
    const fanOut = await asAdmin(`{ users { id branch { id users { id branch { id users { id branch { id users { id } } } } } } } }`);
    expect(fanOut.data).toBeUndefined();
    expect(fanOut.errors?.[0].message).toMatch(/could return up to .* rows across its nested lists; the limit is 10000000/);
    const pattern = await asAdmin(`{ users(where: {fullName: {_regex: "${"(a|b)".repeat(2700)}"}}) { id } }`);
    expect(pattern.errors?.[0].message).toBe(`the _regex pattern on "fullName" is 13500 characters long; the limit is 1000`);
    await server.db.exec(`insert into banks (name) select 'Probe bank ' || g from generate_series(1, 1100) g`);
    try {
      const all = await asAdmin(`{ banks(where: {name: {_like: "Probe bank %"}}) { id } }`);
      expect(all.errors).toBeUndefined();
      expect((all.data!.banks as unknown[]).length).toBe(1100);
    } finally {
      await server.db.exec(`delete from banks where name like 'Probe bank %'`);
    }
  });

  it("still answers a list page with limited nested lists", async () => {
    const r = await gql(`{ users(where: {role: {_eq: "student"}}, limit: 10) { id branch { id name } } }`);
    expect(r.errors).toBeUndefined();
  });

  it("refuses a 13,500-character regular expression (it would wedge the embedded database) with a clear error", async () => {
    const pattern = "(a|b)".repeat(2700);
    for (const op of ["_regex", "_iregex", "_nregex", "_similar", "_like", "_nilike"]) {
      const r = await gql(`query($p: String!) { users(where: {fullName: {${op}: $p}}) { id } }`, { p: pattern });
      expect(r.errors?.[0].message, op).toBe(`the ${op} pattern on "fullName" is 13500 characters long; the limit is 1000`);
    }
    const nested = await gql(`query($p: String!) { users(limit: 1) { id branch { name } } branches(where: {users: {fullName: {_regex: $p}}}) { id } }`, { p: pattern });
    expect(nested.errors?.[0].message).toMatch(/_regex pattern on "fullName" is 13500 characters long/);
    // the statement that used to spin forever after the long pattern: any error
    const error = await gql(`{ users(where: {fullName: {_regex: "("}}) { id } }`);
    expect(error.errors?.[0].extensions.code).toBe("data-exception");
    expect((await studentList()).errors).toBeUndefined();
  });

  it("counts aliases after fragments are spread: three nested fragments of 16 aliases are 4,368, not 48", async () => {
    const aliases = (name: string, inner: string) => Array.from({ length: 16 }, (_, i) => `${name}${i}: ${inner}`).join(" ");
    const query = `
      query { users(limit: 1) { ...A } }
      fragment A on users { ${aliases("a", "branch { ...B }")} }
      fragment B on branches { ${aliases("b", "company { ...C }")} }
      fragment C on companies { ${aliases("c", "id")} }`;
    const r = await gql(query);
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0].message).toBe("the query uses 4368 aliases; the limit is 50");
  });
});
