import Fastify, { type FastifyInstance } from "fastify";
import WebSocket from "ws";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine } from "./graphql-helpers.ts";
import { graphqlPlugin } from "../../server/graphql/index.ts";
import { cachingVerifier, TOKEN_CACHE_MS } from "../../server/graphql/http/token-cache.ts";
import { HASURA_CLAIMS, InvalidTokenError, type TokenVerifier } from "../../server/auth/types.ts";

const SECRET = "s3cret";
/** Tokens of the form "user:<id>:<role,role>"; anything else is invalid. */
const verifier: TokenVerifier = {
  async verifyAccessToken(token) {
    const m = /^user:(\d+):([\w,]+)$/.exec(token);
    if (!m) throw new InvalidTokenError("JWSInvalidSignature");
    const roles = m[2].split(",");
    return { userId: m[1], username: `u${m[1]}`, claims: { "x-hasura-allowed-roles": roles, "x-hasura-default-role": roles[0], "x-hasura-user-id": m[1] } };
  },
};
void HASURA_CLAIMS;

describe.each(databaseLanes())("POST /v1/graphql and the websocket (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  let app: FastifyInstance;
  let base = "";
  beforeAll(async () => {
    t = await openEngine(lane, { adminSecret: SECRET });
    app = Fastify();
    await app.register(graphqlPlugin, { engine: t.engine, verifier, config: t.config });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const addr = app.server.address();
    base = `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`http://${base}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as { data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string } }[] } };
  };
  const q = { query: "{ gql_author(order_by: {id: asc}) { id } }" };

  it("the admin secret makes an admin; X-Hasura-Role and X-Hasura-* headers make a role session", async () => {
    expect((await post(q, { "x-hasura-admin-secret": SECRET })).body).toEqual({ data: { gql_author: [{ id: 1 }, { id: 2 }, { id: 3 }] } });
    const asUser = await post(q, { "x-hasura-admin-secret": SECRET, "x-hasura-role": "user", "x-hasura-user-id": "3" });
    expect(asUser.body).toEqual({ data: { gql_author: [{ id: 3 }] } });
  });

  it("a wrong admin secret or no credentials: access-denied", async () => {
    const wrong = await post(q, { "x-hasura-admin-secret": "nope" });
    expect(wrong).toEqual({ status: 401, body: { errors: [{ message: "invalid x-hasura-admin-secret/x-hasura-access-key", extensions: { path: "$", code: "access-denied" } }] } });
    const none = await post(q);
    expect(none.status).toBe(401);
    expect(none.body.errors?.[0].extensions.code).toBe("access-denied");
  });

  it("a Bearer token: all allowed roles, or the one X-Hasura-Role picks; X-Hasura-* headers are not trusted", async () => {
    const union = await post({ query: "{ gql_author(order_by: {id: asc}) { id email } }" }, { authorization: "Bearer user:2:user,editor", "x-hasura-user-id": "1" });
    expect(union.body).toEqual({ data: { gql_author: [{ id: 1, email: null }, { id: 2, email: "brian@example.com" }, { id: 3, email: null }] } });
    const one = await post(q, { authorization: "Bearer user:2:user,editor", "x-hasura-role": "user" });
    expect(one.body).toEqual({ data: { gql_author: [{ id: 2 }] } });
    const notAllowed = await post(q, { authorization: "Bearer user:2:user", "x-hasura-role": "admin" });
    expect(notAllowed.body.errors?.[0]).toEqual({ message: "Your requested role is not in allowed roles", extensions: { path: "$", code: "access-denied" } });
    const invalid = await post(q, { authorization: "Bearer garbage" });
    expect(invalid).toEqual({ status: 200, body: { errors: [{ message: "Could not verify JWT: JWSInvalidSignature", extensions: { path: "$", code: "invalid-jwt" } }] } });
  });

  it("malformed JSON is a clear error and writes nothing", async () => {
    const r = await post('{"query": "mutation { delete_gql_article(where: {}) { affected_rows } }"', { "x-hasura-admin-secret": SECRET });
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].extensions.code).toBe("invalid-json");
    expect((await t.db.query("select count(*)::int as n from gql_article")).rows[0]).toEqual({ n: 4 });
    const notObject = await post("42", { "x-hasura-admin-secret": SECRET });
    expect(notObject.status).toBe(400);
  });

  it("answers a batch (JSON array) with an array", async () => {
    const r = await post([q, { query: "{ gql_article_by_pk(id: 2) { title } }" }], { "x-hasura-admin-secret": SECRET });
    expect(r.body).toEqual([{ data: { gql_author: [{ id: 1 }, { id: 2 }, { id: 3 }] } }, { data: { gql_article_by_pk: { title: "Beta" } } }]);
  });

  it("large answers arrive whole and each to its own request, several in flight at once", async () => {
    // over 32k characters each: sent from reused memory (response-bytes.ts); two shapes, so a mix-up would show
    const aliases = (prefix: string, order: string) => Array.from({ length: 1500 }, (_, i) => `${prefix}${i}: gql_author(order_by: {id: ${order}}) { id }`).join(" ");
    const up = { query: `{ ${aliases("up", "asc")} }` };
    const down = { query: `{ ${aliases("down", "desc")} }` };
    const expected = (prefix: string, ids: number[]) => ({ data: Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`${prefix}${i}`, ids.map((id) => ({ id }))])) });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i % 2 ? down : up, { "x-hasura-admin-secret": SECRET })));
    expect(JSON.stringify(answers[0].body).length).toBeGreaterThan(32 * 1024);
    answers.forEach((a, i) => expect(a).toEqual({ status: 200, body: i % 2 ? expected("down", [3, 2, 1]) : expected("up", [1, 2, 3]) }));
  });

  it("a live query over graphql-transport-ws fires again after a mutation, and subscribers of one query share it", async () => {
    const client = createClient({ url: `ws://${base}/v1/graphql`, webSocketImpl: WebSocket, connectionParams: { headers: { Authorization: "Bearer user:1:user" } }, lazy: false });
    const seen: unknown[][] = [[], []];
    const subscribe = (i: number) =>
      client.subscribe({ query: "subscription { gql_article(where: {author_id: {_eq: 1}}, order_by: {id: asc}) { title } }" }, { next: (v) => void seen[i].push(v), error: (e) => void seen[i].push({ error: e }), complete: () => undefined });
    const stop1 = subscribe(0);
    const stop2 = subscribe(1);
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 100));
    };
    await until(() => seen[0].length >= 1 && seen[1].length >= 1);
    expect(seen[0][0]).toEqual({ data: { gql_article: [{ title: "Alpha" }, { title: "Beta" }] } });
    expect((t.engine as unknown as { live: { size: number } }).live.size).toBe(1);
    const ins = await post({ query: 'mutation { insert_gql_article_one(object: {title: "Live"}) { id } }' }, { authorization: "Bearer user:1:user" });
    expect(ins.body.errors).toBeUndefined();
    await until(() => seen[0].length >= 2 && seen[1].length >= 2);
    expect(seen[0][1]).toEqual({ data: { gql_article: [{ title: "Alpha" }, { title: "Beta" }, { title: "Live" }] } });
    expect(seen[1][1]).toEqual(seen[0][1]);
    stop1();
    stop2();
    await client.dispose();
  });

  it("a websocket without valid credentials is closed", async () => {
    const codes = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://${base}/v1/graphql`, "graphql-transport-ws");
      ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { headers: { Authorization: "Bearer bad" } } })));
      ws.on("close", (code) => resolve(code));
    });
    expect(codes).toBe(4403);
  });
});

