/**
 * Suspensions and credit notes (issue 16; FINANCE.md §4 "Credit note", §5): the suspension's changes and its
 * credit note in one transaction, the workflow front desk → finance → finance manager with each move refused
 * to the other roles, pricing from the PA that billed the class (GST half up), the spec's messages, stale
 * updates, duplicate, void, and the issued credit note paying a new PA.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, pickClasses, type Enrolment } from "../support/finance.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { creditNoteTotals } from "../../src/domain/finance/creditNote.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { StudentFixture } from "../support/financeModel.ts";
import { reconcile } from "../../server/finance/reconcile.ts";

describe.each(databaseLanes())("suspensions and credit notes [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let enrolments: Enrolment[];
  /** A student with no documents (a copy of the third one's enrolment, made before any test uses it). */
  let fresh: Enrolment;
  const year = Number(todayInSingapore().slice(0, 4));

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "intern", "finance_staff", "finance_manager", "sales"]) token[role] = (await signIn(server.app, role)).accessToken;
    enrolments = await enrolmentsWithLessonsAhead(server, 3);
    const e = enrolments[2]!;
    fresh = { ...e, studentId: (await new StudentFixture(server.db).copyOf({ ...e, classId: e.id, start: e.start, lessons: [] })).studentId };
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const cents = (v: string) => numericToCents(v)!;
  const call = (role: string, method: string, url: string, body?: unknown) => api(server.app, method, url, token[role], body);
  const move = async (role: string, id: string, status: string) => {
    const current = (await call(role, "GET", `/credit-notes/${id}`)).json().data;
    return call(role, "PATCH", `/credit-notes/change-status-credit-note/${id}`, { status, updatedAt: current?.updatedAt ?? new Date().toISOString() });
  };

  /** A PA for the enrolment's class, issued and paid in full in cash: what the credit note gives back. */
  async function paidPa(e: Enrolment) {
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const paid = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    const unitPrice = (await one<{ u: string }>(`select card->'responses'->>'unitPrice' as u from payment_advices, jsonb_array_elements("classInformations") card where id = $1`, [pa.id])).u;
    return { pa, receipt: paid.json().data.receipt as { id: string; name: string }, unitPrice: cents(unitPrice) };
  }

  it("front desk suspends → finance fills the fees → finance manager approves: issued with its number, then it pays a new PA", async () => {
    const e = enrolments[0]!;
    const { receipt, unitPrice } = await paidPa(e);
    const [l1, l2] = e.lessons;
    const created = await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: l1!.date, endDate: l2!.date, reason: "Overseas trip" });
    expect(created.statusCode, created.body).toBe(201);
    const { creditNoteId, suspensionId } = created.json().data;

    // one transaction did it all: enrolment and the two lessons suspended, the suspension, the credit note and its log
    expect((await one<{ s: string }>(`select status as s from student_classes where "userId" = $1 and "classId" = $2`, [e.studentId, e.id])).s).toBe("suspended");
    const suspended = await server.db.query<{ id: string }>(
      `select l.id from lessons_students ls join lessons l on l.id = ls."lessonId" where ls."studentId" = $1 and l."classId" = $2 and ls.status = 'suspended' order by l.date`,
      [e.studentId, e.id],
    );
    expect(suspended.rows.map((r) => r.id)).toEqual([l1!.id, l2!.id]);
    expect((await one<{ n: number }>(`select count(*)::int as n from credit_note_logs where "creditNoteId" = $1 and type = 'create'`, [creditNoteId])).n).toBe(1);

    let cn = (await call("front_desk", "GET", `/credit-notes/${creditNoteId}`)).json().data;
    expect(cn).toMatchObject({ type: "suspension", creditNoteStatus: "awaiting_front_desk_action", name: null, suspensionId, gst: 9, editStep: "front-desk" });
    expect(cn.creditNoteClass).toMatchObject({ classId: e.id, startDate: l1!.date, endDate: l2!.date, lessonIds: [l1!.id, l2!.id] });
    expect(cn.creditNoteClass.termName).toBeTruthy();
    expect(cn.creditNoteFee).toMatchObject({ numberOfLesson: 2, unitPriceOfClass: centsToNumeric(unitPrice), receiptId: receipt.id });
    expect(cn.moves).toEqual([{ to: "awaiting_finance_action", label: "Send to Finance" }]);

    // finance cannot do the front desk's step, nor front desk finance's
    expect((await move("finance_staff", creditNoteId, "awaiting_finance_action")).statusCode).toBe(403);
    const sent = await move("front_desk", creditNoteId, "awaiting_finance_action");
    expect(sent.statusCode, sent.body).toBe(200);
    cn = sent.json().data;
    expect(cn).toMatchObject({ creditNoteStatus: "awaiting_finance_action", editStep: null, moves: [] });
    expect((await call("front_desk", "PUT", `/credit-notes/${creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 1 })).statusCode).toBe(403);

    // finance: the spec's messages until the fees are filled; then priced by the server (GST 9 % half up)
    cn = (await call("finance_staff", "GET", `/credit-notes/${creditNoteId}`)).json().data;
    expect(cn.editStep).toBe("finance");
    const noLessons = await call("finance_staff", "PUT", `/credit-notes/${creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 0, reason: "" });
    expect(noLessons.statusCode, noLessons.body).toBe(200);
    const early = await move("finance_staff", creditNoteId, "awaiting_finance_approval");
    expect(early.statusCode).toBe(400);
    expect(early.json().errors).toMatchObject({ numberOfLesson: "Please fill in no. of lesson!", reason: "Please fill in reason!" });
    cn = noLessons.json().data;
    const tooMany = await call("finance_staff", "PUT", `/credit-notes/${creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 3 });
    expect(tooMany.json().errors).toMatchObject({ numberOfLesson: "The number of lessons cannot be more than the lessons suspended." });
    const filled = await call("finance_staff", "PUT", `/credit-notes/${creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 2, receiptId: receipt.id, reason: "Overseas trip", summary: { total: "1.00" } });
    expect(filled.statusCode, filled.body).toBe(200);
    const expected = creditNoteTotals({ numberOfLesson: 2, unitPriceOfClass: unitPrice }, 9);
    expect(filled.json().data.summary).toEqual({ subTotal: centsToNumeric(expected.subTotal), gst: centsToNumeric(expected.gst), total: centsToNumeric(expected.total) });
    // the stale copy is refused and writes nothing
    const stale = await call("finance_staff", "PUT", `/credit-notes/${creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe("This record was changed by someone else. Reload to see the latest.");

    expect((await move("finance_staff", creditNoteId, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await move("finance_staff", creditNoteId, "issued")).statusCode).toBe(403); // only the finance manager approves
    const approved = await move("finance_manager", creditNoteId, "issued");
    expect(approved.statusCode, approved.body).toBe(200);
    cn = approved.json().data;
    expect(cn.creditNoteStatus).toBe("issued");
    expect(cn.name).toMatch(new RegExp(`^CN-BME-${year}-\\d{5}$`));
    expect(cn.approver).toMatchObject({ fullName: expect.any(String) });
    expect((await one<{ s: string }>(`select "suspensionStatus" as s from suspensions where id = $1`, [suspensionId])).s).toBe("completed");
    const statuses = (await server.db.query<{ s: string }>(`select "valueAfter"->>'creditNoteStatus' as s from credit_note_logs where "creditNoteId" = $1 and type = 'change_status' order by "createdAt"`, [creditNoteId])).rows.map((r) => r.s);
    expect(statuses).toEqual(["awaiting_finance_action", "awaiting_finance_approval", "issued"]);

    // the list's Total column follows the summary; the remarks finance may edit over GraphQL still save
    expect((await one<{ t: string }>(`select total::text as t from credit_notes where id = $1`, [creditNoteId])).t).toBe(cn.summary.total);
    const remarked = await server.app.inject({
      method: "POST",
      url: "/v1/graphql",
      headers: { authorization: `Bearer ${token.finance_manager}` },
      payload: { query: `mutation($id: uuid!) { update_credit_notes_by_pk(pk_columns: {id: $id}, _set: {remarks: "Checked"}) { remarks } }`, variables: { id: creditNoteId } },
    });
    expect(remarked.json()).toEqual({ data: { update_credit_notes_by_pk: { remarks: "Checked" } } });

    // the issued credit note pays a new PA of the student
    const [other] = await pickClasses(server);
    const next = await issuedPa(server, token.front_desk!, other!, e.studentId);
    const paid = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: next.id, payment: { amount: cn.summary.total, paymentMethod: "credit_note", creditNoteId } });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await one<{ s: string }>(`select "creditNoteStatus" as s from credit_notes where id = $1`, [creditNoteId])).s).toBe("used");
    expect((await move("finance_manager", creditNoteId, "voided")).statusCode).toBe(400); // used: cannot be voided
  });

  it("a suspension that cannot be made writes nothing: not enrolled, an overlapping period, a missing period", async () => {
    const e = enrolments[1]!;
    const count = async () => (await one<{ n: number }>(`select (select count(*) from suspensions)::int + (select count(*) from credit_notes)::int as n`)).n;
    const before = await count();
    const body = { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[0]!.date, endDate: e.lessons[1]!.date };
    expect((await call("finance_staff", "POST", "/credit-notes", body)).statusCode).toBe(403); // FINANCE.md §5: front desk and ops suspend
    const missing = await call("front_desk", "POST", "/credit-notes", { ...body, startDate: undefined });
    expect(missing.json().errors).toMatchObject({ startDate: "Please select suspension period!" });
    const notEnrolled = await call("front_desk", "POST", "/credit-notes", { ...body, classId: enrolments[0]!.id });
    expect(notEnrolled.json().errors).toMatchObject({ classId: "The student is not enrolled in this class." });
    expect(await count()).toBe(before);

    const first = await call("front_desk", "POST", "/credit-notes", body);
    expect(first.statusCode, first.body).toBe(201);
    const overlap = await call("front_desk", "POST", "/credit-notes", { ...body, startDate: e.lessons[1]!.date, endDate: e.lessons[2]!.date });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().errors).toMatchObject({ suspensionPeriod: "The student is already suspended in this class for part of this period." });
    expect(await count()).toBe(before + 2);
    const third = (await one<{ s: string }>(`select ls.status as s from lessons_students ls where ls."lessonId" = $1 and ls."studentId" = $2`, [e.lessons[2]!.id, e.studentId])).s;
    expect(third).toBe("not_attended");

    // front desk moves the period: the suspended lessons follow
    const id = first.json().data.creditNoteId;
    const cn = (await call("front_desk", "GET", `/credit-notes/${id}`)).json().data;
    const moved = await call("front_desk", "PUT", `/credit-notes/${id}`, { updatedAt: cn.updatedAt, startDate: e.lessons[1]!.date, endDate: e.lessons[2]!.date, reason: "Sick leave" });
    expect(moved.statusCode, moved.body).toBe(200);
    // the reason given on the credit note is the suspension's reason too (issue 37 item 12: not "--" on the suspension)
    expect(await one(`select reason from suspensions where id = $1`, [first.json().data.suspensionId])).toEqual({ reason: "Sick leave" });
    expect(moved.json().data.creditNoteClass.lessonIds).toEqual([e.lessons[1]!.id, e.lessons[2]!.id]);
    const statuses = await server.db.query<{ id: string; status: string }>(`select "lessonId" as id, status from lessons_students where "studentId" = $1 and "lessonId" = any($2::uuid[])`, [
      e.studentId, e.lessons.slice(0, 3).map((l) => l.id),
    ]);
    expect(Object.fromEntries(statuses.rows.map((r) => [r.id, r.status]))).toEqual({ [e.lessons[0]!.id]: "not_attended", [e.lessons[1]!.id]: "suspended", [e.lessons[2]!.id]: "suspended" });
  });

  it("duplicate copies a credit note awaiting finance action and logs where it came from; reject and void are the finance manager's", async () => {
    const e = enrolments[2]!;
    const { receipt } = await paidPa(e);
    const created = (await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[0]!.date, endDate: e.lessons[0]!.date, reason: "Sick" })).json().data;
    expect((await move("front_desk", created.creditNoteId, "awaiting_finance_action")).statusCode).toBe(200);
    let cn = (await call("finance_staff", "GET", `/credit-notes/${created.creditNoteId}`)).json().data;
    cn = (await call("finance_staff", "PUT", `/credit-notes/${created.creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 1, receiptId: receipt.id })).json().data;
    expect((await move("finance_staff", created.creditNoteId, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await move("finance_staff", created.creditNoteId, "rejected")).statusCode).toBe(403);
    expect((await move("finance_manager", created.creditNoteId, "rejected")).statusCode).toBe(200);
    expect((await move("finance_manager", created.creditNoteId, "issued")).statusCode).toBe(400); // rejected is final

    expect((await call("front_desk", "POST", "/credit-notes/duplicate-credit-note", { creditNoteId: created.creditNoteId })).statusCode).toBe(403);
    const dup = await call("finance_staff", "POST", "/credit-notes/duplicate-credit-note", { creditNoteId: created.creditNoteId });
    expect(dup.statusCode, dup.body).toBe(201);
    const copy = dup.json().data;
    expect(copy).toMatchObject({ creditNoteStatus: "awaiting_finance_action", type: "suspension", reason: "Sick", name: null });
    expect(copy.creditNoteFee).toMatchObject({ numberOfLesson: 1, receiptId: receipt.id });
    expect(copy.summary).toEqual(cn.summary);
    const log = await one<{ type: string; before: { name: string | null } }>(`select type, "valueBefore" as before from credit_note_logs where "creditNoteId" = $1`, [copy.id]);
    expect(log.type).toBe("duplicate");

    expect((await move("finance_staff", copy.id, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await move("finance_manager", copy.id, "issued")).statusCode).toBe(200);
    expect((await move("finance_staff", copy.id, "voided")).statusCode).toBe(403);
    const voided = await move("finance_manager", copy.id, "voided");
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().data.creditNoteStatus).toBe("voided");
  });

  it("a suspension credit note of a PA voided since cannot be voided: its credit is the student's money; the ledger stays reconciled", async () => {
    const e = fresh;
    const { pa, receipt } = await paidPa(e);
    const created = (await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[1]!.date, endDate: e.lessons[1]!.date, reason: "Sick" })).json().data;
    expect((await move("front_desk", created.creditNoteId, "awaiting_finance_action")).statusCode).toBe(200);
    const cn = (await call("finance_staff", "GET", `/credit-notes/${created.creditNoteId}`)).json().data;
    expect((await call("finance_staff", "PUT", `/credit-notes/${created.creditNoteId}`, { updatedAt: cn.updatedAt, numberOfLesson: 1, receiptId: receipt.id })).statusCode).toBe(200);
    expect((await move("finance_staff", created.creditNoteId, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await move("finance_manager", created.creditNoteId, "issued")).statusCode).toBe(200);
    const offered = async () => ((await call("finance_manager", "GET", `/credit-notes/${created.creditNoteId}`)).json().data.moves as { to: string }[]).map((m) => m.to);
    expect(await offered()).toEqual(["voided"]);
    const current = await one<{ updatedAt: string }>(`select to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [pa.id]);
    const voidPaid = await call("finance_manager", "PATCH", "/finances/payment-advices/void-paid-pa", { id: pa.id, reason: "Wrong class", updatedAt: current.updatedAt });
    expect(voidPaid.statusCode, voidPaid.body).toBe(200);
    // the screen's buttons are the moves the server answers: no Void where the server refuses it
    expect(await offered()).toEqual([]);

    const voided = await move("finance_manager", created.creditNoteId, "voided");
    expect(voided.statusCode, voided.body).toBe(400);
    expect(voided.json().message).toBe("The payment advice this credit note credits was voided: its credit is the student's money, so it cannot be voided. Use it as payment or refund it.");
    expect((await call("finance_manager", "GET", `/credit-notes/${created.creditNoteId}`)).json().data.creditNoteStatus).toBe("issued");
    expect(await reconcile(server.db, [e.studentId])).toEqual([]);
  });

  it("the class information for a credit note lists the period's lessons and the class's terms, or none", async () => {
    const e = enrolments[0]!;
    const info = await call("front_desk", "GET", `/credit-notes/get-class-information-for-credit-note?studentId=${e.studentId}&classId=${e.id}&startDate=${e.lessons[2]!.date}&endDate=${e.lessons[3]!.date}`);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data).toMatchObject({ lessonIds: [e.lessons[2]!.id, e.lessons[3]!.id], numberOfLesson: 2, startDate: e.lessons[2]!.date });
    expect(info.json().data.terms.length).toBeGreaterThan(0);
    const none = await call("front_desk", "GET", `/credit-notes/get-class-information-for-credit-note?studentId=${e.studentId}&classId=${e.id}&startDate=1990-01-01&endDate=1990-01-31`);
    expect(none.json().data).toMatchObject({ terms: [], termId: null, startDate: null, endDate: null, lessonIds: [] });
    expect((await call("sales", "GET", `/credit-notes/get-class-information-for-credit-note?studentId=${e.studentId}&classId=${e.id}&startDate=1990-01-01&endDate=1990-01-31`)).statusCode).toBe(403);
  });
});
