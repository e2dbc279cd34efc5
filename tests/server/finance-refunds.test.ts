/**
 * Withdrawals and refunds (issue 16; FINANCE.md §4 "Refund", §5): the withdrawal's changes (enrolment, lessons
 * after the last one, unpaid PAs of the class) and its refund in one transaction, the refund priced by the
 * server (per class and in total, GST at the PA's rate), the workflow front desk → sales → finance manager
 * with each move refused to the other roles, and the credit notes it includes becoming used, its deposits refunded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, paFields, type Enrolment } from "../support/finance.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { refundClassFigures } from "../../src/domain/finance/refund.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { PA_FIELD_MESSAGES } from "../../server/finance/paymentAdviceCompose.ts";
import { reconcile } from "../../server/finance/reconcile.ts";

describe.each(databaseLanes())("withdrawals and refunds [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let enrolments: Enrolment[];
  const year = Number(todayInSingapore().slice(0, 4));

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff", "finance_manager", "sales", "hr"]) token[role] = (await signIn(server.app, role)).accessToken;
    enrolments = await enrolmentsWithLessonsAhead(server, 2);
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const cents = (v: string) => numericToCents(v)!;
  const call = (role: string, method: string, url: string, body?: unknown) => api(server.app, method, url, token[role], body);
  const fresh = async (id: string) => (await call("finance_manager", "GET", `/refund/${id}`)).json().data;
  const move = async (role: string, id: string, status: string, extra: Record<string, unknown> = {}) =>
    call(role, "PATCH", `/refund/${id}/change-refund-status`, { status, updatedAt: (await fresh(id)).updatedAt, ...extra });
  const patch = async (role: string, id: string, body: Record<string, unknown>) => call(role, "PATCH", `/refund/${id}`, { updatedAt: (await fresh(id)).updatedAt, ...body });

  it("front desk withdraws → sales records feedback → finance manager approves: refunded with its number; included credit notes used", async () => {
    const e = enrolments[0]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const paid = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "nets" } });
    expect(paid.statusCode, paid.body).toBe(201);
    const unpaid = await issuedPa(server, token.front_desk!, e, e.studentId); // a second bill of the class, not paid: it keeps the lessons up to the last one
    const card = await one<{ unitPrice: string; lessonIds: string[] }>(
      `select card->'responses'->>'unitPrice' as "unitPrice", card->'responses'->'lessonIds' as "lessonIds" from payment_advices, jsonb_array_elements("classInformations") card where id = $1`,
      [pa.id],
    );
    const last = e.lessons[0]!.date; // the student comes to the first lesson ahead, then leaves
    const notRefunded = (await call("front_desk", "GET", `/classes/classes-not-refund?studentId=${e.studentId}`)).json().data as { id: string }[];
    expect(notRefunded.map((c) => c.id)).toContain(e.id);
    const info = (await call("front_desk", "POST", "/classes/get-class-infor-for-refund", { studentId: e.studentId, classId: e.id, lastLessonDate: last })).json().data;

    expect((await call("sales", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: last })).statusCode).toBe(403);
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: last, reason: "Moving abroad" });
    expect(created.statusCode, created.body).toBe(201);
    const { refundId, withdrawalId } = created.json().data;

    expect((await one<{ s: string }>(`select status as s from student_classes where "userId" = $1 and "classId" = $2`, [e.studentId, e.id])).s).toBe("withdrawn");
    const lessonStatus = await server.db.query<{ id: string; status: string }>(`select "lessonId" as id, status from lessons_students where "studentId" = $1 and "lessonId" = any($2::uuid[])`, [
      e.studentId, e.lessons.map((l) => l.id),
    ]);
    const byLesson = Object.fromEntries(lessonStatus.rows.map((r) => [r.id, r.status]));
    expect(byLesson[e.lessons[0]!.id]).toBe("not_attended");
    for (const l of e.lessons.slice(1)) expect(byLesson[l.id]).toBe("withdrawn");
    // withdrawal per class card (FINANCE.md §4): the lessons after the last one leave the unpaid PA, which stays unpaid
    const edited = await one<{ s: string; lessonIds: string[] }>(
      `select "paymentStatus" as s, "classInformations"->0->'responses'->'lessonIds' as "lessonIds" from payment_advices where id = $1`,
      [unpaid.id],
    );
    expect(edited.s).toBe("unpaid");
    expect(edited.lessonIds).toContain(e.lessons[0]!.id);
    for (const l of e.lessons.slice(1)) expect(edited.lessonIds).not.toContain(l.id);
    expect((await one<{ s: string }>(`select "paymentStatus" as s from payment_advices where id = $1`, [pa.id])).s).toBe("paid");
    expect((await call("front_desk", "GET", `/classes/classes-not-refund?studentId=${e.studentId}`)).json().data.map((c: { id: string }) => c.id)).not.toContain(e.id);

    let refund = await fresh(refundId);
    const leftLessonNo = (await one<{ n: number }>(`select count(*)::int as n from lessons where id = any($1::uuid[]) and date > $2::date and "lessonStatus" = 'active' and status = 'active'`, [card.lessonIds, last])).n;
    expect(leftLessonNo).toBeGreaterThan(0);
    expect(refund).toMatchObject({ refundStatus: "awaiting_front_desk_action", withdrawalId, name: null });
    expect(refund.classes).toHaveLength(1);
    expect(refund.classes[0]).toMatchObject({ classId: e.id, lastLessonDate: last, leftLessonNo, unitPrice: card.unitPrice, gstPercent: 9, receiptId: paid.json().data.receipt.id });
    expect(info).toMatchObject({ leftLessonNo, unitPrice: card.unitPrice, amount: refund.classes[0].amount });

    // an issued credit note of the student is included (overpaid: finance makes it from an overpaying receipt)
    const extra = await call("front_desk", "POST", `/finances/invoices`, { paymentAdviceId: pa.id, payment: { amount: "20.00", paymentMethod: "cash" } });
    const overpaidCn = await call("finance_staff", "POST", "/credit-notes", { type: "overpaid", receiptId: extra.json().data.receipt.id });
    expect(overpaidCn.statusCode, overpaidCn.body).toBe(201);
    const cnId = overpaidCn.json().data.id;
    const cnBefore = (await call("finance_manager", "GET", `/credit-notes/${cnId}`)).json().data;
    expect((await call("finance_manager", "PATCH", `/credit-notes/change-status-credit-note/${cnId}`, { status: "issued", updatedAt: cnBefore.updatedAt })).statusCode).toBe(200);

    // front desk: one owed lesson, a deduction, an other payment, the credit note
    expect((await patch("sales", refundId, { reason: "x" })).statusCode).toBe(403);
    const filled = await patch("front_desk", refundId, {
      classes: [{ id: refund.classes[0].id, oweLessonNo: 1, deduction: "10.00", otherPayments: [{ name: "Material", amount: "5.00" }] }],
      creditNoteIds: [cnId],
    });
    expect(filled.statusCode, filled.body).toBe(200);
    refund = filled.json().data;
    const f = refundClassFigures({ unitPrice: cents(card.unitPrice), leftLessonNo, oweLessonNo: 1, deduction: 1000, otherPayments: [{ name: "Material", amount: 500 }], gstPercent: 9 });
    expect(refund.classes[0]).toMatchObject({ amount: centsToNumeric(f.amount), gst: centsToNumeric(f.gst), leftLessonAmount: centsToNumeric(f.leftLessonAmount) });
    // the student's paid deposits start included (a refund should not leave money out): what they hold is paid back too
    const held = cents((await one<{ s: string }>(`select coalesce(sum(amount), 0)::text as s from deposits where id = any($1::uuid[]) and "depositStatus" = 'paid'`, [refund.depositIds ?? []])).s);
    expect(refund.summary).toEqual({ classAmount: centsToNumeric(f.amount), creditNoteAmount: "20.00", depositAmount: centsToNumeric(held), total: centsToNumeric(f.amount + 2000 + held) });

    // the moves, each its role's
    expect((await move("sales", refundId, "awaiting_sale_action")).statusCode).toBe(403);
    expect((await move("front_desk", refundId, "awaiting_sale_action")).statusCode).toBe(200);
    const noFeedback = await move("sales", refundId, "awaiting_finance_approval");
    expect(noFeedback.json().errors).toMatchObject({ studentFeedback: "Please record the student's feedback and rating first." });
    expect((await patch("front_desk", refundId, { reason: "changed" })).statusCode).toBe(403);
    expect((await patch("sales", refundId, { payeeDetails: { name: "x" } })).statusCode).toBe(400); // not the sales step's field
    expect((await patch("sales", refundId, { studentFeedback: { feedback: "Family moving to Perth" }, rating: "good" })).statusCode).toBe(200);
    expect((await move("sales", refundId, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await move("finance_staff", refundId, "refunded")).statusCode).toBe(403);
    const noPayee = await move("finance_manager", refundId, "refunded");
    expect(noPayee.json().errors).toMatchObject({ payeeDetails: "Please fill in the payee details and the refund method." });
    expect((await patch("finance_manager", refundId, { payeeDetails: { name: "Parent of student", bankName: "DBS", accountNo: "123-456" }, refundMethod: "interbank transfer" })).statusCode).toBe(200);
    const done = await move("finance_manager", refundId, "refunded");
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ refundStatus: "refunded", refundMethod: "interbank transfer" });
    expect(done.json().data.name).toMatch(new RegExp(`^RF-BME-${year}-\\d{5}$`));
    expect((await one<{ s: string }>(`select "creditNoteStatus" as s from credit_notes where id = $1`, [cnId])).s).toBe("used");
    expect((await one<{ s: string }>(`select "withdrawalStatus" as s from withdrawals where id = $1`, [withdrawalId])).s).toBe("completed");
    const logs = (await server.db.query<{ type: string; s: string }>(`select type, "valueAfter"->>'refundStatus' as s from refund_logs where "refundId" = $1 order by "createdAt"`, [refundId])).rows;
    expect(logs.filter((l) => l.type === "change_status").map((l) => l.s)).toEqual(["awaiting_sale_action", "awaiting_finance_approval", "refunded"]);
    expect(logs[0]!.type).toBe("create");
  });

  it("sales may reject with a reason; nothing moves without one; a second withdrawal of the class is refused", async () => {
    const e = enrolments[1]!;
    const body = { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[1]!.date, reason: "Too far" };
    const missing = await call("front_desk", "POST", "/refund", { ...body, lastLessonDate: undefined });
    expect(missing.json().errors).toMatchObject({ lastLessonDate: "Please select the last lesson date!" });
    const created = await call("front_desk", "POST", "/refund", body);
    expect(created.statusCode, created.body).toBe(201);
    const again = await call("front_desk", "POST", "/refund", body);
    expect(again.statusCode).toBe(400);
    expect(Object.values(again.json().errors)).toContain("The student is not enrolled in this class.");
    const id = created.json().data.refundId;
    expect((await move("front_desk", id, "awaiting_sale_action")).statusCode).toBe(200);
    const noReason = await move("sales", id, "rejected_by_sale");
    expect(noReason.json().errors).toMatchObject({ reasonReject: "Please fill in the reason for rejecting." });
    const rejected = await move("sales", id, "rejected_by_sale", { reasonReject: "Parent changed their mind" });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({ refundStatus: "rejected_by_sale", reasonReject: "Parent changed their mind", moves: [] });
    expect((await move("finance_manager", id, "refunded")).statusCode).toBe(400);
    expect((await call("hr", "GET", `/refund/${id}`)).statusCode).toBe(200); // hr reads the withdrawal's refund
    expect((await call("hr", "PATCH", `/refund/${id}`, { updatedAt: rejected.json().data.updatedAt })).statusCode).toBe(403);
  });
  it("a deposit paid back by the refund is refunded: the deposit report counts it Refunded, a PA may not deduct it, the books reconcile", async () => {
    const [e] = await enrolmentsWithLessonsAhead(server, 1, 4, "SLC");
    const today = todayInSingapore();
    const pa = await issuedPa(server, token.front_desk!, e!, e!.studentId, { deposits: [{ name: "Deposit", amount: "100.00" }] });
    const paid = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id, payment: { amount: pa.summary.total, paymentMethod: "cash" } });
    expect(paid.statusCode, paid.body).toBe(201);
    const deposit = await one<{ id: string; name: string }>(`select id, name from deposits where "paymentAdviceId" = $1`, [pa.id]);
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e!.studentId, classId: e!.id, noticeDate: today, lastLessonDate: e!.lessons[0]!.date, reason: "Moving" });
    expect(created.statusCode, created.body).toBe(201);
    const { refundId } = created.json().data;
    expect((await fresh(refundId)).depositIds).toContain(deposit.id);
    expect((await move("front_desk", refundId, "awaiting_sale_action")).statusCode).toBe(200);
    expect((await patch("sales", refundId, { studentFeedback: { feedback: "Moving" }, rating: "good" })).statusCode).toBe(200);
    expect((await move("sales", refundId, "awaiting_finance_approval")).statusCode).toBe(200);
    expect((await patch("finance_manager", refundId, { payeeDetails: { name: "Parent" }, refundMethod: "cheque" })).statusCode).toBe(200);
    const done = await move("finance_manager", refundId, "refunded");
    expect(done.statusCode, done.body).toBe(200);

    expect(await one(`select "depositStatus" from deposits where id = $1`, [deposit.id])).toEqual({ depositStatus: "refunded" });
    const report = (await call("hr", "GET", `/reports/deposit?from=${today}&to=${today}`)).json().data;
    // the report is the student's deposits_held (issue 31): collected today, paid back today with the refund
    const { fullName } = await one<{ fullName: string }>(`select "fullName" from users where id = $1`, [e!.studentId]);
    const row = report.rows.find((r: { student: string }) => r.student === fullName);
    const { depositAmount } = await one<{ depositAmount: string }>(`select summary->>'depositAmount' as "depositAmount" from refunds where id = $1`, [refundId]);
    expect(Number(depositAmount)).toBeGreaterThanOrEqual(100); // this deposit among the class's deposits paid back
    expect(row).toMatchObject({ collected: "100.00", refunded: Number(depositAmount).toFixed(2), used: "0.00" });
    expect(Math.round(Number(row.held) * 100)).toBe(Math.round((Number(row.opening) + 100 - Number(depositAmount)) * 100));
    const deducting = await call("front_desk", "POST", "/finances/payment-advices/init", paFields(e!, e!.studentId, { isDeductedDeposit: true, deductedDeposit: [{ name: "Deposit", depositId: deposit.id }] }));
    expect(deducting.statusCode).toBe(400);
    expect(deducting.json().errors["classInformations.0.deductedDeposit.0.depositId"]).toBe(PA_FIELD_MESSAGES.depositRefunded);
    expect(await reconcile(server.db)).toEqual([]);
  });
});
