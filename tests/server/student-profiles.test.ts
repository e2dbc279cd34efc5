import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

describe.each(databaseLanes())("student-profile calls under /api/v2 [%s]", (lane) => {
  let server: TestServer;
  let frontDesk: string;
  let ref: { branchId: string; companyId: string; schoolId: string; curriculumId: string; levelId: string; otherLevelId: string; discountCode: string; siblingId: string };
  beforeAll(async () => {
    server = await startTestServer(lane);
    frontDesk = (await signIn(server.app, "front_desk")).accessToken;
    const one = async <T>(sql: string) => (await server.db.query<T>(sql)).rows[0]!;
    const branch = await one<{ id: string; companyId: string }>(`select id, "companyId" from branches where status = 'active' order by name limit 1`);
    const link = await one<{ curriculumId: string; levelId: string }>(`select "curriculumId", "levelId" from curriculums_levels order by "levelId" limit 1`);
    const other = await one<{ id: string }>(`select id from levels where id not in (select "levelId" from curriculums_levels where "curriculumId" = '${link.curriculumId}') limit 1`);
    ref = {
      branchId: branch.id,
      companyId: branch.companyId,
      schoolId: (await one<{ id: string }>(`select id from schools limit 1`)).id,
      curriculumId: link.curriculumId,
      levelId: link.levelId,
      otherLevelId: other.id,
      discountCode: (await one<{ code: string }>(`select code from discounts where status = 'active' and code is not null limit 1`)).code,
      siblingId: (await one<{ id: string }>(`select id from users where type = 'student' and status = 'active' and siblings = '[]' order by username limit 1`)).id,
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  const student = async (id: string) =>
    (await server.db.query<Record<string, any>>(`select * from users where id = $1`, [id])).rows[0]!;
  const studentCount = async () => (await server.db.query<{ n: number }>(`select count(*)::int as n from users where type = 'student'`)).rows[0]!.n;
  const account = (username: string) => ({ firstName: "Wei Ling", lastName: "Tan", username, email: `${username}@example.sg`, phone: { code: "+65", number: "91234567" }, branchId: ref.branchId });
  const parents = [
    { relationship: "father", email: "tan.father@example.sg", firstName: "Kok Wah", lastName: "Tan", occupation: "Engineer", phone: { code: "+65", number: "98765432" }, primaryContact: true, isEmergencyContact: false },
    { relationship: "mother", email: "lim.mother@example.sg", firstName: "Mei", lastName: "Lim", occupation: "Teacher", phone: { code: "+65", number: "87654321" }, primaryContact: false, isEmergencyContact: true },
  ];
  const family = (id: string) => ({ id, parents, siblings: [ref.siblingId], emergencyContact: { firstName: "Mei", lastName: "Lim", phone: { code: "+65", number: "87654321" } } });
  const info = (id: string) => ({ id, schoolId: ref.schoolId, curriculumId: ref.curriculumId, levelId: ref.levelId, references: [{ name: "Jane Ong", discountCode: ref.discountCode }] });

  it("the three steps create a student: init makes a draft at step 1, family saves parents and links the sibling both ways, student information completes it", async () => {
    const init = await api(server.app, "POST", "/student-profiles/init", frontDesk, account("weiling.tan"));
    expect(init.statusCode).toBe(201);
    const { success, data } = init.json();
    expect(success).toBe(true);
    expect(data).toMatchObject({ username: "weiling.tan", fullName: "Wei Ling Tan", status: "draft", currentStep: 1, companyId: ref.companyId, subscribe: true, payOnline: false });
    const row = await student(data.id);
    expect(row).toMatchObject({ type: "student", role: "student", multipleRoles: ["student"] });

    const fam = await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, family(data.id));
    expect(fam.statusCode).toBe(200);
    expect(fam.json().data).toMatchObject({ currentStep: 2, status: "draft", firstParent: { firstName: "Kok Wah", primaryContact: true } });
    expect(fam.json().data.parents).toHaveLength(2);
    expect(fam.json().data.siblings).toEqual([expect.objectContaining({ id: ref.siblingId })]);
    expect((await student(ref.siblingId)).siblings).toEqual([{ id: data.id, firstName: "Wei Ling", lastName: "Tan", username: "weiling.tan" }]);

    const done = await api(server.app, "POST", "/student-profiles/step-student-information", frontDesk, info(data.id));
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ currentStep: 3, status: "active", schoolId: ref.schoolId, levelId: ref.levelId, subscribe: true, payOnline: false, references: [{ name: "Jane Ong", discountCode: ref.discountCode }] });
  });

  it("a crash between steps leaves a resumable draft: after step 2 the draft keeps currentStep 2 and continues at step 3", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("resume.me"))).json();
    await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, { ...family(data.id), siblings: [] });
    // The server goes away before step 3; what is stored is a draft at step 2 with its family.
    const draft = await student(data.id);
    expect(draft).toMatchObject({ status: "draft", currentStep: 2 });
    expect(draft.parents).toHaveLength(2);
    // Coming back: step 1 again (with the draft's id) keeps the draft and its step, then step 3 finishes it.
    const again = await api(server.app, "POST", "/student-profiles/init", frontDesk, { ...account("resume.me"), id: data.id, firstName: "Resumed" });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ id: data.id, firstName: "Resumed", currentStep: 2, status: "draft" });
    const done = await api(server.app, "POST", "/student-profiles/step-student-information", frontDesk, info(data.id));
    expect(done.json().data).toMatchObject({ status: "active", currentStep: 3 });
  });

  it("step 3 before step 2 is refused", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("too.early"))).json();
    const res = await api(server.app, "POST", "/student-profiles/step-student-information", frontDesk, info(data.id));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.id).toBe("Save the earlier steps first.");
    expect((await student(data.id)).currentStep).toBe(1);
  });

  it("init: bad input is 400 with the spec's message per field and writes nothing", async () => {
    const before = await studentCount();
    const res = await api(server.app, "POST", "/student-profiles/init", frontDesk, {
      firstName: "Ann!", lastName: "", username: "has space", email: "nope", phone: { code: "+65", number: "9123-4567" }, branchId: "x",
    });
    expect(res.statusCode).toBe(400);
    const { success, errors } = res.json();
    expect(success).toBe(false);
    expect(errors).toMatchObject({
      firstName: "Space and Special characters not allowed",
      lastName: "This field is required.",
      username: "Not allow space for username",
      email: "Please input a valid email!",
      "phone.number": "invalid_number",
      branchId: "Invalid id.",
    });
    for (const bad of ["a#b", "a$b", "a&b", "a:b", "a\tb"]) {
      const r = await api(server.app, "POST", "/student-profiles/init", frontDesk, account(bad));
      expect(r.json().errors.username, bad).toBe("Not allow space for username");
    }
    const taken = await api(server.app, "POST", "/student-profiles/init", frontDesk, account("FRONT_DESK"));
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors.username).toBe("Username already exists.");
    expect(await studentCount()).toBe(before);
  });

  it("family: exactly one primary contact, parents' names and phones checked, an unknown sibling refused, nothing written", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("family.rules"))).json();
    const twoPrimaries = await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, { ...family(data.id), parents: parents.map((p) => ({ ...p, primaryContact: true })) });
    expect(twoPrimaries.statusCode).toBe(400);
    expect(twoPrimaries.json().errors.parents).toBe("Choose exactly one primary contact.");
    const none = await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, { ...family(data.id), parents: parents.map((p) => ({ ...p, primaryContact: false })) });
    expect(none.json().errors.parents).toBe("Choose exactly one primary contact.");
    const bad = await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, {
      ...family(data.id),
      parents: [{ ...parents[0], firstName: "K@h", phone: { code: "+65", number: "abc" } }],
      emergencyContact: { firstName: "", phone: { code: "+65", number: "1" } },
    });
    expect(bad.json().errors).toMatchObject({ "parents.0.firstName": "Space and Special characters not allowed", "parents.0.phone.number": "invalid_number", "emergencyContact.firstName": "This field is required." });
    const ghost = await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, { ...family(data.id), siblings: ["00000000-0000-4000-8000-000000000000"] });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().errors.siblings).toBe("Sibling not found.");
    const self = await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, { ...family(data.id), siblings: [data.id] });
    expect(self.json().errors.siblings).toBe("A student cannot be their own sibling.");
    const row = await student(data.id);
    expect(row.parents).toEqual([]);
    expect(row.currentStep).toBe(1);
  });

  it("student information: a level outside the curriculum and an unknown discount code are refused, nothing written", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("info.rules"))).json();
    await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, { ...family(data.id), siblings: [] });
    const level = await api(server.app, "POST", "/student-profiles/step-student-information", frontDesk, { ...info(data.id), levelId: ref.otherLevelId });
    expect(level.statusCode).toBe(400);
    expect(level.json().errors.levelId).toBe("This level does not belong to the chosen curriculum.");
    const code = await api(server.app, "POST", "/student-profiles/step-student-information", frontDesk, { ...info(data.id), references: [{ name: "Jane Ong", discountCode: "NO-SUCH-CODE" }] });
    expect(code.json().errors["references.0.discountCode"]).toBe("Unknown discount code.");
    const missing = await api(server.app, "POST", "/student-profiles/step-student-information", frontDesk, { id: data.id });
    expect(missing.json().errors).toMatchObject({ schoolId: "This field is required.", curriculumId: "This field is required.", levelId: "This field is required." });
    expect(await student(data.id)).toMatchObject({ status: "draft", currentStep: 2, schoolId: null });
  });

  it("PUT /student-profiles updates the profile (the phone), keeps the rules, and renames the student on the sibling's side", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("put.me"))).json();
    await api(server.app, "POST", "/student-profiles/step-family-information", frontDesk, family(data.id));
    const res = await api(server.app, "PUT", "/student-profiles", frontDesk, { id: data.id, phone: { code: "+65", number: "81112222" }, firstName: "Renamed" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ phone: { code: "+65", number: "81112222" }, fullName: "Renamed Tan" });
    expect((await student(ref.siblingId)).siblings).toContainEqual(expect.objectContaining({ id: data.id, firstName: "Renamed" }));
    const bad = await api(server.app, "PUT", "/student-profiles", frontDesk, { id: data.id, phone: { code: "+65", number: "8111 2222" }, username: "a b" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ "phone.number": "invalid_number", username: "Not allow space for username" });
    expect((await student(data.id)).phone).toEqual({ code: "+65", number: "81112222" });
    const unknown = await api(server.app, "PUT", "/student-profiles", frontDesk, { id: data.id, role: "admin" });
    expect(unknown.statusCode).toBe(400);
    expect((await student(data.id)).role).toBe("student");
    const staff = (await server.db.query<{ id: string }>(`select id from users where username = 'hr'`)).rows[0]!.id;
    const notStudent = await api(server.app, "PUT", "/student-profiles", frontDesk, { id: staff, firstName: "Hacked" });
    expect(notStudent.statusCode).toBe(404);
    expect((await student(staff)).firstName).not.toBe("Hacked");
  });

  it("PATCH /student-profiles/{id}/avatar sets an uploaded gif/jpeg/png image and refuses anything else", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("avatar.me"))).json();
    const presign = (await api(server.app, "GET", `/api/v2/media/put-presigned-url?key=avatars/me.png`.replace("/api/v2", ""), frontDesk)).json().data;
    const put = await server.app.inject({ method: "PUT", url: presign.url.replace(/^https?:\/\/[^/]+/, ""), payload: PNG, headers: { "content-type": "image/png" } });
    expect(put.statusCode).toBeLessThan(300);
    const url = `/media/public?key=${encodeURIComponent(presign.keyPath)}`;
    const res = await api(server.app, "PATCH", `/student-profiles/${data.id}/avatar`, frontDesk, { avatarUrl: url });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.avatarUrl).toBe(url);
    const pdf = await api(server.app, "PATCH", `/student-profiles/${data.id}/avatar`, frontDesk, { avatarUrl: "/media/public?key=avatars%2Fcv.pdf" });
    expect(pdf.json().errors.avatarUrl).toBe("Only gif, jpeg and png images are accepted.");
    const never = await api(server.app, "PATCH", `/student-profiles/${data.id}/avatar`, frontDesk, { avatarUrl: "/media/public?key=avatars%2Fnever-uploaded.png" });
    expect(never.statusCode).toBe(400);
    expect((await student(data.id)).avatarUrl).toBe(url);
  });

  it("DELETE /student-profiles/{id} soft-deletes, but not while the student has unpaid payment advices or an active enrolment", async () => {
    const { data } = (await api(server.app, "POST", "/student-profiles/init", frontDesk, account("delete.me"))).json();
    const res = await api(server.app, "DELETE", `/student-profiles/${data.id}`, frontDesk);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id: data.id } });
    expect((await student(data.id)).status).toBe("deleted");
    expect((await api(server.app, "DELETE", `/student-profiles/${data.id}`, frontDesk)).statusCode).toBe(404);

    const unpaid = (await server.db.query<{ id: string }>(
      `select u.id from users u where u.status = 'active' and exists (select 1 from payment_advices p where p."studentId" = u.id and p."paymentStatus" = 'unpaid' and p.status <> 'deleted') limit 1`,
    )).rows[0]!.id;
    const refusedPa = await api(server.app, "DELETE", `/student-profiles/${unpaid}`, frontDesk);
    expect(refusedPa.statusCode).toBe(409);
    expect(refusedPa.json().message).toBe("This student has unpaid payment advices: settle or void them before deleting the student.");
    const enrolled = (await server.db.query<{ id: string }>(
      `select u.id from users u where u.status = 'active' and exists (select 1 from student_classes c where c."userId" = u.id and c.status = 'enrolled')
         and not exists (select 1 from payment_advices p where p."studentId" = u.id and p."paymentStatus" in ('unpaid', 'overdue') and p.status <> 'deleted') limit 1`,
    )).rows[0]!.id;
    const refusedClass = await api(server.app, "DELETE", `/student-profiles/${enrolled}`, frontDesk);
    expect(refusedClass.statusCode).toBe(409);
    expect(refusedClass.json().message).toBe("This student is still enrolled in a class: withdraw them before deleting the student.");
    expect((await student(unpaid)).status).toBe("active");
    expect((await student(enrolled)).status).toBe("active");
  });

  it("the access policy guards every call: a role without the Students screens (sales, a tutor) gets 403 and nothing changes", async () => {
    const before = await studentCount();
    for (const role of ["sales", "fulltime_tutor"]) {
      const token = (await signIn(server.app, role)).accessToken;
      const calls: [string, string, unknown][] = [
        ["POST", "/student-profiles/init", account(`${role}.made`)],
        ["POST", "/student-profiles/step-family-information", family(ref.siblingId)],
        ["POST", "/student-profiles/step-student-information", info(ref.siblingId)],
        ["PUT", "/student-profiles", { id: ref.siblingId, firstName: "Nope" }],
        ["PATCH", `/student-profiles/${ref.siblingId}/avatar`, { avatarUrl: "x.png" }],
        ["DELETE", `/student-profiles/${ref.siblingId}`, undefined],
      ];
      for (const [method, url, body] of calls) expect((await api(server.app, method, url, token, body)).statusCode, `${role} ${method} ${url}`).toBe(403);
    }
    expect((await api(server.app, "POST", "/student-profiles/init", undefined, account("anon.made"))).statusCode).toBe(401);
    expect(await studentCount()).toBe(before);
    expect((await student(ref.siblingId)).firstName).not.toBe("Nope");
  });

  it("an intern may run the wizard (the four student roles all may)", async () => {
    const intern = (await signIn(server.app, "intern")).accessToken;
    const res = await api(server.app, "POST", "/student-profiles/init", intern, account("by.intern"));
    expect(res.statusCode).toBe(201);
  });
});
