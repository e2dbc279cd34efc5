/**
 * The payment advice side of issue 31 (§2 caps under locks, §5 workflow rules; FINANCE.md §4, §7): one paid
 * deposit deducted by one PA only, however many are issued at once; one credit note spent once by concurrent
 * payments; an invoice's total follows its PA's edits; a PA with a payment is not edited; a withdrawal acts
 * per class card; void of a paid PA voids its payments and receipts and credits only what was not credited.
 * The races run on every lane; on PostgreSQL (TEST_DATABASE_URL) the requests truly run at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, paFields, pickClasses, studentsOf, type ClassPick, type Enrolment } from "../support/finance.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { PA_MESSAGES } from "../../src/domain/finance/paymentAdviceStatus.ts";
import { PA_FIELD_MESSAGES } from "../../server/finance/paymentAdviceCompose.ts";

describe.each(databaseLanes())("payment advice caps and workflow rules [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let classes: ClassPick[];
  let students: string[];
  let enrolments: Enrolment[];

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff", "finance_manager", "hr"]) token[role] = (await signIn(server.app, role)).accessToken;
    classes = await pickClasses(server);
    students = await studentsOf(server, classes[0]!.companyId, 6);
    enrolments = await enrolmentsWithLessonsAhead(server, 2);
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const cents = (v: string) => numericToCents(v)!;
  const call = (role: string, method: string, url: string, body?: unknown) => api(server.app, method, url, token[role], body);
  const pay = (paymentAdviceId: string, payment: Record<string, unknown>) => call("front_desk", "POST", "/finances/invoices", { paymentAdviceId, payment });
  const paRow = (id: string) =>
    one<{ paymentStatus: string; total: string; updatedAt: string }>(`select "paymentStatus", summary->>'total' as total, to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [id]);
  const depositStatus = async (id: string) => (await one<{ s: string }>(`select "depositStatus" as s from deposits where id = $1`, [id])).s;

  /** A paid deposit of S$100.00 of the student: collected on a PA of `c` that is then paid in full. */
  const paidDeposit = async (c: ClassPick, studentId: string) => {
    const pa = await issuedPa(server, token.front_desk!, c, studentId, { deposits: [{ name: "Deposit", amount: "100.00" }] });
    expect((await pay(pa.id, { amount: pa.summary.total, paymentMethod: "cash" })).statusCode).toBe(201);
    const d = await one<{ id: string; depositStatus: string }>(`select id, "depositStatus" from deposits where "paymentAdviceId" = $1`, [pa.id]);
    expect(d.depositStatus).toBe("paid");
    return d.id;
  };
  const deducting = (depositId: string) => ({ isDeductedDeposit: true, deductedDeposit: [{ name: "Deposit", amount: "100.00", depositId }] });

  it("one paid deposit deducted by 10 PAs issued at once: one is issued, the others are refused with a clear message", async () => {
    const student = students[0]!;
    const depositId = await paidDeposit(classes[0]!, student);
    const drafts = [];
    for (let i = 0; i < 10; i++) {
      const fields = paFields(classes[1]!, student, deducting(depositId));
      const draft = await call("front_desk", "POST", "/finances/payment-advices/init", fields);
      expect(draft.statusCode, draft.body).toBe(201);
      drafts.push({ id: draft.json().data.id as string, body: { ...fields, action: "issue", updatedAt: draft.json().data.updatedAt } });
    }
    const results = await Promise.all(drafts.map((d) => call("front_desk", "PUT", `/finances/payment-advices/${d.id}`, d.body)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(400)]);
    for (const r of results.filter((x) => x.statusCode === 400)) expect(r.json().errors["classInformations.0.deductedDeposit.0.depositId"]).toBe(PA_FIELD_MESSAGES.depositApplied);
    expect(await depositStatus(depositId)).toBe("used");
    const applying = await one<{ n: number }>(
      `select count(*)::int as n from payment_advices pa, jsonb_array_elements(pa."classInformations") card, jsonb_array_elements(card->'deductedDeposit') dd
       where pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and dd->>'depositId' = $1`,
      [depositId],
    );
    expect(applying.n).toBe(1);
    // an unpaid PA edited to deduct it too is refused the same way
    const other = await issuedPa(server, token.front_desk!, classes[1]!, student);
    const edit = await call("front_desk", "PUT", `/finances/payment-advices/${other.id}`, { ...paFields(classes[1]!, student, deducting(depositId)), action: "save", updatedAt: other.updatedAt });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().errors["classInformations.0.deductedDeposit.0.depositId"]).toBe(PA_FIELD_MESSAGES.depositApplied);
  });

  it("one credit note of S$50.00 spent by 8 payments at once on 8 invoices: one is recorded, the credit note is used once", async () => {
    const student = students[1]!;
    const cn = await one<{ id: string }>(
      `insert into credit_notes (name, type, "creditNoteStatus", summary, "studentId", "companyId") values ('CN-TEST-RACE', 'overpaid', 'issued', '{"total": "50.00"}', $1, $2) returning id`,
      [student, classes[0]!.companyId],
    );
    const pas = [];
    for (let i = 0; i < 8; i++) pas.push(await issuedPa(server, token.front_desk!, classes[i % 2]!, student));
    const results = await Promise.all(pas.map((pa) => pay(pa.id, { amount: "50.00", paymentMethod: "credit_note", creditNoteId: cn.id })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, ...Array(7).fill(400)]);
    expect(await one(`select "creditNoteStatus", "usedAmount"::text as used from credit_notes where id = $1`, [cn.id])).toEqual({ creditNoteStatus: "used", used: "50.00" });
    expect(await one(`select coalesce(sum(amount), 0)::text as spent from invoice_payments where "creditNoteId" = $1 and status <> 'deleted'`, [cn.id])).toEqual({ spent: "50.00" });
  });

  it("editing an invoiced unpaid PA: its invoice takes the new total in the same call (logged); paying the new total pays it exactly", async () => {
    const student = students[2]!;
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, student);
    const issued = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id });
    expect(issued.statusCode, issued.body).toBe(201);
    const invoice = issued.json().data.invoice;
    expect(invoice.total).toBe(pa.summary.total);
    const edit = await call("front_desk", "PUT", `/finances/payment-advices/${pa.id}`, {
      ...paFields(classes[0]!, student, { otherPayments: [{ name: "Books", amount: "180.00" }] }),
      action: "save",
      updatedAt: pa.updatedAt,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const newTotal = edit.json().data.summary.total;
    expect(cents(newTotal)).toBe(cents(pa.summary.total) + 18000 + Math.floor(18000 * 0.09 + 0.5));
    expect(await one(`select total::text as total, "invoiceStatus" from invoices where id = $1`, [invoice.id])).toEqual({ total: newTotal, invoiceStatus: "active" });
    const log = await one<{ invoices: unknown }>(`select "valueAfter"->'paymentAdvice'->'invoices' as invoices from payment_advice_logs where "paymentAdviceId" = $1 and type = 'update' order by "createdAt" desc limit 1`, [pa.id]);
    expect(log.invoices).toEqual([{ name: invoice.name, totalBefore: pa.summary.total, total: newTotal }]);
    const paid = await call("front_desk", "POST", `/finances/invoices/${invoice.id}/payments`, { amount: newTotal, paymentMethod: "nets" });
    expect(paid.json().data.invoice).toMatchObject({ invoiceStatus: "paid", paidAmount: newTotal });
    expect((await paRow(pa.id)).paymentStatus).toBe("paid");
  });

  it("a PA with a payment is no longer edited: refused with a clear message, nothing written", async () => {
    const student = students[3]!;
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, student);
    expect((await pay(pa.id, { amount: "10.00", paymentMethod: "cash" })).statusCode).toBe(201);
    const before = await paRow(pa.id);
    expect(before.paymentStatus).toBe("unpaid");
    const edit = await call("front_desk", "PUT", `/finances/payment-advices/${pa.id}`, { ...paFields(classes[0]!, student, { additionalDiscount: "50.00" }), action: "save", updatedAt: before.updatedAt });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(PA_MESSAGES.hasPayments);
    expect(await paRow(pa.id)).toEqual(before);
  });

  it("a withdrawal acts per class card: the class's lessons after the last one leave the unpaid PA, other classes stay billed, the invoice follows", async () => {
    const e = enrolments[0]!;
    const other = classes.find((c) => c.programId !== e.programId && c.id !== e.id)!;
    const fields = paFields(e, e.studentId);
    fields.classInformations.push(paFields(other, e.studentId).classInformations[0]!);
    const draft = await call("front_desk", "POST", "/finances/payment-advices/init", fields);
    const issued = await call("front_desk", "PUT", `/finances/payment-advices/${draft.json().data.id}`, { ...fields, action: "issue", updatedAt: draft.json().data.updatedAt });
    expect(issued.statusCode, issued.body).toBe(200);
    const pa = issued.json().data;
    const invoice = (await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id })).json().data.invoice;
    const [card, otherCard] = pa.classInformations;
    const last = e.lessons[0]!.date;
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: last, reason: "Too many classes" });
    expect(created.statusCode, created.body).toBe(201);

    const after = await one<{ paymentStatus: string; classInformations: any[]; summary: { total: string } }>(`select "paymentStatus", "classInformations", summary from payment_advices where id = $1`, [pa.id]);
    expect(after.paymentStatus).toBe("unpaid");
    const [cardAfter, otherAfter] = after.classInformations;
    const kept = (await server.db.query<{ id: string }>(`select id from lessons where id = any($1::uuid[]) and date <= $2::date order by date, id`, [card.responses.lessonIds, last])).rows.map((r) => r.id);
    expect(kept.length).toBeLessThan(card.responses.lessons);
    expect(cardAfter.responses.lessonIds).toEqual(kept);
    expect(cardAfter.lessonEndDate).toBe(last);
    expect(cents(cardAfter.responses.total)).toBe(kept.length * cents(card.responses.unitPrice));
    expect(otherAfter.responses).toEqual(otherCard.responses);
    expect(cents(after.summary.total)).toBeLessThan(cents(pa.summary.total));
    expect(await one(`select total::text as total, "invoiceStatus" from invoices where id = $1`, [invoice.id])).toEqual({ total: after.summary.total, invoiceStatus: "active" });
    const log = await one<{ withdrawn: string }>(`select "valueAfter"->'paymentAdvice'->>'withdrawnClassId' as withdrawn from payment_advice_logs where "paymentAdviceId" = $1 order by "createdAt" desc limit 1`, [pa.id]);
    expect(log.withdrawn).toBe(e.id);
    // the other classes can still be collected: paying the new total pays the PA exactly
    const paid = await call("front_desk", "POST", `/finances/invoices/${invoice.id}/payments`, { amount: after.summary.total, paymentMethod: "cash" });
    expect(paid.json().data.invoice.invoiceStatus).toBe("paid");
  });

  it("a PA left with nothing after a withdrawal is withdrawn: its invoice voided, the deposit it deducted paid again; a PA with a payment stays as it is", async () => {
    const e = enrolments[1]!;
    const depositId = await paidDeposit(e, e.studentId);
    const later = { lessonStartDate: e.lessons[1]!.date };
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId, { ...later, ...deducting(depositId) });
    expect(await depositStatus(depositId)).toBe("used");
    const invoice = (await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id })).json().data.invoice;
    const partPaid = await issuedPa(server, token.front_desk!, e, e.studentId, later);
    expect((await pay(partPaid.id, { amount: "5.00", paymentMethod: "cash" })).statusCode).toBe(201);
    const partBefore = await paRow(partPaid.id);

    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[0]!.date });
    expect(created.statusCode, created.body).toBe(201);
    expect((await paRow(pa.id)).paymentStatus).toBe("withdrawn");
    expect(await one(`select "invoiceStatus" from invoices where id = $1`, [invoice.id])).toEqual({ invoiceStatus: "voided" });
    expect(await depositStatus(depositId)).toBe("paid");
    expect(await paRow(partPaid.id)).toEqual(partBefore);
  });

  it("void paid PA after an overpaid credit note on it: payments and receipts voided, the credit is what was received less what was credited; a deducted deposit is paid again", async () => {
    const student = students[4]!;
    const depositId = await paidDeposit(classes[0]!, student);
    const pa = await issuedPa(server, token.front_desk!, classes[1]!, student, deducting(depositId));
    const total = cents(pa.summary.total);
    const first = (await pay(pa.id, { amount: centsToNumeric(total - 2000), paymentMethod: "cash" })).json().data;
    const over = (await pay(pa.id, { amount: "30.00", paymentMethod: "nets" })).json().data;
    expect(over.invoice.invoiceStatus).toBe("overpaid");
    const received = total + 1000;
    const made = await call("finance_staff", "POST", "/credit-notes", { type: "overpaid", receiptId: over.receipt.id });
    expect(made.statusCode, made.body).toBe(201);
    const cnId = made.json().data.id;
    const { updatedAt } = (await call("finance_manager", "GET", `/credit-notes/${cnId}`)).json().data;
    const approved = await call("finance_manager", "PATCH", `/credit-notes/change-status-credit-note/${cnId}`, { status: "issued", updatedAt });
    expect(approved.statusCode, approved.body).toBe(200);
    const overpaidCredit = cents(approved.json().data.summary.total);
    // the overpaying receipt's money is now a credit note: the receipt cannot be voided under it
    const voidOver = await call("finance_manager", "POST", `/finances/receipts/${over.receipt.id}/void`, { reason: "Wrong amount" });
    expect(voidOver.statusCode, voidOver.body).toBe(409);
    expect(voidOver.json().message).toBe(`Money of this receipt was credited or is being refunded (${approved.json().data.name}); void or reject those first.`);

    const today = todayInSingapore();
    const closing = async () => (await call("hr", "GET", `/reports/daily-closing?from=${today}&to=${today}`)).json().data.totals as { total: string; voided: string };
    const closingBefore = await closing();

    const res = await call("finance_manager", "PATCH", "/finances/payment-advices/void-paid-pa", { id: pa.id, reason: "Billed twice", updatedAt: (await paRow(pa.id)).updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    const { paymentAdvice, creditNote } = res.json().data;
    expect(paymentAdvice.paymentStatus).toBe("voided");
    expect(cents(creditNote.total)).toBe(received - overpaidCredit);
    const credited = await one<{ total: string }>(`select sum((summary->>'total')::numeric)::text as total from credit_notes where id = any($1::uuid[]) and "creditNoteStatus" = 'issued'`, [[cnId, creditNote.id]]);
    expect(cents(credited.total)).toBe(received);
    expect(await one(`select "invoiceStatus", "paidAmount"::text as "paidAmount" from invoices where id = $1`, [first.invoice.id])).toEqual({ invoiceStatus: "voided", paidAmount: "0.00" });
    const payments = (await server.db.query<{ status: string }>(`select status from invoice_payments where "invoiceId" = $1`, [first.invoice.id])).rows;
    expect(payments).toEqual([{ status: "deleted" }, { status: "deleted" }]);
    const receipts = (await server.db.query<{ status: string; voidReason: string }>(`select status, "voidReason" from receipts where "invoiceId" = $1 order by name`, [first.invoice.id])).rows;
    expect(receipts).toEqual([
      { status: "voided", voidReason: "Payment advice voided: Billed twice" },
      { status: "voided", voidReason: "Payment advice voided: Billed twice" },
    ]);
    expect(await depositStatus(depositId)).toBe("paid");
    // the daily closing moves the day's payments into its Voided column: the drawer held them, they are no longer collections
    const closingAfter = await closing();
    expect(cents(closingAfter.voided) - cents(closingBefore.voided)).toBe(received);
    expect(cents(closingBefore.total) - cents(closingAfter.total)).toBe(received);
  });
});
