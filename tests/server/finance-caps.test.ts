/**
 * Credit notes and refunds give back at most what came in (issue 31 scopes 2 and 5; FINANCE.md §4, §7):
 * concurrent approvals of two refunds that include the same credit note pay it out once; a refund gives
 * back only lessons paid for, and its other payments cannot lift it beyond the cap; a credit note for
 * lessons credits only lessons paid for; an overpaid credit note totals the cash overpaid; the unit price
 * is the billed one; one live credit note per suspension and class; four eyes on approvals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, pickClasses, type ClassPick, type Enrolment } from "../support/finance.ts";
import { CREDIT_NOTE_MESSAGES } from "../../src/domain/finance/creditNote.ts";
import { REFUND_MESSAGES } from "../../src/domain/finance/refund.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";

describe.each(databaseLanes())("caps of credit notes and refunds [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let enrolments: Enrolment[];
  let classes: ClassPick[];

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff", "finance_manager", "sales"]) token[role] = (await signIn(server.app, role)).accessToken;
    enrolments = await enrolmentsWithLessonsAhead(server, 4); // the demo data has four: [2] serves two tests on different lessons
    classes = await pickClasses(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const call = (role: string, method: string, url: string, body?: unknown) => api(server.app, method, url, token[role], body);
  const cnOf = async (id: string, role = "finance_manager") => (await call(role, "GET", `/credit-notes/${id}`)).json().data;
  const cnMove = async (role: string, id: string, status: string) => call(role, "PATCH", `/credit-notes/change-status-credit-note/${id}`, { status, updatedAt: (await cnOf(id, role)).updatedAt });
  const cnPut = async (role: string, id: string, body: Record<string, unknown>) => call(role, "PUT", `/credit-notes/${id}`, { updatedAt: (await cnOf(id, role)).updatedAt, ...body });
  const refundOf = async (id: string, role = "finance_manager") => (await call(role, "GET", `/refund/${id}`)).json().data;
  const refundPatch = async (role: string, id: string, body: Record<string, unknown>) => call(role, "PATCH", `/refund/${id}`, { updatedAt: (await refundOf(id)).updatedAt, ...body });
  const refundMove = async (role: string, id: string, status: string, extra: Record<string, unknown> = {}) =>
    call(role, "PATCH", `/refund/${id}/change-refund-status`, { status, updatedAt: (await refundOf(id)).updatedAt, ...extra });
  const pay = async (paId: string, amount: string) => {
    const paid = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: paId, payment: { amount, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    return paid.json().data.receipt as { id: string; name: string };
  };

  /** An overpaid credit note of `extra` on a new PA of the student, made by finance staff and approved by the finance manager. */
  async function issuedOverpaidCreditNote(studentId: string, extra: string) {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, studentId);
    await pay(pa.id, pa.summary.total);
    const over = await pay(pa.id, extra);
    const made = await call("finance_staff", "POST", "/credit-notes", { type: "overpaid", receiptId: over.id });
    expect(made.statusCode, made.body).toBe(201);
    const issued = await cnMove("finance_manager", made.json().data.id, "issued");
    expect(issued.statusCode, issued.body).toBe(200);
    return issued.json().data as { id: string; name: string; summary: { subTotal: string; gst: string; total: string } };
  }

  /** A withdrawal's refund brought to the finance manager's approval (front desk fills it, sales passes it on). */
  async function refundAwaitingApproval(studentId: string, classId: string, creditNoteIds: string[]) {
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId, classId, noticeDate: todayInSingapore(), lastLessonDate: todayInSingapore(), reason: "Moving" });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.refundId as string;
    expect((await refundPatch("front_desk", id, { creditNoteIds })).statusCode).toBe(200);
    expect((await refundMove("front_desk", id, "awaiting_sale_action")).statusCode).toBe(200);
    expect((await refundPatch("sales", id, { studentFeedback: { feedback: "Moving away" }, rating: "good" })).statusCode).toBe(200);
    expect((await refundMove("sales", id, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await refundPatch("finance_manager", id, { payeeDetails: { name: "Parent" }, refundMethod: "pay now" })).statusCode).toBe(200);
    return id;
  }

  it("a receipt of an overpaid PA is not voided when its overpaid credit note (made from another receipt) would give back more than is left overpaid", async () => {
    const studentId = enrolments[1]!.studentId;
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, studentId);
    const full = await pay(pa.id, pa.summary.total);
    const over = await pay(pa.id, "8.00");
    const made = await call("finance_staff", "POST", "/credit-notes", { type: "overpaid", receiptId: over.id });
    expect(made.statusCode, made.body).toBe(201);
    const cn = (await cnMove("finance_manager", made.json().data.id, "issued")).json().data as { name: string };
    const voided = await call("finance_staff", "POST", `/finances/receipts/${full.id}/void`, { reason: "Entered twice" });
    expect(voided.statusCode, voided.body).toBe(409);
    expect(voided.json().message).toBe(`Money of this receipt was credited or is being refunded (${cn.name}); void or reject those first.`);
    expect((await one<{ status: string }>(`select status from receipts where id = $1`, [full.id])).status).toBe("active");
  });

  it("10 concurrent approvals of two refunds that include the same credit note: one pays it out, the other is refused with a clear message", async () => {
    const { rows } = await server.db.query<{ studentId: string; classIds: string[] }>(
      `select sc."userId" as "studentId", array_agg(distinct c.id::text) as "classIds"
       from student_classes sc join classes c on c.id = sc."classId" and c."classType" = 'regular' and c."classStatus" = 'open' and c.status = 'active'
       join users u on u.id = sc."userId" and u.status = 'active' and u."companyId" = c."companyId" and u."companyId" = (select id from companies where "shortName" = 'BME')
       where sc.status = 'enrolled' and not (sc."userId" = any($1::uuid[]))
       group by sc."userId" having count(distinct c.id) >= 2 order by sc."userId" limit 1`,
      [enrolments.map((e) => e.studentId)],
    );
    const student = rows[0]!;
    expect(student, "a student enrolled in two classes").toBeTruthy();
    const cn = await issuedOverpaidCreditNote(student.studentId, "30.00");
    const a = await refundAwaitingApproval(student.studentId, student.classIds[0]!, [cn.id]);
    const b = await refundAwaitingApproval(student.studentId, student.classIds[1]!, [cn.id]);
    const [ra, rb] = [await refundOf(a), await refundOf(b)];
    expect(ra.summary.creditNoteAmount).toBe(cn.summary.total);
    expect(rb.summary.creditNoteAmount).toBe(cn.summary.total);

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const r = i % 2 ? ra : rb;
        return call("finance_manager", "PATCH", `/refund/${r.id}/change-refund-status`, { status: "refunded", updatedAt: r.updatedAt });
      }),
    );
    expect(answers.filter((x) => x.statusCode === 200)).toHaveLength(1);
    expect(answers.every((x) => [200, 400, 409].includes(x.statusCode))).toBe(true);
    const statuses = (await server.db.query<{ s: string }>(`select "refundStatus" as s from refunds where id = any($1::uuid[]) order by "refundStatus"`, [[a, b]])).rows.map((r) => r.s);
    expect(statuses).toEqual(["awaiting_finance_approval", "refunded"]);
    expect(answers.map((x) => x.json().message)).toContain(`${cn.name} was already used by another refund or as a payment. Reload the refund and take it out.`);
    expect(await one(`select "creditNoteStatus" as s, "usedAmount"::text as used from credit_notes where id = $1`, [cn.id])).toEqual({ s: "used", used: cn.summary.total });
  });

  it("a refund gives back only lessons paid for; other payments cannot take it beyond what was paid (the limit is named)", async () => {
    const e = enrolments[0]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    await pay(pa.id, "0.01");
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[0]!.date, reason: "Moving" });
    expect(created.statusCode, created.body).toBe(201);
    const refund = await refundOf(created.json().data.refundId);
    expect(refund.classes[0]).toMatchObject({ leftLessonNo: 0, amount: "0.00" });
    expect(refund.summary.classAmount).toBe("0.00");

    const tooMuch = await refundPatch("front_desk", refund.id, {
      classes: [{ id: refund.classes[0].id, otherPayments: [{ name: "Material", amount: "50000.00" }] }],
      creditNoteIds: [],
      depositIds: [],
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(
      "This refund cannot be more than S$0.00: what was paid for the lessons not delivered (S$0.00) plus the credit notes (S$0.00) and deposits (S$0.00) it includes.",
    );
    expect((await refundOf(refund.id)).summary).toEqual(refund.summary);
    expect((await refundOf(refund.id)).classes[0].otherPayments).toEqual([]);
  });

  it("a fully paid class: the lessons after the last one are refunded; other payments beyond them are refused", async () => {
    const e = enrolments[1]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    await pay(pa.id, pa.summary.total);
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[0]!.date, reason: "Moving" });
    const refund = await refundOf(created.json().data.refundId);
    expect(refund.classes[0].leftLessonNo).toBeGreaterThanOrEqual(3);
    const lessons = refund.classes[0].amount as string;
    const over = await refundPatch("front_desk", refund.id, { classes: [{ id: refund.classes[0].id, otherPayments: [{ name: "Extra", amount: "0.01" }] }], creditNoteIds: [], depositIds: [] });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain(`cannot be more than S$${Number(lessons).toFixed(2)}`);
    const within = await refundPatch("front_desk", refund.id, { classes: [{ id: refund.classes[0].id, deduction: "10.00", otherPayments: [{ name: "Material", amount: "10.00" }] }], creditNoteIds: [], depositIds: [] });
    expect(within.statusCode, within.body).toBe(200);
    expect(within.json().data.summary.total).toBe(lessons);
  });

  it("a credit note for suspended lessons credits only lessons paid for and not credited; an overpaid credit note totals the cash overpaid", async () => {
    const e = enrolments[2]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const receipt = await pay(pa.id, "0.01");
    const created = await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[0]!.date, endDate: e.lessons[1]!.date, reason: "Trip" });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.creditNoteId;
    expect((await cnOf(id)).creditNoteFee.numberOfLesson).toBe(0);
    expect((await cnMove("front_desk", id, "awaiting_finance_action")).statusCode).toBe(200);
    const two = await cnPut("finance_staff", id, { numberOfLesson: 2, receiptId: receipt.id, reason: "Trip" });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe("This credit note can credit at most 0 lessons (S$0.00): what was paid for the suspended lessons and not yet credited.");
    expect((await cnOf(id)).creditNoteFee.numberOfLesson).toBe(0);

    // S$10.01 overpaid at 9 % GST: 9.18 + 0.83 = 10.01
    const cn = await issuedOverpaidCreditNote(e.studentId, "10.01");
    expect(cn.summary).toEqual({ subTotal: "9.18", gst: "0.83", total: "10.01" });
  });

  it("the unit price of a credit note and a refund is the billed one: the class total after discounts ÷ lessons billed", async () => {
    const e = enrolments[2]!; // its first two lessons are suspended by the test above: this one suspends the third
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId, { additionalDiscount: "40.00" });
    const card = await one<{ total: string; lessons: number; list: string }>(
      `select card->'responses'->>'total' as total, (card->'responses'->>'lessons')::int as lessons, card->'responses'->>'unitPrice' as list
       from payment_advices, jsonb_array_elements("classInformations") card where id = $1`,
      [pa.id],
    );
    await pay(pa.id, pa.summary.total);
    const billed = (Math.floor((Math.round(Number(card.total) * 100)) / card.lessons) / 100).toFixed(2);
    expect(billed).not.toBe(card.list);
    const created = await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[2]!.date, endDate: e.lessons[2]!.date, reason: "Sick" });
    expect(created.statusCode, created.body).toBe(201);
    expect((await cnOf(created.json().data.creditNoteId)).creditNoteFee.unitPriceOfClass).toBe(billed);
    const info = await call("front_desk", "POST", "/classes/get-class-infor-for-refund", { studentId: e.studentId, classId: e.id, lastLessonDate: e.lessons[3]!.date });
    expect(info.json().data.unitPrice).toBe(billed);
  });

  it("one live credit note per suspension and class; four eyes: the finance manager does not approve fees they filled", async () => {
    const e = enrolments[3]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const receipt = await pay(pa.id, pa.summary.total);
    const created = await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[0]!.date, endDate: e.lessons[1]!.date, reason: "Trip" });
    const id = created.json().data.creditNoteId;
    expect((await cnMove("front_desk", id, "awaiting_finance_action")).statusCode).toBe(200);

    // the finance manager fills the fees: no Approve for them, and the call is refused
    expect((await cnPut("finance_manager", id, { numberOfLesson: 1, receiptId: receipt.id })).statusCode).toBe(200);
    expect((await cnMove("finance_manager", id, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await cnOf(id)).moves.map((m: { to: string }) => m.to)).toEqual(["awaiting_finance_action", "rejected"]);
    const own = await cnMove("finance_manager", id, "issued");
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(CREDIT_NOTE_MESSAGES.fourEyes);
    expect((await cnOf(id)).creditNoteStatus).toBe("awaiting_finance_approval");
    expect((await cnMove("finance_manager", id, "rejected")).statusCode).toBe(200);

    // the rejected one is replaced by a copy finance staff fills; the finance manager approves the copy
    const dup = await call("finance_staff", "POST", "/credit-notes/duplicate-credit-note", { creditNoteId: id });
    expect(dup.statusCode, dup.body).toBe(201);
    const copyId = dup.json().data.id;
    expect((await cnPut("finance_staff", copyId, { numberOfLesson: 2 })).statusCode).toBe(200);
    expect((await cnMove("finance_staff", copyId, "awaiting_finance_approval")).statusCode).toBe(200);
    const issued = await cnMove("finance_manager", copyId, "issued");
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().data.canDuplicate).toBe(false);

    // neither the issued copy nor the rejected original is duplicated again: that would credit the same lessons twice
    for (const source of [copyId, id]) {
      const again = await call("finance_staff", "POST", "/credit-notes/duplicate-credit-note", { creditNoteId: source });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(CREDIT_NOTE_MESSAGES.duplicateLive);
    }
    // voided, the copy is replaced once
    expect((await cnMove("finance_manager", copyId, "voided")).statusCode).toBe(200);
    expect((await call("finance_staff", "POST", "/credit-notes/duplicate-credit-note", { creditNoteId: copyId })).statusCode).toBe(201);
    expect((await call("finance_staff", "POST", "/credit-notes/duplicate-credit-note", { creditNoteId: copyId })).json().message).toBe(CREDIT_NOTE_MESSAGES.duplicateLive);
    expect((await one<{ n: number }>(`select count(*)::int as n from credit_notes where "suspensionId" = $1 and "creditNoteStatus" not in ('rejected', 'voided')`, [created.json().data.suspensionId])).n).toBe(1);

    // a refund: the finance manager who changed what it includes does not approve it
    const cn = await issuedOverpaidCreditNote(e.studentId, "5.00");
    const w = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[2]!.date, reason: "Moving" });
    const refundId = w.json().data.refundId;
    expect((await refundMove("front_desk", refundId, "awaiting_sale_action")).statusCode).toBe(200);
    expect((await refundPatch("sales", refundId, { studentFeedback: { feedback: "Moving" }, rating: "good" })).statusCode).toBe(200);
    expect((await refundMove("sales", refundId, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await refundOf(refundId)).creditNoteIds).toContain(cn.id); // the student's issued credit notes start included
    expect((await refundPatch("finance_manager", refundId, { creditNoteIds: [], payeeDetails: { name: "Parent" }, refundMethod: "cheque" })).statusCode).toBe(200);
    expect((await refundOf(refundId)).moves.map((m: { to: string }) => m.to)).toEqual(["rejected_by_finance"]);
    const ownRefund = await refundMove("finance_manager", refundId, "refunded");
    expect(ownRefund.statusCode).toBe(403);
    expect(ownRefund.json().message).toBe(REFUND_MESSAGES.fourEyes);
    expect((await refundOf(refundId)).refundStatus).toBe("awaiting_finance_approval");
  });
});
