import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { databaseLanes } from "../support/db.ts";
import { api, lastMailTo, nextAddress, signIn, signInRaw, startTestServer, userId, type TestServer } from "../support/auth.ts";

const CLAIMS = "https://hasura.io/jwt/claims";

// Failed sign-ins and the waits they cause: auth-throttle.test.ts (issue 32 §6).
describe.each(databaseLanes())("identity: sign-in, tokens, lockout, password reset [%s]", (lane) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(lane);
  });
  afterAll(async () => {
    await server?.close();
  });
  const post = (url: string, payload: object) => server.app.inject({ method: "POST", url, payload, headers: { "x-forwarded-for": nextAddress() } });

  it("the demo accounts sign in with Demo@12345 and get {success, data:{accessToken, refreshToken, expiresIn}}", async () => {
    const res = await signInRaw(server.app, "hr");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
  });

  it("access tokens carry Hasura's claims (allowed roles and, for several, their combined role as default; user id), last 15 minutes and verify with the published JWKS", async () => {
    const { accessToken } = await signIn(server.app, "multi_role");
    const jwks = (await server.app.inject({ method: "GET", url: "/auth/jwks.json" })).json();
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const { payload, protectedHeader } = await jwtVerify(accessToken, createLocalJWKSet(jwks));
    expect(["ES256", "EdDSA"]).toContain(protectedHeader.alg);
    const claims = payload[CLAIMS] as Record<string, unknown>;
    // a real Hasura acts under one role: the inherited role that metadata:export declares for this set
    expect(claims["x-hasura-allowed-roles"]).toEqual(["front_desk", "hod", "front_desk+hod"]);
    expect(claims["x-hasura-default-role"]).toBe("front_desk+hod");
    // the server itself acts under the user's own roles (their union); the combined name is not one of them
    const gql = (role?: string) =>
      server.app.inject({ method: "POST", url: "/v1/graphql", payload: { query: "{ branches(limit: 1) { id } }" }, headers: { authorization: `Bearer ${accessToken}`, ...(role ? { "x-hasura-role": role } : {}) } });
    expect((await gql()).json()).toMatchObject({ data: { branches: [expect.any(Object)] } });
    expect((await gql("front_desk+hod")).json()).toMatchObject({ errors: [{ message: "Your requested role is not in allowed roles", extensions: { code: "access-denied" } }] });
    expect(claims["x-hasura-user-id"]).toBe(await userId(server.db, "multi_role"));
    expect(payload.exp! - payload.iat!).toBe(15 * 60);
  });

  it("the signing key is generated once and kept in the database", async () => {
    const { rows } = await server.db.query<{ n: number }>(`select count(*)::int as n from signing_keys`);
    expect(rows[0].n).toBe(1);
  });

  it("a wrong password answers 401 {success:false, message}; bad input answers 400 with a message per field", async () => {
    const res = await signInRaw(server.app, "sales", "wrong-password");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: expect.any(String) });
    const bad = await post("/auth/sign-in", { username: "" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, errors: { username: expect.any(String), password: expect.any(String) } });
    // a success resets the count of failures
    await signIn(server.app, "sales");
    const { rows } = await server.db.query<{ n: number }>(`select "numOfFailed" as n from users where username = 'sales'`);
    expect(rows[0].n).toBe(0);
  });

  it("sign-in attempts are rate-limited per address", async () => {
    const ip = nextAddress();
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await signInRaw(server.app, "nobody-here", "whatever-pass", ip)).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[11]).toBe(429);
    expect((await signInRaw(server.app, "nobody-here", "whatever-pass", ip)).json()).toMatchObject({ success: false, message: expect.any(String) });
  });

  it("refresh tokens rotate on every use (GET /api/v2/auth/access-token); a reused one revokes the whole family", async () => {
    const first = await signIn(server.app, "ops_manager");
    const r1 = await api(server.app, "GET", `/auth/access-token?username=ops_manager&refreshToken=${encodeURIComponent(first.refreshToken)}`);
    expect(r1.statusCode).toBe(200);
    const second = r1.json().data;
    expect(second).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await api(server.app, "GET", "/users/me", second.accessToken)).statusCode).toBe(200);
    // stored hashed, never in clear
    const stored = await server.db.query(`select 1 from refresh_tokens where "tokenHash" = $1`, [second.refreshToken]);
    expect(stored.rows.length).toBe(0);
    // reuse of the first one: refused, and the second (same family) dies with it
    const reuse = await api(server.app, "GET", `/auth/access-token?username=ops_manager&refreshToken=${encodeURIComponent(first.refreshToken)}`);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toMatchObject({ success: false, message: expect.any(String) });
    const after = await api(server.app, "GET", `/auth/access-token?username=ops_manager&refreshToken=${encodeURIComponent(second.refreshToken)}`);
    expect(after.statusCode).toBe(401);
    // another session of the same user is untouched
    const other = await signIn(server.app, "ops_manager");
    expect((await api(server.app, "GET", `/auth/access-token?username=ops_manager&refreshToken=${encodeURIComponent(other.refreshToken)}`)).statusCode).toBe(200);
  });

  it("a refresh token only works for its own user, and an expired access token can still be refreshed", async () => {
    const t = await signIn(server.app, "sales");
    const wrongUser = await api(server.app, "GET", `/auth/access-token?username=hr&refreshToken=${encodeURIComponent(t.refreshToken)}`);
    expect(wrongUser.statusCode).toBe(401);
    const withStaleBearer = await server.app.inject({
      method: "GET",
      url: `/api/v2/auth/access-token?username=sales&refreshToken=${encodeURIComponent((await signIn(server.app, "sales")).refreshToken)}`,
      headers: { authorization: "Bearer not.a.token" },
    });
    expect(withStaleBearer.statusCode).toBe(200);
  });

  it("sign-out revokes the refresh token", async () => {
    const t = await signIn(server.app, "finance_staff");
    expect((await post("/auth/sign-out", { refreshToken: t.refreshToken })).json()).toEqual({ success: true, data: null });
    const res = await api(server.app, "GET", `/auth/access-token?username=finance_staff&refreshToken=${encodeURIComponent(t.refreshToken)}`);
    expect(res.statusCode).toBe(401);
  });

  it("a deleted user's token is refused at once", async () => {
    const hr = await signIn(server.app, "hr");
    const victim = await signIn(server.app, "parttime_tutor");
    expect((await api(server.app, "GET", "/users/me", victim.accessToken)).statusCode).toBe(200);
    const id = await userId(server.db, "parttime_tutor");
    const del = await api(server.app, "DELETE", `/users/${id}`, hr.accessToken);
    expect(del.statusCode).toBe(200);
    const { rows } = await server.db.query<{ status: string }>(`select status from users where id = $1`, [id]);
    expect(rows[0].status).toBe("deleted");
    const me = await api(server.app, "GET", "/users/me", victim.accessToken);
    expect(me.statusCode).toBe(401);
    expect(me.json()).toMatchObject({ success: false, message: expect.any(String) });
    expect((await api(server.app, "GET", `/auth/access-token?username=parttime_tutor&refreshToken=${encodeURIComponent(victim.refreshToken)}`)).statusCode).toBe(401);
    expect((await signInRaw(server.app, "parttime_tutor")).statusCode).toBe(401);
  });

  it("a disabled user's token is refused at once", async () => {
    const t = await signIn(server.app, "sales");
    await server.db.query(`update users set status = 'disabled' where username = 'sales'`);
    expect((await api(server.app, "GET", "/users/me", t.accessToken)).statusCode).toBe(401);
    await server.db.query(`update users set status = 'active' where username = 'sales'`);
    expect((await api(server.app, "GET", "/users/me", t.accessToken)).statusCode).toBe(200);
  });

  it("forgot password: a 6-digit code by mail (outbox), the same answer for unknown users, then code + new password", async () => {
    const known = await post("/auth/forgot-password", { username: "finance_manager" });
    const unknown = await post("/auth/forgot-password", { username: "no-such-user" });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const { rows } = await server.db.query<{ email: string }>(`select email from users where username = 'finance_manager'`);
    const mail = await lastMailTo(server.db, rows[0].email);
    const code = /\b(\d{6})\b/.exec(mail!.body)![1];
    // a wrong code is refused; the new password must follow the rules
    expect((await post("/auth/forgot-password/confirm", { username: "finance_manager", code: code === "000000" ? "111111" : "000000", newPassword: "Another#Pass2024" })).statusCode).toBe(400);
    const common = await post("/auth/forgot-password/confirm", { username: "finance_manager", code, newPassword: "password123" });
    expect(common.statusCode).toBe(400);
    expect(common.json().errors.newPassword).toMatch(/common/);
    const ok = await post("/auth/forgot-password/confirm", { username: "finance_manager", code, newPassword: "Another#Pass2024" });
    expect(ok.json()).toEqual({ success: true, data: null });
    expect((await signInRaw(server.app, "finance_manager")).statusCode).toBe(401);
    expect((await signInRaw(server.app, "finance_manager", "Another#Pass2024")).statusCode).toBe(200);
    // the code is single-use
    expect((await post("/auth/forgot-password/confirm", { username: "finance_manager", code, newPassword: "Third#Pass2024" })).statusCode).toBe(400);
  });

  it("a reset code expires after 15 minutes", async () => {
    await post("/auth/forgot-password", { username: "ops_manager" });
    const { rows } = await server.db.query<{ id: string; email: string }>(`select id, email from users where username = 'ops_manager'`);
    const code = /\b(\d{6})\b/.exec((await lastMailTo(server.db, rows[0].email))!.body)![1];
    const expiry = await server.db.query<{ minutes: number }>(
      `select round(extract(epoch from ("expiresAt" - "createdAt")) / 60)::int as minutes from password_reset_codes where "userId" = $1 and "usedAt" is null`,
      [rows[0].id],
    );
    expect(expiry.rows[0].minutes).toBe(15);
    await server.db.query(`update password_reset_codes set "expiresAt" = now() - interval '1 second' where "userId" = $1`, [rows[0].id]);
    expect((await post("/auth/forgot-password/confirm", { username: "ops_manager", code, newPassword: "Late#Code2024" })).statusCode).toBe(400);
  });

  it("unparsable JSON answers 400 {success:false, message}", async () => {
    const res = await server.app.inject({ method: "POST", url: "/auth/sign-in", headers: { "content-type": "application/json", "x-forwarded-for": nextAddress() }, payload: "{not json" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: expect.any(String) });
    const api2 = await server.app.inject({ method: "PUT", url: "/api/v2/access/policy", headers: { "content-type": "application/json" }, payload: "{" });
    expect(api2.statusCode).toBe(400);
    expect(api2.json()).toMatchObject({ success: false });
  });

  it("a reset code dies after 5 wrong tries", async () => {
    await post("/auth/forgot-password", { username: "attendance_checker" });
    const { rows } = await server.db.query<{ email: string }>(`select email from users where username = 'attendance_checker'`);
    const code = /\b(\d{6})\b/.exec((await lastMailTo(server.db, rows[0].email))!.body)![1];
    const wrong = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i++) await post("/auth/forgot-password/confirm", { username: "attendance_checker", code: wrong, newPassword: "Brand#New2024" });
    expect((await post("/auth/forgot-password/confirm", { username: "attendance_checker", code, newPassword: "Brand#New2024" })).statusCode).toBe(400);
  });

  it("the spec's REST pair: PATCH /users/:id/forget-password (hr) then PATCH /users/confirm-forget-password (public)", async () => {
    const hr = await signIn(server.app, "hr");
    const id = await userId(server.db, "hod");
    expect((await api(server.app, "PATCH", `/users/${id}/forget-password`, hr.accessToken)).statusCode).toBe(200);
    const { rows } = await server.db.query<{ email: string }>(`select email from users where id = $1`, [id]);
    const code = /\b(\d{6})\b/.exec((await lastMailTo(server.db, rows[0].email))!.body)![1];
    const res = await api(server.app, "PATCH", "/users/confirm-forget-password", undefined, { username: "hod", code, newPassword: "Hod#Secret2024" });
    expect(res.json()).toEqual({ success: true, data: null });
    expect((await signInRaw(server.app, "hod", "Hod#Secret2024")).statusCode).toBe(200);
  });

  it("change password (public page): old password checked, rules applied, then only the new one signs in", async () => {
    const wrongOld = await post("/auth/change-password", { username: "front_desk", oldPassword: "nope-nope", newPassword: "Front#Desk2024" });
    expect(wrongOld.statusCode).toBe(401);
    const short = await post("/auth/change-password", { username: "front_desk", oldPassword: "Demo@12345", newPassword: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.newPassword).toMatch(/at least 8/);
    const longOk = "L0ng#".repeat(13); // 65 characters are accepted
    expect((await post("/auth/change-password", { username: "front_desk", oldPassword: "Demo@12345", newPassword: longOk })).statusCode).toBe(200);
    expect((await signInRaw(server.app, "front_desk", longOk)).statusCode).toBe(200);
    expect((await signInRaw(server.app, "front_desk")).statusCode).toBe(401);
  });

  it("tokens signed by another key, or tampered with, are refused with 401", async () => {
    const { accessToken } = await signIn(server.app, "hr");
    const [h, p, s] = accessToken.split(".");
    const claims = decodeJwt(accessToken);
    const forged = Buffer.from(JSON.stringify({ ...claims, [CLAIMS]: { ...(claims[CLAIMS] as object), "x-hasura-allowed-roles": ["admin"] } })).toString("base64url");
    expect((await api(server.app, "GET", "/users/me", `${h}.${forged}.${s}`)).statusCode).toBe(401);
    expect((await api(server.app, "GET", "/users/me", `${h}.${p}.${s}x`)).statusCode).toBe(401);
    expect((await api(server.app, "GET", "/users/me")).statusCode).toBe(401);
  });
});
