/**
 * Issue 10 §5, sessions that outlive their end: an access token carries its sign-in session (`sid`) and is
 * refused once that session ended — after sign-out, after its refresh family was revoked — on REST, GraphQL
 * and the websocket; an open GraphQL websocket is closed when its token expires, when the user signs out, is
 * disabled or has a role taken away, and is refused afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SignJWT, decodeJwt, importJWK, type JWK } from "jose";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, userId, type TestServer, type Tokens } from "../support/auth.ts";

const CLAIMS = "https://hasura.io/jwt/claims";

interface Socket {
  ws: WebSocket;
  /** Resolves with the close code. */
  closed: Promise<number>;
  /** Runs a query over the socket: its `next` payload, or the close code when the socket is closed instead. */
  query(query: string): Promise<{ data?: unknown; errors?: unknown } | { closed: number }>;
}

describe.each(databaseLanes())("sessions end everywhere at once [%s]", (lane) => {
  let server: TestServer;
  let base: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = server.app.server.address() as { port: number };
    base = `127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  const gql = (token: string, query = "{ users(limit: 1) { id } }") =>
    server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query } }).then((r) => r.json());
  const refusedOverHttp = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code === "invalid-jwt";

  /** A graphql-transport-ws connection, acknowledged (or closed at once when refused). */
  async function connect(token: string): Promise<Socket & { acked: boolean }> {
    const ws = new WebSocket(`ws://${base}/v1/graphql`, "graphql-transport-ws");
    const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
    const pending = new Map<string, (v: { data?: unknown; errors?: unknown }) => void>();
    let acked = false;
    const ack = new Promise<void>((resolve) => {
      ws.on("message", (raw) => {
        const msg = JSON.parse(String(raw)) as { type: string; id?: string; payload?: { data?: unknown; errors?: unknown } };
        if (msg.type === "connection_ack") {
          acked = true;
          resolve();
        }
        if (msg.type === "next" && msg.id) pending.get(msg.id)?.(msg.payload!);
        if (msg.type === "error" && msg.id) pending.get(msg.id)?.({ errors: msg.payload });
      });
      void closed.then(() => resolve());
    });
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { headers: { Authorization: `Bearer ${token}` } } })));
    await ack;
    let n = 0;
    return {
      ws,
      closed,
      acked,
      query(query) {
        const id = String(++n);
        const answer = new Promise<{ data?: unknown; errors?: unknown }>((resolve) => pending.set(id, resolve));
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: "subscribe", id, payload: { query } }));
        return Promise.race([answer, closed.then((code) => ({ closed: code }))]);
      },
    };
  }

  it("an access token is refused on REST, GraphQL and the websocket as soon as its session is signed out", async () => {
    const t = await signIn(server.app, "front_desk");
    expect(typeof decodeJwt(t.accessToken).sid).toBe("string");
    expect((await gql(t.accessToken)).data.users).toHaveLength(1);
    const socket = await connect(t.accessToken);
    expect(socket.acked).toBe(true);
    expect(await socket.query("{ users(limit: 1) { id } }")).toMatchObject({ data: { users: [{ id: expect.any(String) }] } });

    const out = await server.app.inject({ method: "POST", url: "/auth/sign-out", payload: { refreshToken: t.refreshToken } });
    expect(out.statusCode).toBe(200);

    expect((await api(server.app, "GET", "/users/me", t.accessToken)).statusCode).toBe(401);
    // GraphQL answers through its short token cache, which the sign-out's NOTIFY empties
    await expect.poll(async () => refusedOverHttp(await gql(t.accessToken)), { timeout: 5_000 }).toBe(true);
    expect(await socket.closed).toBe(4403);
    const again = await connect(t.accessToken);
    expect(again.acked).toBe(false);
    expect(await again.closed).toBe(4403);
  });

  it("another session of the same user is not affected by one session's sign-out", async () => {
    const a = await signIn(server.app, "ops_manager");
    const b = await signIn(server.app, "ops_manager");
    await server.app.inject({ method: "POST", url: "/auth/sign-out", payload: { refreshToken: a.refreshToken } });
    expect((await api(server.app, "GET", "/users/me", a.accessToken)).statusCode).toBe(401);
    expect((await api(server.app, "GET", "/users/me", b.accessToken)).statusCode).toBe(200);
  });

  it("refreshing keeps the session; reusing a rotated refresh token ends it, and its access tokens with it", async () => {
    const first = await signIn(server.app, "finance_staff");
    const refreshed = await api(server.app, "GET", `/auth/access-token?username=finance_staff&refreshToken=${encodeURIComponent(first.refreshToken)}`);
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json().data as Tokens;
    expect(decodeJwt(second.accessToken).sid).toBe(decodeJwt(first.accessToken).sid);
    expect((await api(server.app, "GET", "/users/me", first.accessToken)).statusCode).toBe(200);
    expect((await api(server.app, "GET", "/users/me", second.accessToken)).statusCode).toBe(200);
    // a thief replays the first refresh token: the whole family is revoked
    const replay = await api(server.app, "GET", `/auth/access-token?username=finance_staff&refreshToken=${encodeURIComponent(first.refreshToken)}`);
    expect(replay.statusCode).toBe(401);
    expect((await api(server.app, "GET", "/users/me", second.accessToken)).statusCode).toBe(401);
    await expect.poll(async () => refusedOverHttp(await gql(second.accessToken)), { timeout: 5_000 }).toBe(true);
  });

  it("an open websocket is closed when the user is disabled", async () => {
    const t = await signIn(server.app, "intern");
    const socket = await connect(t.accessToken);
    expect(socket.acked).toBe(true);
    await server.db.query(`update users set status = 'inactive' where username = 'intern'`);
    expect(await socket.closed).toBe(4403);
    expect(await (await connect(t.accessToken)).closed).toBe(4403);
    await server.db.query(`update users set status = 'active' where username = 'intern'`);
  });

  it("an open websocket is closed when one of the user's roles is taken away, and may reconnect with the roles left", async () => {
    const t = await signIn(server.app, "multi_role");
    const socket = await connect(t.accessToken);
    expect(socket.acked).toBe(true);
    await server.db.query(`update users set "multipleRoles" = '["front_desk"]'::jsonb, role = 'front_desk' where username = 'multi_role'`);
    expect(await socket.closed).toBe(4403);
    const again = await connect(t.accessToken);
    expect(again.acked).toBe(true);
    again.ws.close();
    await server.db.query(`update users set "multipleRoles" = '["front_desk","hod"]'::jsonb, role = 'hod' where username = 'multi_role'`);
  });

  it("an open websocket is closed when its access token expires, and a socket's every operation checks the session", async () => {
    const t = await signIn(server.app, "hr");
    // the same session, with a token that expires in two seconds (signed with the server's own key)
    const { rows } = await server.db.query<{ privateJwk: JWK | string; kid: string; alg: string }>(`select "privateJwk", kid, alg from signing_keys order by "createdAt", kid limit 1`);
    const jwk = typeof rows[0]!.privateJwk === "string" ? (JSON.parse(rows[0]!.privateJwk) as JWK) : rows[0]!.privateJwk;
    const claims = decodeJwt(t.accessToken);
    const short = await new SignJWT({ [CLAIMS]: claims[CLAIMS], preferred_username: "hr", sid: claims.sid })
      .setProtectedHeader({ alg: rows[0]!.alg, kid: rows[0]!.kid, typ: "JWT" })
      .setSubject(String(claims.sub))
      .setIssuer(String(claims.iss))
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(await importJWK(jwk, rows[0]!.alg));
    const socket = await connect(short);
    expect(socket.acked).toBe(true);
    expect(await socket.query("{ users(limit: 1) { id } }")).toMatchObject({ data: { users: [{ id: expect.any(String) }] } });
    expect(await socket.closed).toBe(4403);

    // a session ended while nothing told this instance (the row changed behind its back): the next operation checks
    const other = await connect(t.accessToken);
    expect(other.acked).toBe(true);
    const uid = await userId(server.db, "hr");
    await server.db.query(`alter table refresh_tokens disable trigger refresh_tokens_session_ended`);
    try {
      await server.db.query(`update refresh_tokens set "revokedAt" = now() where "userId" = $1 and "revokedAt" is null`, [uid]);
    } finally {
      await server.db.query(`alter table refresh_tokens enable trigger refresh_tokens_session_ended`);
    }
    await expect.poll(async () => other.query("{ users(limit: 1) { id } }"), { timeout: 8_000 }).toEqual({ closed: 4403 });
  });
});
