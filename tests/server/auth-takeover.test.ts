/**
 * Issue 32 §1: account takeover through the identity fields. A staff account's e-mail, phone, username, roles,
 * status and password change only by an administrator, or by the user after re-entering their password, over
 * REST and GraphQL alike; a changed e-mail or phone is told to the old address; reset codes go only to an
 * address the user has used.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { DEMO_EMAIL_DOMAIN as DOMAIN } from "../../server/db/seed-demo.ts";
import { api, bearer, lastMailTo, nextAddress, signIn, signInRaw, startTestServer, userId, type TestServer } from "../support/auth.ts";

const GUARD = "Only an administrator, or the user after entering their current password, can change the e-mail, phone, username, roles or status of a staff account.";

describe.each(databaseLanes())("identity fields of staff accounts [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["admin", "hr", "attendance_checker"]) token[role] = (await signIn(server.app, role)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });
  const row = async (username: string) =>
    (await server.db.query<{ email: string; phone: unknown; username: string; status: string; role: string }>(
      `select email, phone, username, status, role from users where username = $1`, [username])).rows[0];
  const forgot = (username: string) =>
    server.app.inject({ method: "POST", url: "/auth/forgot-password", headers: { "x-forwarded-for": nextAddress() }, payload: { username } });
  const mailCount = async (recipient: string) =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from outbox where lower(recipient) = lower($1)`, [recipient])).rows[0].n;
  const graphql = (t: string, query: string) => server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(t), payload: { query } });

  it("attendance_checker cannot point another staff member's e-mail at themself: the reset code still goes to the user", async () => {
    const victim = await userId(server.db, "finance_manager");
    const before = await row("finance_manager");
    const res = await api(server.app, "PUT", `/users/${victim}`, token.attendance_checker, { email: "attacker@evil.example" });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: GUARD });
    expect(await row("finance_manager")).toEqual(before);
    expect((await forgot("finance_manager")).statusCode).toBe(200);
    expect(await mailCount("attacker@evil.example")).toBe(0);
    expect((await lastMailTo(server.db, `finance_manager@${DOMAIN}`))?.subject).toBe("Your password reset code");
  });

  it("hr may still edit a staff member's other fields, but not the e-mail, phone, username, status or roles", async () => {
    const id = await userId(server.db, "sales");
    const ok = await api(server.app, "PUT", `/users/${id}`, token.hr, { firstName: "Sally", address: "2 Orchard Road", email: `sales@${DOMAIN}`, multipleRoles: ["sales"], status: "active" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ firstName: "Sally", address: "2 Orchard Road" });
    const before = await row("sales");
    for (const change of [{ email: "sales.new@example.sg" }, { phone: { code: "+65", number: "91234567" } }, { username: "sales2" }, { status: "inactive" }, { multipleRoles: ["sales", "intern"] }]) {
      const res = await api(server.app, "PUT", `/users/${id}`, token.hr, change);
      expect(res.statusCode, JSON.stringify(change)).toBe(403);
      expect(res.json().message).toBe(GUARD);
    }
    expect(await row("sales")).toEqual(before);
  });

  it("the same rule over GraphQL: attendance_checker and hr cannot change a staff e-mail, an admin can", async () => {
    const id = await userId(server.db, "finance_staff");
    const mutation = (email: string) => `mutation { update_users_by_pk(pk_columns: {id: "${id}"}, _set: {email: "${email}"}) { id email } }`;
    for (const role of ["attendance_checker", "hr"]) {
      const res = (await graphql(token[role], mutation("attacker@evil.example"))).json();
      expect(res.errors?.[0]?.message, role).toBe(GUARD);
    }
    expect((await row("finance_staff")).email).toBe(`finance_staff@${DOMAIN}`);
    const byAdmin = (await graphql(token.admin, mutation("finance.staff@example.sg"))).json();
    expect(byAdmin.data.update_users_by_pk.email).toBe("finance.staff@example.sg");
  });

  it("an address an admin set that the user never used gets no reset code until the user signs in under it; the old address is told", async () => {
    const id = await userId(server.db, "intern");
    const res = await api(server.app, "PUT", `/users/${id}`, token.admin, { email: "intern.new@example.sg", phone: { code: "+65", number: "98765432" } });
    expect(res.statusCode).toBe(200);
    const notice = await lastMailTo(server.db, `intern@${DOMAIN}`);
    expect(notice?.subject).toBe("Your account's contact details changed");
    expect(notice?.body).toContain("e-mail address and phone number were");
    expect(notice?.body).toContain("intern.new@example.sg");
    await forgot("intern");
    expect(await mailCount("intern.new@example.sg")).toBe(0);
    expect((await lastMailTo(server.db, `intern@${DOMAIN}`))?.subject).toBe("Your password reset code");
    // the user signs in while the new address is current: from then on it is theirs
    await signIn(server.app, "intern");
    await forgot("intern");
    expect((await lastMailTo(server.db, "intern.new@example.sg"))?.subject).toBe("Your password reset code");
  });

  it("a user changes their own e-mail only with their current password (counted), and the old address is told", async () => {
    const id = await userId(server.db, "hr");
    const without = await api(server.app, "PUT", `/users/${id}`, token.hr, { email: "hr.new@example.sg" });
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ success: false, errors: { currentPassword: "Enter your current password to change your e-mail, phone, username or status." } });
    const wrong = await api(server.app, "PUT", `/users/${id}`, token.hr, { email: "hr.new@example.sg", currentPassword: "not-my-password" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ success: false, errors: { currentPassword: "The current password is incorrect." } });
    expect((await server.db.query<{ n: number }>(`select "numOfFailed" as n from users where id = $1`, [id])).rows[0].n).toBe(1);
    expect((await row("hr")).email).toBe(`hr@${DOMAIN}`);
    // other fields need no password
    expect((await api(server.app, "PUT", `/users/${id}`, token.hr, { address: "1 Raffles Place", email: `hr@${DOMAIN}` })).statusCode).toBe(200);
    const right = await api(server.app, "PUT", `/users/${id}`, token.hr, { email: "hr.new@example.sg", currentPassword: "Demo@12345" });
    expect(right.statusCode).toBe(200);
    expect(right.json().data.email).toBe("hr.new@example.sg");
    expect((await lastMailTo(server.db, `hr@${DOMAIN}`))?.subject).toBe("Your account's contact details changed");
    // an address the user set themself is theirs: the reset code goes there
    await forgot("hr");
    expect((await lastMailTo(server.db, "hr.new@example.sg"))?.subject).toBe("Your password reset code");
    // and their own roles stay out of reach, password or not
    const roles = await api(server.app, "PUT", `/users/${id}`, token.hr, { multipleRoles: ["hr", "finance_manager"], currentPassword: "Demo@12345" });
    expect(roles.statusCode).toBe(403);
    expect(roles.json().message).toBe("You cannot change the roles of your own account.");
  });

  it("another user's password is set by an administrator only", async () => {
    const id = await userId(server.db, "ops_manager");
    const byHr = await api(server.app, "PATCH", `/users/${id}/change-password`, token.hr, { newPassword: "Taken#Over2024" });
    expect(byHr.statusCode).toBe(403);
    expect(byHr.json().message).toBe("Only an administrator can set another user's password.");
    expect((await signInRaw(server.app, "ops_manager", "Taken#Over2024")).statusCode).toBe(401);
    expect((await api(server.app, "PATCH", `/users/${id}/change-password`, token.admin, { newPassword: "Temp#Ops2024x" })).statusCode).toBe(200);
    expect((await signInRaw(server.app, "ops_manager", "Temp#Ops2024x")).json().data).toEqual({ mustChangePassword: true });
  });
});
