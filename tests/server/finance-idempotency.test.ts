/**
 * Idempotency keys on the money calls (issue 31 §3, FINANCE.md §1 "Idempotent."): the same payment sent 20 times
 * at once with one key is recorded once and every sender gets the same answer; the same key with another body is
 * refused and writes nothing; another key is another payment (nothing is de-duplicated by content); a key is the
 * caller's own; a malformed key is refused.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, pickClasses, studentsOf, type ClassPick } from "../support/finance.ts";
import { IDEMPOTENCY_MESSAGES } from "../../server/api/idempotency.ts";

describe.each(databaseLanes())("idempotency keys on money calls [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let classes: ClassPick[];
  let students: string[];

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff"]) token[role] = (await signIn(server.app, role)).accessToken;
    classes = await pickClasses(server);
    students = await studentsOf(server, classes[0]!.companyId, 6);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** An invoice with a first payment of S$1.00 (made without a key). */
  const invoiceOf = async (student: string) => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, student);
    const first = await api(server.app, "POST", "/finances/invoices", token.front_desk, { paymentAdviceId: pa.id, payment: { amount: "1.00", paymentMethod: "cash" } });
    expect(first.statusCode, first.body).toBe(201);
    return first.json().data.invoice.id as string;
  };
  const payKeyed = (invoiceId: string, key: string, payment: Record<string, unknown>, role = "front_desk") =>
    server.app.inject({ method: "POST", url: `/api/v2/finances/invoices/${invoiceId}/payments`, headers: { ...bearer(token[role]!), "idempotency-key": key }, payload: payment });
  const recorded = async (invoiceId: string) =>
    (
      await server.db.query<{ payments: number; receipts: number; paid: string }>(
        `select (select count(*)::int from invoice_payments where "invoiceId" = $1) as payments,
                (select count(*)::int from receipts where "invoiceId" = $1) as receipts,
                (select "paidAmount"::text from invoices where id = $1) as paid`,
        [invoiceId],
      )
    ).rows[0]!;

  it("20 identical payments sent at once with one key: one payment and one receipt, every sender gets the same answer", async () => {
    const invoiceId = await invoiceOf(students[0]!);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => payKeyed(invoiceId, key, { amount: "7.00", paymentMethod: "cash", referenceNo: "double click" })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    expect(results.filter((r) => r.headers["idempotent-replayed"] === "true")).toHaveLength(19);
    expect(await recorded(invoiceId)).toEqual({ payments: 2, receipts: 2, paid: "8.00" });

    // a retry after a timeout, long after: the same answer again, nothing written
    const retry = await payKeyed(invoiceId, key, { referenceNo: "double click", paymentMethod: "cash", amount: "7.00" });
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(results[0]!.body);
    expect(await recorded(invoiceId)).toEqual({ payments: 2, receipts: 2, paid: "8.00" });
  });

  it("a payment whose server died after the commit, before answering: a retry later gets its answer and records nothing twice", async () => {
    const invoiceId = await invoiceOf(students[5]!);
    const key = randomUUID();
    const payment = { amount: "6.00", paymentMethod: "cash" };
    const first = await payKeyed(invoiceId, key, payment);
    expect(first.statusCode).toBe(201);
    // the crash: the answer never stored, and the retry comes after the abandon window
    await server.db.query(`update app_internal.idempotency_keys set "statusCode" = null, "contentType" = null, body = null, "createdAt" = now() - interval '3 minutes' where key = $1`, [key]);
    const retry = await payKeyed(invoiceId, key, payment);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json()).toEqual(first.json());
    expect(await recorded(invoiceId)).toEqual({ payments: 2, receipts: 2, paid: "7.00" });
  });

  it("the same key with another body is refused (409) and writes nothing", async () => {
    const invoiceId = await invoiceOf(students[1]!);
    const key = randomUUID();
    expect((await payKeyed(invoiceId, key, { amount: "5.00", paymentMethod: "cash" })).statusCode).toBe(201);
    const other = await payKeyed(invoiceId, key, { amount: "9.00", paymentMethod: "cash" });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ success: false, message: IDEMPOTENCY_MESSAGES.otherRequest });
    expect(await recorded(invoiceId)).toEqual({ payments: 2, receipts: 2, paid: "6.00" });
  });

  it("a different key is a second payment: the server does not de-duplicate by content", async () => {
    const invoiceId = await invoiceOf(students[2]!);
    const payment = { amount: "3.00", paymentMethod: "nets" };
    const a = await payKeyed(invoiceId, randomUUID(), payment);
    const b = await payKeyed(invoiceId, randomUUID(), payment);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.receipt.name).not.toBe(b.json().data.receipt.name);
    expect(await recorded(invoiceId)).toEqual({ payments: 3, receipts: 3, paid: "7.00" });
  });

  it("a key is its caller's own: another user sending the same key makes their own payment", async () => {
    const invoiceId = await invoiceOf(students[3]!);
    const key = randomUUID();
    const payment = { amount: "2.00", paymentMethod: "cash" };
    const mine = await payKeyed(invoiceId, key, payment, "front_desk");
    const theirs = await payKeyed(invoiceId, key, payment, "finance_staff");
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(await recorded(invoiceId)).toEqual({ payments: 3, receipts: 3, paid: "5.00" });
  });

  it("the other money areas too: a suspension (its credit note) sent 10 times at once with one key is made once", async () => {
    const [e] = await enrolmentsWithLessonsAhead(server, 1);
    const body = { type: "suspension", studentId: e!.studentId, classId: e!.id, startDate: e!.lessons[0]!.date, endDate: e!.lessons[1]!.date, reason: "Overseas trip" };
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => server.app.inject({ method: "POST", url: "/api/v2/credit-notes", headers: { ...bearer(token.front_desk!), "idempotency-key": key }, payload: body })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    const made = (
      await server.db.query<{ suspensions: number; creditNotes: number }>(
        `select (select count(*)::int from suspensions where "studentId" = $1 and "classId" = $2) as suspensions,
                (select count(*)::int from credit_notes where "suspensionId" = $3) as "creditNotes"`,
        [e!.studentId, e!.id, results[0]!.json().data.suspensionId],
      )
    ).rows[0];
    expect(made).toEqual({ suspensions: 1, creditNotes: 1 });
  });

  it("a malformed key is refused (400) with nothing written", async () => {
    const invoiceId = await invoiceOf(students[4]!);
    for (const key of ["", "k".repeat(256)]) {
      const bad = await payKeyed(invoiceId, key, { amount: "4.00", paymentMethod: "cash" });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ success: false, message: IDEMPOTENCY_MESSAGES.badKey });
    }
    expect(await recorded(invoiceId)).toEqual({ payments: 1, receipts: 1, paid: "1.00" });
  });
});
