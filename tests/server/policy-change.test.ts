import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../../server/config.ts";
import { createPolicy, type PolicyService } from "../../server/auth/policy/index.ts";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";

describe.each(databaseLanes())("access policy: changed at run time through the API [%s]", (lane) => {
  let server: TestServer;
  let otherInstance: PolicyService;
  let admin: string;
  let hr: string;
  let sales: string;
  let original: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    otherInstance = await createPolicy({ db: server.db, config: configFromEnv({} as NodeJS.ProcessEnv, []), migrations: 0 });
    admin = (await signIn(server.app, "admin")).accessToken;
    hr = (await signIn(server.app, "hr")).accessToken;
    sales = (await signIn(server.app, "sales")).accessToken;
    original = (await api(server.app, "GET", "/access/policy", admin)).json().data.policy;
  });
  afterAll(async () => {
    await otherInstance?.close();
    await server?.close();
  });
  const put = (token: string, policy: unknown) => api(server.app, "PUT", "/access/policy", token, { policy });

  it("only admin may replace the policy", async () => {
    const res = await put(hr, original);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    expect((await put("", original)).statusCode).toBe(401);
  });

  it("a change takes effect on the very next request: hr loses POST /users, sales gains it", async () => {
    const probe = { username: "x y" }; // invalid body: 400 once past the guard, nothing written
    expect((await api(server.app, "POST", "/users", hr, probe)).statusCode).toBe(400);
    expect((await api(server.app, "POST", "/users", sales, probe)).statusCode).toBe(403);
    const changed = original
      .split("\n")
      .filter((l: string) => l !== "p, hr, api:/users, POST")
      .concat(["p, sales, api:/users, POST"])
      .join("\n");
    const res = await put(admin, changed);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ model: expect.any(String), policy: expect.stringContaining("p, sales, api:/users, POST"), version: 1 });
    expect((await api(server.app, "POST", "/users", hr, probe)).statusCode).toBe(403);
    expect((await api(server.app, "POST", "/users", sales, probe)).statusCode).toBe(400);
    // recorded: who, when, before and after
    const { rows } = await server.db.query<{ changedBy: string; before: string; after: string }>(`select "changedBy", before, after from policy_changes`);
    expect(rows).toHaveLength(1);
    expect(rows[0].before).toContain("p, hr, api:/users, POST");
    expect(rows[0].after).toContain("p, sales, api:/users, POST");
    const me = (await api(server.app, "GET", "/users/me", admin)).json().data;
    expect(rows[0].changedBy).toBe(me.id);
    // the live rules are in casbin_rule
    const stored = await server.db.query(`select 1 from casbin_rule where ptype = 'p' and v0 = 'sales' and v1 = 'api:/users' and v2 = 'POST'`);
    expect(stored.rows).toHaveLength(1);
  });

  it("another server instance over the same database follows (LISTEN/NOTIFY, else the version check)", async () => {
    let seen = false;
    for (let i = 0; i < 40 && !seen; i++) {
      seen = await otherInstance.enforce(["sales"], "api:/users", "POST");
      if (!seen) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe(true);
    expect(await otherInstance.enforce(["hr"], "api:/users", "POST")).toBe(false);
    expect((await otherInstance.snapshot()).version).toBe(1);
  });

  it("GraphQL permissions are rebuilt from the new data rules (onChange fires)", async () => {
    let fired = 0;
    otherInstance.onChange(() => fired++);
    const withExtra = original + "\np, sales, data:enquiries, select\n";
    const res = await put(admin, withExtra);
    expect(res.statusCode).toBe(200);
    await otherInstance.refresh(true);
    expect(fired).toBeGreaterThan(0);
    expect(otherInstance.hasuraPermissions().sales.enquiries.select).toMatchObject({ filter: {} });
  });

  it.each([
    ["a malformed line", "p, hr\n", /Line 1/],
    ["an unknown role", "p, hrr, /user, view\n", /unknown role "hrr"/],
    ["an unknown kind of object", "p, hr, user, view\n", /object/],
    ["a route with a wrong action", "p, hr, /user, show\n", /view/],
    ["an unknown menu entry", "p, hr, menu:Nothing, show\n", /menu/],
    ["an unknown table", "p, hr, data:no_such_table, select\n", /unknown table/],
    ["a backend table", "p, hr, data:user_credentials, select\n", /unknown table/],
    ["a bad row filter", 'p, hr, data:users, select, "{""a"":"\n', /JSON/],
    ["an unterminated quote", 'p, hr, data:users, select, "{\n', /quoted/],
    ["a row filter on a column the table lacks", 'p, intern, data:referrals, select, "{""noSuchColumn"":{""_eq"":1}}"\n', /row filter does not fit the data.*noSuchColumn/],
  ])("a broken policy (%s) is refused with 400 and a clear message; the old one stays", async (_name, line, pattern) => {
    const before = (await api(server.app, "GET", "/access/policy", admin)).json().data;
    const res = await put(admin, line + before.policy);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringMatching(pattern) });
    const after = (await api(server.app, "GET", "/access/policy", admin)).json().data;
    expect(after).toEqual(before);
  });

  it("bad input (no policy) is 400 with a message per field", async () => {
    const res = await api(server.app, "PUT", "/access/policy", admin, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errors: { policy: expect.any(String) } });
  });

  it("admin keeps every right whatever the rules say (no lock-out), and the original policy can be restored", async () => {
    const res = await put(admin, "p, hr, /user, view\n");
    expect(res.statusCode).toBe(200);
    expect((await api(server.app, "GET", "/access/policy", admin)).statusCode).toBe(200);
    expect((await api(server.app, "GET", "/access/policy", hr)).statusCode).toBe(403);
    const restore = await put(admin, original);
    expect(restore.statusCode).toBe(200);
    expect((await api(server.app, "GET", "/access/policy", hr)).statusCode).toBe(200);
  });
});