describe.each(databaseLanes())("the /v1/graphql token cache (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
  });
  afterAll(async () => t?.close());
  const token = (exp: number) => `h.${Buffer.from(JSON.stringify({ sub: "1", exp })).toString("base64url")}.s`;

  it("answers a verified token from memory until the users table changes, never past the token's exp, never a failure", async () => {
    let calls = 0;
    const inner: TokenVerifier = {
      async verifyAccessToken(tok) {
        calls++;
        if (tok.startsWith("bad")) throw new InvalidTokenError("Invalid token.");
        return { userId: "1", username: "u1", claims: { "x-hasura-allowed-roles": ["user"], "x-hasura-default-role": "user", "x-hasura-user-id": "1" } };
      },
    };
    // gql_author stands in for users: a tracked table, so it has the change trigger
    const { verifier: cached, close } = await cachingVerifier(inner, t.db, "public.gql_author");
    try {
      const live = token(Math.floor(Date.now() / 1000) + 600);
      await cached.verifyAccessToken(live);
      await cached.verifyAccessToken(live);
      expect(calls).toBe(1);
      await t.db.query(`update gql_author set bio = bio where id = 1`);
      // the NOTIFY arrives on the listening connection (at once on PGlite, within milliseconds on a server)
      for (let i = 0; i < 100 && calls < 2; i++) {
        await cached.verifyAccessToken(live);
        if (calls < 2) await new Promise((r) => setTimeout(r, 20));
      }
      expect(calls).toBe(2);
      const expired = token(Math.floor(Date.now() / 1000) - 1);
      await cached.verifyAccessToken(expired);
      await cached.verifyAccessToken(expired);
      expect(calls).toBe(4);
      await expect(cached.verifyAccessToken("bad")).rejects.toThrow("Invalid token.");
      await expect(cached.verifyAccessToken("bad")).rejects.toThrow("Invalid token.");
      expect(calls).toBe(6);
      expect(TOKEN_CACHE_MS).toBeLessThanOrEqual(5000);
    } finally {
      await close();
    }
    // a table without the change trigger: nothing is cached
    const plain = await cachingVerifier(inner, t.db, "public.no_such_table");
    const live = token(Math.floor(Date.now() / 1000) + 600);
    await plain.verifier.verifyAccessToken(live);
    await plain.verifier.verifyAccessToken(live);
    expect(calls).toBe(8);
    await plain.close();
  });

  it("tells the open websockets which users a write changed, so only their sockets check their tokens again", async () => {
    const inner: TokenVerifier = { verifyAccessToken: async () => ({ userId: "1", username: "u1", claims: {} as never }) };
    const cached = await cachingVerifier(inner, t.db);
    const told: (string[] | "everyone")[] = [];
    cached.onRevocation((userIds) => told.push(userIds ? [...userIds].sort() : "everyone"));
    // a socket of another user (registered under its own id) is not called at all
    const otherTold: unknown[] = [];
    cached.onRevocation((userIds) => otherTold.push(userIds), "00000000-0000-0000-0000-0000000000ff");
    try {
      const ids = (await t.db.query<{ id: string }>(`select id::text as id from users where username in ('hr', 'sales')`)).rows.map((r) => r.id).sort();
      await t.db.query(`update users set "updatedAt" = "updatedAt" where username in ('hr', 'sales')`);
      for (let i = 0; i < 100 && told.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(told).toEqual([ids]);
      expect(otherTold).toEqual([]);
    } finally {
      await cached.close();
    }
  });
});
