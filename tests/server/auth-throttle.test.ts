/**
 * Issue 32 §6 (OWASP ASVS 2.2): failed password checks make the guesser wait, longer after each failure, instead
 * of locking the account for everyone. Failures count per account and client address, and per account across
 * addresses; a wait is never a lock; an administrator lifts it from the user's page; the user is told by mail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, lastMailTo, nextAddress, signIn, signInRaw, startTestServer, userId, type TestServer } from "../support/auth.ts";
import { DEMO_EMAIL_DOMAIN } from "../../server/db/seed-demo.ts";

const LOCKED = "Your account has been locked due to multiple failed login attempts. Kindly contact the administrator to unlock it.";

describe.each(databaseLanes())("growing waits after failed sign-ins, never a lock [%s]", (lane) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(lane);
  });
  afterAll(async () => {
    await server?.close();
  });
  const state = async (username: string) =>
    (await server.db.query<{ status: string; numOfFailed: number }>(`select status, "numOfFailed" from users where username = $1`, [username])).rows[0];
  /** As if the user waited: every wait of the account is over. */
  const waitOut = async (username: string) =>
    server.db.query(`update app_internal.sign_in_throttles set "retryAt" = now() - interval '1 second' where "userId" = $1`, [await userId(server.db, username)]);

  it("ten anonymous wrong passwords over two minutes lock neither admin nor hr: only the guessing address waits", async () => {
    const attacker = nextAddress();
    for (let i = 1; i <= 5; i++) {
      for (const victim of ["admin", "hr"]) {
        const res = await signInRaw(server.app, victim, `guess-${i}-password`, attacker);
        expect(res.statusCode, `${victim} #${i}`).toBe(i < 5 ? 401 : 429);
        // the fifth makes this address wait before its next try on the account
        if (i === 5) expect(res.json()).toEqual({ success: false, message: "Too many failed attempts. Please try again in 1 minute.", data: { retryAfter: expect.any(Number) } });
      }
    }
    // the owners sign in from their own addresses at once; nothing is locked
    expect((await signInRaw(server.app, "admin")).statusCode).toBe(200);
    expect((await signInRaw(server.app, "hr")).statusCode).toBe(200);
    expect(await state("hr")).toEqual({ status: "active", numOfFailed: 0 });
  });

  it("guesses from many addresses make the whole account wait, growing up to an hour but never locked; the user is told once", async () => {
    const id = await userId(server.db, "intern");
    const before = (await server.db.query<{ n: number }>(`select count(*)::int as n from outbox where recipient = $1`, [`intern@${DEMO_EMAIL_DOMAIN}`])).rows[0].n;
    for (let i = 1; i < 20; i++) expect((await signInRaw(server.app, "intern", `guess-${i}-password`)).statusCode).toBe(401);
    const twentieth = await signInRaw(server.app, "intern", "guess-20-password");
    expect(twentieth.statusCode).toBe(429);
    expect(await state("intern")).toEqual({ status: "active", numOfFailed: 20 });
    expect((await signInRaw(server.app, "intern")).statusCode).toBe(429);
    const notice = await lastMailTo(server.db, `intern@${DEMO_EMAIL_DOMAIN}`);
    expect(notice?.subject).toBe("Failed sign-ins on your account");
    // each failure after a wait doubles it; from 15 minutes on the spec's locked message shows
    const messages: string[] = [];
    for (let i = 21; i <= 30; i++) {
      await waitOut("intern");
      messages.push((await signInRaw(server.app, "intern", `guess-${i}-password`)).json().message);
    }
    expect(messages.slice(0, 3)).toEqual(["2 minutes", "4 minutes", "8 minutes"].map((m) => `Too many failed attempts. Please try again in ${m}.`));
    expect(messages.slice(3)).toEqual(Array(7).fill(LOCKED));
    const longest = await signInRaw(server.app, "intern");
    expect(longest.json()).toEqual({ success: false, message: LOCKED, data: { isBlocked: true, retryAfter: expect.any(Number) } });
    expect(longest.json().data.retryAfter).toBeLessThanOrEqual(3600);
    expect((await state("intern")).status).toBe("active");
    // told once, not per failure
    const after = (await server.db.query<{ n: number }>(`select count(*)::int as n from outbox where recipient = $1`, [`intern@${DEMO_EMAIL_DOMAIN}`])).rows[0].n;
    expect(after - before).toBe(1);
    // the user's page shows it locked; only a permitted role unlocks; the user is told
    const admin = await signIn(server.app, "admin");
    expect((await api(server.app, "PATCH", "/users/intern/check-block", admin.accessToken, { username: "intern" })).json()).toEqual({ success: true, data: { isBlocked: true } });
    const sales = await signIn(server.app, "sales");
    expect((await api(server.app, "PATCH", `/users/${id}/unblock`, sales.accessToken)).statusCode).toBe(403);
    const unblock = await api(server.app, "PATCH", `/users/${id}/unblock`, admin.accessToken);
    expect(unblock.statusCode).toBe(200);
    expect(unblock.json().data).toMatchObject({ status: "active", numOfFailed: 0, isBlocked: false });
    expect((await lastMailTo(server.db, `intern@${DEMO_EMAIL_DOMAIN}`))?.subject).toBe("Your account was unlocked");
    expect((await signInRaw(server.app, "intern")).statusCode).toBe(200);
    expect((await api(server.app, "PATCH", "/users/intern/check-block", admin.accessToken, { username: "intern" })).json().data.isBlocked).toBe(false);
  });

  it("a wait does not end the user's sessions: an anonymous guesser cannot sign anyone out", async () => {
    const user = await signIn(server.app, "hod");
    for (let i = 1; i <= 20; i++) await signInRaw(server.app, "hod", `guess-${i}-password`);
    expect((await api(server.app, "GET", "/users/me", user.accessToken)).statusCode).toBe(200);
  });

  it("an account an administrator locked stays locked with the spec's message until unlocked, and only an administrator unlocks it", async () => {
    const id = await userId(server.db, "sales");
    const session = await signIn(server.app, "sales");
    await server.db.query(`update users set status = 'locked' where id = $1`, [id]);
    expect((await signInRaw(server.app, "sales")).json()).toEqual({ success: false, message: LOCKED, data: { isBlocked: true } });
    expect((await api(server.app, "GET", "/users/me", session.accessToken)).statusCode).toBe(401);
    const hr = await signIn(server.app, "hr");
    expect((await api(server.app, "PATCH", `/users/${id}/unblock`, hr.accessToken)).statusCode).toBe(403);
    const admin = await signIn(server.app, "admin");
    expect((await api(server.app, "PATCH", `/users/${id}/unblock`, admin.accessToken)).statusCode).toBe(200);
    expect((await signInRaw(server.app, "sales")).statusCode).toBe(200);
  });
});
