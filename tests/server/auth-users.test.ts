import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, lastMailTo, signIn, signInRaw, startTestServer, userId, type TestServer } from "../support/auth.ts";

describe.each(databaseLanes())("REST users calls under /api/v2 [%s]", (lane) => {
  let server: TestServer;
  let hr: string;
  let admin: string;
  let sales: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    hr = (await signIn(server.app, "hr")).accessToken;
    admin = (await signIn(server.app, "admin")).accessToken;
    sales = (await signIn(server.app, "sales")).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });
  const count = async () => (await server.db.query<{ n: number }>(`select count(*)::int as n from users`)).rows[0].n;

  it("GET /users/me reads data with the user fields; multipleRoles lists the roles held", async () => {
    const { accessToken } = await signIn(server.app, "multi_role");
    const res = await api(server.app, "GET", "/users/me", accessToken);
    expect(res.statusCode).toBe(200);
    const { success, data } = res.json();
    expect(success).toBe(true);
    for (const field of ["id", "username", "firstName", "lastName", "avatarUrl", "multipleRoles", "role", "email"]) expect(data).toHaveProperty(field);
    expect(data.username).toBe("multi_role");
    expect(data.multipleRoles).toEqual(["front_desk", "hod"]);
    const single = (await api(server.app, "GET", "/users/me", sales)).json().data;
    expect(single.multipleRoles).toEqual(["sales"]);
  });

  it("REST guards: 401 without or with a bad token, 403 for a role without the permission", async () => {
    expect((await api(server.app, "GET", "/users/me")).statusCode).toBe(401);
    expect((await api(server.app, "GET", "/users/me", "garbage")).json()).toMatchObject({ success: false, message: expect.any(String) });
    const res = await api(server.app, "POST", "/users", sales, {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: expect.any(String) });
    const { rows } = await server.db.query<{ id: string }>(`select id from users where username = 'admin'`);
    expect((await api(server.app, "DELETE", `/users/${rows[0].id}`, sales)).statusCode).toBe(403);
  });

  it("GET /users/username/suggest answers a free, lower-case username obeying the username rule", async () => {
    const res = await api(server.app, "GET", "/users/username/suggest?firstName=Mary%20Ann&lastName=O'Neil", hr);
    expect(res.statusCode).toBe(200);
    const name = res.json().data.username;
    expect(name).toBe("maryannoneil");
    // taken names get a number
    const taken = await api(server.app, "GET", "/users/username/suggest?firstName=Multi&lastName=_Role", hr);
    expect(taken.json().data.username).toBe("multirole");
    await server.db.query(`update users set username = 'multirole' where username = 'multi_role'`);
    expect((await api(server.app, "GET", "/users/username/suggest?firstName=Multi&lastName=Role", hr)).json().data.username).toBe("multirole1");
    await server.db.query(`update users set username = 'multi_role' where username = 'multirole'`);
  });

  it("POST /users: bad input is 400 with a message per field and writes nothing; the username rule's message word for word", async () => {
    const before = await count();
    const res = await api(server.app, "POST", "/users", hr, { username: "has space", email: "not-an-email", firstName: "Ann!", lastName: "Lee", multipleRoles: ["sales"] });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.errors.username).toBe("Not allow space for username");
    expect(body.errors.firstName).toBe("Space and Special characters not allowed");
    expect(body.errors.email).toEqual(expect.any(String));
    expect(typeof body.message).toBe("string");
    for (const bad of ["a#b", "a$b", "a&b", "a:b", "a\tb"]) {
      const r = await api(server.app, "POST", "/users", hr, { username: bad, email: "x@y.sg", firstName: "Ann", lastName: "Lee", role: "sales" });
      expect(r.json().errors.username, bad).toBe("Not allow space for username");
    }
    const dup = await api(server.app, "POST", "/users", hr, { username: "SALES", email: "x@y.sg", firstName: "Ann", lastName: "Lee", role: "sales" });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors.username).toEqual(expect.any(String));
    expect(await count()).toBe(before);
  });

  it("POST /users (hr) creates a staff user with a temporary password mailed through the outbox, to be changed at first sign-in", async () => {
    const res = await api(server.app, "POST", "/users", hr, { username: "new.tutor", email: "new.tutor@example.sg", firstName: "New", lastName: "Tutor", multipleRoles: ["fulltime_tutor"] });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({ username: "new.tutor", role: "fulltime_tutor", multipleRoles: ["fulltime_tutor"], status: "active" });
    const mail = await lastMailTo(server.db, "new.tutor@example.sg");
    const temp = /Temporary password: (\S+)/.exec(mail!.body)![1];
    const cred = await server.db.query<{ mustChangePassword: boolean }>(`select "mustChangePassword" from user_credentials where "userId" = $1`, [data.id]);
    expect(cred.rows[0].mustChangePassword).toBe(true);
    const first = await signInRaw(server.app, "new.tutor", temp);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({ success: false, data: { mustChangePassword: true } });
    const change = await server.app.inject({ method: "POST", url: "/auth/change-password", payload: { username: "new.tutor@example.sg", oldPassword: temp, newPassword: "Tutor#First2024" } });
    expect(change.statusCode).toBe(200);
    expect((await signInRaw(server.app, "new.tutor", "Tutor#First2024")).statusCode).toBe(200);
  });

  it("only an administrator grants the admin role or edits an admin", async () => {
    const res = await api(server.app, "POST", "/users", hr, { username: "sneaky", email: "s@example.sg", firstName: "Sneaky", lastName: "Admin", multipleRoles: ["hr", "admin"] });
    expect(res.statusCode).toBe(403);
    const adminId = await userId(server.db, "admin");
    expect((await api(server.app, "PUT", `/users/${adminId}`, hr, { firstName: "Changed" })).statusCode).toBe(403);
    const byAdmin = await api(server.app, "POST", "/users", admin, { username: "second.admin", email: "a2@example.sg", firstName: "Second", lastName: "Admin", role: "admin" });
    expect(byAdmin.statusCode).toBe(201);
  });

  it("PUT /users/:id updates (hr and attendance_checker; roles by an admin: issue 32 §1), validates, and 404s an unknown id", async () => {
    const id = await userId(server.db, "sales");
    const res = await api(server.app, "PUT", `/users/${id}`, admin, { firstName: "Sally", lastName: "Seller", multipleRoles: ["sales", "intern"] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ firstName: "Sally", fullName: "Sally Seller", multipleRoles: ["sales", "intern"], role: "intern" });
    const ac = (await signIn(server.app, "attendance_checker")).accessToken;
    expect((await api(server.app, "PUT", `/users/${id}`, ac, { lastName: "Seller-Two" })).statusCode).toBe(200);
    const bad = await api(server.app, "PUT", `/users/${id}`, hr, { username: "a b" });
    expect(bad.json().errors.username).toBe("Not allow space for username");
    expect((await api(server.app, "PUT", `/users/00000000-0000-4000-8000-000000000000`, hr, { firstName: "X" })).statusCode).toBe(404);
    await api(server.app, "PUT", `/users/${id}`, admin, { multipleRoles: ["sales"] });
  });

  it("PATCH /users/:id/change-password: one's own with the old password; an admin sets another's as temporary (issue 32 §1)", async () => {
    const me = await signIn(server.app, "ops_manager");
    const id = await userId(server.db, "ops_manager");
    expect((await api(server.app, "PATCH", `/users/${id}/change-password`, me.accessToken, { newPassword: "Ops#Manager2024" })).statusCode).toBe(400);
    expect((await api(server.app, "PATCH", `/users/${id}/change-password`, me.accessToken, { oldPassword: "wrong-old", newPassword: "Ops#Manager2024" })).statusCode).toBe(401);
    expect((await api(server.app, "PATCH", `/users/${id}/change-password`, me.accessToken, { oldPassword: "Demo@12345", newPassword: "Ops#Manager2024" })).statusCode).toBe(200);
    expect((await signInRaw(server.app, "ops_manager", "Ops#Manager2024")).statusCode).toBe(200);
    // someone else's: sales may not, an admin may (temporary)
    const salesId = await userId(server.db, "sales");
    const hrId = await userId(server.db, "hr");
    expect((await api(server.app, "PATCH", `/users/${hrId}/change-password`, sales, { newPassword: "Hacked#2024x" })).statusCode).toBe(403);
    expect((await api(server.app, "PATCH", `/users/${salesId}/change-password`, admin, { newPassword: "Temp#Sales2024" })).statusCode).toBe(200);
    expect((await signInRaw(server.app, "sales", "Temp#Sales2024")).json().data).toEqual({ mustChangePassword: true });
  });

  it("DELETE /users/:id is a soft delete; nobody deletes their own account", async () => {
    const created = (await api(server.app, "POST", "/users", hr, { username: "temp.user", email: "t@example.sg", firstName: "Temp", lastName: "User", role: "intern" })).json().data;
    expect((await api(server.app, "DELETE", `/users/${created.id}`, hr)).json()).toEqual({ success: true, data: { id: created.id } });
    const { rows } = await server.db.query<{ status: string }>(`select status from users where id = $1`, [created.id]);
    expect(rows[0].status).toBe("deleted");
    expect((await api(server.app, "DELETE", `/users/${await userId(server.db, "hr")}`, hr)).statusCode).toBe(400);
  });
});
