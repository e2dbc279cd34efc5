/**
 * The bounds of FINANCE.md §1 through the REST API (issue 31): an amount with more than two decimals is
 * refused, never cut; a line is at most S$1,000,000.00, a document and a payment at most S$10,000,000.00;
 * a payment is dated between the PA's issue date minus one year and today; a class without a price is
 * refused, naming it, never billed S$0.00. Each refusal is a 400 with the field's message and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, paFields, pickClasses, studentsOf, type ClassPick } from "../support/finance.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";

describe.each(databaseLanes())("money bounds [%s]", (lane) => {
  let server: TestServer;
  let token: string;
  let classes: ClassPick[];
  let students: string[];
  const today = todayInSingapore();
  const plusDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    server = await startTestServer(lane);
    token = (await signIn(server.app, "front_desk")).accessToken;
    classes = await pickClasses(server);
    students = await studentsOf(server, classes[0]!.companyId, 4);
  });
  afterAll(async () => {
    await server?.close();
  });

  const count = async (sql: string, params: unknown[]) => (await server.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).rows[0]!.n;
  const pay = (paymentAdviceId: string, payment: Record<string, unknown>) => api(server.app, "POST", "/finances/invoices", token, { paymentAdviceId, payment });
  const init = (studentId: string, entryOver: Record<string, unknown>, c = classes[0]!) => api(server.app, "POST", "/finances/payment-advices/init", token, paFields(c, studentId, entryOver));
  const draftsOf = (studentId: string) => count(`payment_advices where "studentId" = $1`, [studentId]);
  const receiptsOf = (paymentAdviceId: string) => count(`receipts where "paymentAdviceId" = $1`, [paymentAdviceId]);

  it("an amount with three decimals is refused with a message, never cut (a payment, a PA line, an additional discount)", async () => {
    const pa = await issuedPa(server, token, classes[0]!, students[0]!);
    for (const amount of ["12.345", 12.345, "12.340"]) {
      const res = await pay(pa.id, { amount, paymentMethod: "cash" });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual({ "payment.amount": "Amounts have at most two decimals." });
    }
    expect(await receiptsOf(pa.id)).toBe(0);

    const before = await draftsOf(students[1]!);
    const line = await init(students[1]!, { otherPayments: [{ name: "Books", amount: "12.345" }] });
    expect(line.statusCode, line.body).toBe(400);
    expect(line.json().errors).toEqual({ "classInformations.0.otherPayments.0.amount": "Amounts have at most two decimals." });
    const discount = await init(students[1]!, { additionalDiscount: "0.005" });
    expect(discount.json().errors).toEqual({ "classInformations.0.additionalDiscount": "Amounts have at most two decimals." });
    expect(await draftsOf(students[1]!)).toBe(before);
  });

  it("a payment of S$99,999,999,999.99 is refused (not a 500); a payment of S$10,000,000.00 is the most", async () => {
    const pa = await issuedPa(server, token, classes[0]!, students[2]!);
    const huge = await pay(pa.id, { amount: "99999999999.99", paymentMethod: "cash" });
    expect(huge.statusCode, huge.body).toBe(400);
    expect(huge.json()).toMatchObject({ success: false, message: "A payment may be at most S$10,000,000.00.", errors: { "payment.amount": "A payment may be at most S$10,000,000.00." } });
    expect((await pay(pa.id, { amount: "10000000.01", paymentMethod: "cash" })).statusCode).toBe(400);
    expect(await receiptsOf(pa.id)).toBe(0);
    expect(await count(`invoices where "paymentAdviceId" = $1`, [pa.id])).toBe(0);
  });

  it("a payment dated outside the PA's issue date minus one year … today is refused (0999-01-01 is not a 500); the bounds themselves are accepted", async () => {
    const pa = await issuedPa(server, token, classes[0]!, students[3]!);
    const from = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
    const message = `The payment date must lie between ${from.slice(8, 10)}/${from.slice(5, 7)}/${from.slice(0, 4)} and today.`;
    for (const paymentDate of ["0999-01-01", plusDays(1), plusDays(-367), "9999-12-31"]) {
      const res = await pay(pa.id, { amount: "1.00", paymentMethod: "cash", paymentDate });
      expect(res.statusCode, `${paymentDate}: ${res.body}`).toBe(400);
      expect(res.json().errors).toEqual({ paymentDate: message });
    }
    expect(await receiptsOf(pa.id)).toBe(0);
    for (const paymentDate of [today, from]) {
      const res = await pay(pa.id, { amount: "1.00", paymentMethod: "cash", paymentDate });
      expect(res.statusCode, `${paymentDate}: ${res.body}`).toBe(201);
    }
    expect(await receiptsOf(pa.id)).toBe(2);
  });

  it("a PA line above S$1,000,000.00 and a PA above S$10,000,000.00 are refused, so the invoice never fails later", async () => {
    const before = await draftsOf(students[0]!);
    const huge = await init(students[0]!, { otherPayments: [{ name: "Books", amount: "99999999999.99" }] });
    expect(huge.statusCode, huge.body).toBe(400);
    expect(huge.json().errors).toEqual({ "classInformations.0.otherPayments.0.amount": "A line may be at most S$1,000,000.00." });
    for (const field of ["deductions", "deposits"]) {
      const res = await init(students[0]!, { [field]: [{ name: "Row", amount: "1000000.01" }] });
      expect(res.json().errors, field).toEqual({ [`classInformations.0.${field}.0.amount`]: "A line may be at most S$1,000,000.00." });
    }
    const rows = Array.from({ length: 11 }, (_, i) => ({ name: `Row ${i}`, amount: "1000000.00" }));
    const document = await init(students[0]!, { otherPayments: rows });
    expect(document.statusCode, document.body).toBe(400);
    expect(document.json()).toMatchObject({ message: "A document may total at most S$10,000,000.00.", errors: { paymentSummaryStatic: "A document may total at most S$10,000,000.00." } });
    // a large gross that deductions bring back is still beyond what a document may carry
    const offset = await init(students[0]!, { otherPayments: rows, deductions: rows });
    expect(offset.json().errors).toEqual({ paymentSummaryStatic: "A document may total at most S$10,000,000.00." });
    expect(await draftsOf(students[0]!)).toBe(before);
    // a line of exactly S$1,000,000.00 is accepted, and its invoice takes a payment
    const pa = await issuedPa(server, token, classes[0]!, students[0]!, { otherPayments: [{ name: "Books", amount: "1000000.00" }] });
    const paid = await pay(pa.id, { amount: "1000000.00", paymentMethod: "cash" });
    expect(paid.statusCode, paid.body).toBe(201);
  });

  it("a refund's lines have two decimals and S$1,000,000.00 at most, its total S$10,000,000.00 at most; nothing is written otherwise", async () => {
    const [e] = await enrolmentsWithLessonsAhead(server, 1);
    await issuedPa(server, token, e!, e!.studentId);
    const created = await api(server.app, "POST", "/refund", token, { type: "withdrawal", studentId: e!.studentId, classId: e!.id, noticeDate: today, lastLessonDate: e!.lessons[0]!.date });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/refund/${created.json().data.refundId}`;
    const before = (await api(server.app, "GET", url, token)).json().data;
    const patch = (line: Record<string, unknown>) => api(server.app, "PATCH", url, token, { updatedAt: before.updatedAt, classes: [{ id: before.classes[0].id, ...line }] });

    const decimals = await patch({ deduction: "12.345" });
    expect(decimals.statusCode, decimals.body).toBe(400);
    expect(decimals.json().errors).toEqual({ "classes.0.deduction": "Amounts have at most two decimals." });
    const line = await patch({ otherPayments: [{ name: "Material", amount: "99999999999.99" }] });
    expect(line.json().errors).toEqual({ "classes.0.otherPayments.0.amount": "A line may be at most S$1,000,000.00." });
    const total = await patch({ otherPayments: Array.from({ length: 11 }, (_, i) => ({ name: `Row ${i}`, amount: "1000000.00" })) });
    expect(total.statusCode, total.body).toBe(400);
    expect(total.json().errors).toEqual({ total: "A document may total at most S$10,000,000.00." });
    const after = (await api(server.app, "GET", url, token)).json().data;
    expect(after).toEqual(before);
  });

  it("a class with no price row is refused naming the class (never billed S$0.00), on saving a draft as on issuing", async () => {
    const c = classes[1]!;
    const { rows } = await server.db.query<{ name: string; priceId: string }>(
      `select k.name, p.id as "priceId" from classes k join academic_program_type_pricings p on p."academicCalendarId" = k."academicCalendarId" and p."programTypeId" = k."programTypeId"
         and p."companyId" = k."companyId" and p.status <> 'deleted' where k.id = $1`,
      [c.id],
    );
    const { name, priceId } = rows[0]!;
    const message = `The class "${name}" has no price per lesson; set its price before billing it.`;
    await server.db.query(`update academic_program_type_pricings set status = 'deleted' where id = $1`, [priceId]);
    try {
      const before = await draftsOf(students[1]!);
      const res = await init(students[1]!, {}, c);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ message, errors: { "classInformations.0.id": message } });
      expect(await draftsOf(students[1]!)).toBe(before);
    } finally {
      await server.db.query(`update academic_program_type_pricings set status = 'active' where id = $1`, [priceId]);
    }
    // with its price back, the same PA is priced and saved
    expect((await init(students[1]!, {}, c)).statusCode).toBe(201);
  });

  it("an issued class card bills at least one lesson: a card without terms is refused naming the class; a draft may wait for its terms", async () => {
    const c = classes[0]!;
    const name = (await server.db.query<{ name: string }>(`select name from classes where id = $1`, [c.id])).rows[0]!.name;
    const fields = paFields(c, students[2]!, { termIds: [] });
    const draft = await api(server.app, "POST", "/finances/payment-advices/init", token, fields);
    expect(draft.statusCode, draft.body).toBe(201);
    const issued = await api(server.app, "PUT", `/finances/payment-advices/${draft.json().data.id}`, token, { ...fields, action: "issue", updatedAt: draft.json().data.updatedAt });
    expect(issued.statusCode, issued.body).toBe(400);
    const message = `The class "${name}" bills no lesson; choose its terms or additional lessons.`;
    expect(issued.json()).toMatchObject({ message, errors: { "classInformations.0.termIds": message } });
    const after = await server.db.query(`select "paymentStatus", name from payment_advices where id = $1`, [draft.json().data.id]);
    expect(after.rows).toEqual([{ paymentStatus: "draft", name: null }]);
    expect(await count(`payment_advice_logs where "paymentAdviceId" = $1`, [draft.json().data.id])).toBe(1); // its create log only
  });
});
