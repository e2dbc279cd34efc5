import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";

/**
 * Issue 32 (3a): a pattern that makes PostgreSQL backtrack exponentially (back-references, nested quantifiers)
 * held the one embedded connection for the whole statement timeout. Non-admin roles' patterns are checked first.
 */
describe.each(databaseLanes())("pattern safety of the GraphQL engine [%s]", (lane) => {
  let server: TestServer;
  let staff: string;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    staff = (await signIn(server.app, "front_desk")).accessToken;
    admin = (await signIn(server.app, "admin")).accessToken;
  });
  afterAll(async () => server?.close());

  type Answer = { data?: { users: { id: string }[] }; errors?: { message: string; extensions: { code: string } }[] };
  const users = async (token: string, op: string, pattern: string) => {
    const query = `query($p: String!) { users(where: {fullName: {${op}: $p}}, limit: 5) { id } }`;
    return (await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query, variables: { p: pattern } } })).json() as Answer;
  };

  it("refuses a staff _regex with back-references and nested quantifiers, naming the field and the reason", async () => {
    const r = await users(staff, "_regex", "(a*)*(a*)*\\1\\2!");
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0].extensions.code).toBe("validation-failed");
    expect(r.errors?.[0].message).toBe(`the _regex pattern on "fullName" is not allowed: the group (a*) is repeated and holds a quantifier (nested quantifiers can take exponential time)`);
    const backReference = await users(staff, "_niregex", "(a)(b)\\1\\2");
    expect(backReference.errors?.[0].message).toBe(`the _niregex pattern on "fullName" is not allowed: it uses a back-reference (\\1), which can take exponential time`);
    const alternation = await users(staff, "_iregex", "^(a|aa)*$");
    expect(alternation.errors?.[0].message).toMatch(/^the _iregex pattern on "fullName" is not allowed: the group \(a\|aa\) is repeated and holds an alternation/);
    const similar = await users(staff, "_similar", "(a%)*!");
    expect(similar.errors?.[0].message).toMatch(/^the _similar pattern on "fullName" is not allowed: the group \(a%\) is repeated/);
  });

  it("keeps the app's own filter patterns working for staff (starts/ends with, and their negations with lookarounds)", async () => {
    for (const [op, pattern] of [["_iregex", "^a"], ["_iregex", "^(?!a)"], ["_iregex", "(?<!z)$"], ["_iregex", "n$"], ["_similar", "A%"], ["_nsimilar", "%z"]]) {
      const r = await users(staff, op, pattern);
      expect(r.errors, `${op} ${pattern}`).toBeUndefined();
      expect(Array.isArray(r.data?.users)).toBe(true);
    }
  });

  it("lets an admin's pattern through unchecked", async () => {
    const r = await users(admin, "_regex", "(a)(b)\\1\\2");
    expect(r.errors).toBeUndefined();
    expect(r.data?.users).toEqual([]);
  });
});
