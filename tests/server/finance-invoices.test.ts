/**
 * Money received (issue 15, FINANCE.md §4 "Invoice, payments, receipt" and "Deposit", §5, §6): the invoice
 * of an issued PA, payments each with a receipt (RC number), partial → paid → overpaid with the PA
 * following, payment by credit note, voiding a receipt and an invoice, concurrent payments, a crash
 * half-way, the receipt paper/PDF, and the identities the reports rely on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { issuedPa, pickClasses, studentsOf, type ClassPick } from "../support/finance.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { reconcile } from "../../server/finance/reconcile.ts";

describe.each(databaseLanes())("invoices, payments and receipts [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let classes: ClassPick[];
  let students: string[];
  const year = Number(todayInSingapore().slice(0, 4));

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "intern", "finance_staff", "finance_manager", "hr"]) token[role] = (await signIn(server.app, role)).accessToken;
    classes = await pickClasses(server);
    students = await studentsOf(server, classes[0]!.companyId, 3);
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const cents = (v: string) => numericToCents(v)!;
  const pay = (paymentAdviceId: string, payment: Record<string, unknown>, role = "front_desk") => api(server.app, "POST", "/finances/invoices", token[role], { paymentAdviceId, payment });
  const payInvoice = (invoiceId: string, payment: Record<string, unknown>, role = "front_desk") => api(server.app, "POST", `/finances/invoices/${invoiceId}/payments`, token[role], payment);
  const paStatus = async (id: string) => (await one<{ s: string }>(`select "paymentStatus" as s from payment_advices where id = $1`, [id])).s;
  const receiptCounter = async () => (await one<{ n: number } | undefined>(`select "lastNumber" as n from document_counters where "companyId" = $1 and year = $2 and "documentType" = 'receipt'`, [classes[0]!.companyId, year]))?.n ?? 0;

  it("a part payment in cash, the rest by NETS, then too much: partial_payment → paid → overpaid, the PA follows, each with its receipt", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, students[0]!);
    const total = cents(pa.summary.total);
    expect(total).toBeGreaterThan(10000);

    const first = await pay(pa.id, { amount: "100.00", paymentMethod: "cash", referenceNo: "counter 1" });
    expect(first.statusCode, first.body).toBe(201);
    const { invoice, receipt } = first.json().data;
    expect(invoice).toMatchObject({ invoiceStatus: "partial_payment", paidAmount: "100.00", total: centsToNumeric(total), paymentAdviceId: pa.id });
    expect(invoice.name).toMatch(new RegExp(`^INV-BME-${year}-\\d{5}$`));
    expect(receipt.name).toMatch(new RegExp(`^RC-BME-${year}-\\d{5}$`));
    expect(await paStatus(pa.id)).toBe("unpaid");

    // a second POST for the same PA pays on the same invoice (one invoice per PA)
    const rest = await pay(pa.id, { amount: centsToNumeric(total - 10000), paymentMethod: "nets" });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().data.invoice).toMatchObject({ id: invoice.id, invoiceStatus: "paid", paidAmount: centsToNumeric(total) });
    expect(Number(rest.json().data.receipt.name.slice(-5))).toBe(Number(receipt.name.slice(-5)) + 1);
    expect(await paStatus(pa.id)).toBe("paid");

    const extra = await payInvoice(invoice.id, { amount: "5.00", paymentMethod: "credit_card", cardType: "visa" });
    expect(extra.statusCode, extra.body).toBe(201);
    expect(extra.json().data.invoice.invoiceStatus).toBe("overpaid");
    expect(await paStatus(pa.id)).toBe("overpaid");

    const detail = (await api(server.app, "GET", `/finances/invoices/${invoice.id}`, token.intern)).json().data;
    expect(detail.payments.map((p: { paymentMethod: string; amount: string }) => [p.paymentMethod, p.amount])).toEqual([["cash", "100.00"], ["nets", centsToNumeric(total - 10000)], ["credit_card", "5.00"]]);
    expect(detail).toMatchObject({ balanceDue: "0.00", overpaid: "5.00" });
    const logs = (await server.db.query<{ s: string }>(`select "valueAfter"->'paymentAdvice'->>'paymentStatus' as s from payment_advice_logs where "paymentAdviceId" = $1 and type = 'change_status' order by "createdAt"`, [pa.id])).rows.map((r) => r.s);
    expect(logs).toEqual(["unpaid", "paid", "overpaid"]);
  });

  it("bad input and missing rights are refused with nothing written", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, students[1]!);
    const before = await receiptCounter();
    const bad = await pay(pa.id, { amount: "0", paymentMethod: "bitcoin" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ "payment.amount": "The amount must be more than S$0.00.", "payment.paymentMethod": "Please select the payment method." });
    const card = await pay(pa.id, { amount: "10.00", paymentMethod: "credit_card" });
    expect(card.json().errors).toMatchObject({ "payment.cardType": "Please select the card type." });
    expect((await pay(pa.id, { amount: "10.00", paymentMethod: "cash" }, "intern")).statusCode).toBe(403); // intern: no payment right (FINANCE.md §5)
    expect((await pay(pa.id, { amount: "10.00", paymentMethod: "cash" }, "hr")).statusCode).toBe(403); // hr: not a PA role
    const draft = await api(server.app, "POST", "/finances/payment-advices/init", token.front_desk, { studentId: students[1], companyId: classes[0]!.companyId });
    const onDraft = await pay(draft.json().data.id, { amount: "10.00", paymentMethod: "cash" });
    expect(onDraft.statusCode).toBe(400);
    expect(onDraft.json().message).toBe("Only an issued payment advice (unpaid, paid or overpaid) can be invoiced.");
    expect(await receiptCounter()).toBe(before);
    expect((await one<{ n: number }>(`select count(*)::int as n from invoices where "paymentAdviceId" = any($1::uuid[])`, [[pa.id, draft.json().data.id]])).n).toBe(0);
  });

  it("a payment by credit note uses what is left of an issued credit note of the student; it is marked used when nothing is left", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, students[2]!);
    // an issued credit note of S$50.00 for the student (written as trusted server code)
    const cn = await one<{ id: string }>(
      `insert into credit_notes (name, type, "creditNoteStatus", summary, "studentId", "companyId") values ('CN-TEST-1', 'overpaid', 'issued', '{"total": "50.00"}', $1, $2) returning id`,
      [students[2], classes[0]!.companyId],
    );
    const other = await one<{ id: string }>(
      `insert into credit_notes (name, type, "creditNoteStatus", summary, "studentId", "companyId") values ('CN-TEST-2', 'overpaid', 'issued', '{"total": "50.00"}', $1, $2) returning id`,
      [students[0], classes[0]!.companyId],
    );
    expect((await pay(pa.id, { amount: "10.00", paymentMethod: "credit_note", creditNoteId: other.id })).json().message).toBe("This credit note is not an issued credit note of the student.");
    const part = await pay(pa.id, { amount: "30.00", paymentMethod: "credit_note", creditNoteId: cn.id });
    expect(part.statusCode, part.body).toBe(201);
    expect(await one(`select "creditNoteStatus", "usedAmount"::text as used from credit_notes where id = $1`, [cn.id])).toEqual({ creditNoteStatus: "issued", used: "30.00" });
    const tooMuch = await pay(pa.id, { amount: "20.01", paymentMethod: "credit_note", creditNoteId: cn.id });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe("The credit note has only S$20.00 left.");
    const rest = await pay(pa.id, { amount: "20.00", paymentMethod: "credit_note", creditNoteId: cn.id });
    expect(rest.statusCode).toBe(201);
    expect(await one(`select "creditNoteStatus", "usedAmount"::text as used from credit_notes where id = $1`, [cn.id])).toEqual({ creditNoteStatus: "used", used: "50.00" });
    expect(rest.json().data.invoice).toMatchObject({ invoiceStatus: "partial_payment", paidAmount: "50.00" });

    // voiding the receipt gives the credit note its money back
    const voided = await api(server.app, "POST", `/finances/receipts/${rest.json().data.receipt.id}/void`, token.finance_staff, { reason: "wrong credit note" });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await one(`select "creditNoteStatus", "usedAmount"::text as used from credit_notes where id = $1`, [cn.id])).toEqual({ creditNoteStatus: "issued", used: "30.00" });
    const logs = (await server.db.query(`select "valueAfter"->>'creditNoteStatus' as s from credit_note_logs where "creditNoteId" = $1 order by "createdAt"`, [cn.id])).rows;
    expect(logs).toEqual([{ s: "issued" }, { s: "used" }, { s: "issued" }]);
  });

  it("voiding: a receipt by finance with a reason (the PA and its deposit go back); an invoice only once it has no payments", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[1]!, students[0]!, { deposits: [{ name: "Deposit", amount: "100.00" }] });
    const total = cents(pa.summary.total);
    const paid = await pay(pa.id, { amount: centsToNumeric(total), paymentMethod: "cash" });
    expect(paid.json().data.invoice.invoiceStatus).toBe("paid");
    const { invoice, receipt } = paid.json().data;
    expect(await one(`select "depositStatus", "receiptId" from deposits where "paymentAdviceId" = $1`, [pa.id])).toEqual({ depositStatus: "paid", receiptId: receipt.id });

    expect((await api(server.app, "POST", `/finances/invoices/${invoice.id}/void`, token.finance_staff, { reason: "wrong PA" })).json().message).toBe(
      "This invoice has payments that are not voided: void them first.",
    );
    expect((await api(server.app, "POST", `/finances/receipts/${receipt.id}/void`, token.front_desk, { reason: "typo" })).statusCode).toBe(403);
    const noReason = await api(server.app, "POST", `/finances/receipts/${receipt.id}/void`, token.finance_staff, { reason: " " });
    expect(noReason.json().errors).toEqual({ reason: "Please enter the reason." });

    const voided = await api(server.app, "POST", `/finances/receipts/${receipt.id}/void`, token.finance_staff, { reason: "paid twice at the counter" });
    expect(voided.json().data).toMatchObject({ invoiceStatus: "active", paidAmount: "0.00" });
    expect(await paStatus(pa.id)).toBe("unpaid");
    expect(await one(`select status, "voidReason" from receipts where id = $1`, [receipt.id])).toEqual({ status: "voided", voidReason: "paid twice at the counter" });
    expect(await one(`select "depositStatus" from deposits where "paymentAdviceId" = $1`, [pa.id])).toEqual({ depositStatus: "issued" });
    expect((await api(server.app, "POST", `/finances/receipts/${receipt.id}/void`, token.finance_staff, { reason: "again" })).json().message).toBe("This receipt is already voided.");

    const voidInvoice = await api(server.app, "POST", `/finances/invoices/${invoice.id}/void`, token.finance_manager, { reason: "issued on the wrong PA" });
    expect(voidInvoice.json().data).toMatchObject({ invoiceStatus: "voided", reasons: "issued on the wrong PA" });
    expect((await payInvoice(invoice.id, { amount: "1.00", paymentMethod: "cash" })).json().message).toBe("This invoice is voided.");
    // the PA can be invoiced again
    const again = await pay(pa.id, { amount: "1.00", paymentMethod: "cash" });
    expect(again.json().data.invoice.id).not.toBe(invoice.id);
  });

  it("20 concurrent payments on one invoice: none lost, the balance exact, receipts numbered without gaps", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, students[1]!);
    const first = await pay(pa.id, { amount: "1.00", paymentMethod: "cash" });
    const invoiceId = first.json().data.invoice.id;
    const before = await receiptCounter();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => payInvoice(invoiceId, { amount: `${i + 1}.00`, paymentMethod: i % 2 ? "nets" : "cash" }, i % 2 ? "front_desk" : "finance_staff")));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const numbers = results.map((r) => Number(r.json().data.receipt.name.slice(-5))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => before + 1 + i));
    const expected = 100 + Array.from({ length: 20 }, (_, i) => (i + 1) * 100).reduce((a, b) => a + b, 0);
    expect(await one(`select "paidAmount"::text as paid from invoices where id = $1`, [invoiceId])).toEqual({ paid: centsToNumeric(expected) });
  });

  it("a crash between the payment and its receipt leaves neither, and uses no receipt number", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, students[2]!);
    const first = await pay(pa.id, { amount: "1.00", paymentMethod: "cash" });
    const invoiceId = first.json().data.invoice.id;
    const before = await receiptCounter();
    await server.db.exec(`create function crash_on_payment() returns trigger language plpgsql as $$ begin raise exception 'crash'; end $$;
      create trigger crash_on_payment before insert on invoice_payments for each row execute function crash_on_payment();`);
    try {
      expect((await payInvoice(invoiceId, { amount: "2.00", paymentMethod: "cash" })).statusCode).toBe(500);
    } finally {
      await server.db.exec(`drop trigger crash_on_payment on invoice_payments; drop function crash_on_payment();`);
    }
    expect(await receiptCounter()).toBe(before);
    expect(await one(`select count(*)::int as n from receipts where "invoiceId" = $1`, [invoiceId])).toEqual({ n: 1 });
    expect(await one(`select "paidAmount"::text as paid from invoices where id = $1`, [invoiceId])).toEqual({ paid: "1.00" });
  });

  it("the receipt paper and its PDF", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[0]!, students[0]!);
    const paid = (await pay(pa.id, { amount: "12.34", paymentMethod: "credit_card", cardType: "master", referenceNo: "APPR 778" })).json().data;
    const paper = await api(server.app, "GET", `/finances/receipts/${paid.receipt.id}/paper`, token.intern);
    expect(paper.json().data).toMatchObject({ receipt: { name: paid.receipt.name, amount: "12.34", paymentMethod: "credit_card", cardType: "master", referenceNo: "APPR 778" }, invoice: { name: paid.invoice.name } });
    const pdf = await server.app.inject({ method: "GET", url: `/api/v2/finances/receipts/${paid.receipt.id}/paper?format=pdf`, headers: { authorization: `Bearer ${token.intern}` } });
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await api(server.app, "GET", `/finances/receipts/${paid.receipt.id}/paper`, token.hr)).statusCode).toBe(403);
  });

  it("an overpaid invoice: finance makes an overpaid credit note from the receipt (the excess net of GST: its total is the cash overpaid), awaiting approval, once", async () => {
    const pa = await issuedPa(server, token.front_desk!, classes[1]!, students[2]!);
    const total = cents(pa.summary.total);
    const paid = (await pay(pa.id, { amount: centsToNumeric(total + 1050), paymentMethod: "cheque", referenceNo: "CHQ 1" })).json().data;
    expect(paid.invoice.invoiceStatus).toBe("overpaid");
    const make = (role: string, body: Record<string, unknown> = { type: "overpaid", receiptId: paid.receipt.id }) => api(server.app, "POST", "/credit-notes", token[role], body);
    expect((await make("front_desk")).statusCode).toBe(403);
    // a suspension credit note is made from a suspension: its student, class and period (issue 16)
    expect((await make("finance_staff", { type: "suspension", receiptId: paid.receipt.id })).json().errors).toMatchObject({ studentId: "Please select student!", classId: "Please select class!" });
    const made = await make("finance_staff");
    expect(made.statusCode, made.body).toBe(201);
    // 10.50 overpaid at 9% GST: 10.50 ÷ 1.09 = 9.63, GST 0.87 (0.8667 → 0.87), total 10.50
    expect(made.json().data).toMatchObject({ creditNoteStatus: "awaiting_finance_approval", summary: { subTotal: "9.63", gst: "0.87", total: "10.50" } });
    const row = await one(`select name, type, "creditNoteStatus", "studentId", f."overpaidAmount"::text as amount, f."receiptId" from credit_notes c join credit_note_fees f on f.id = c."creditNoteFeeId" where c.id = $1`, [made.json().data.id]);
    expect(row).toEqual({ name: null, type: "overpaid", creditNoteStatus: "awaiting_finance_approval", studentId: students[2], amount: "9.63", receiptId: paid.receipt.id });
    expect((await one<{ n: number }>(`select count(*)::int as n from credit_note_logs where "creditNoteId" = $1 and type = 'create'`, [made.json().data.id])).n).toBe(1);
    expect((await make("finance_manager")).json().message).toBe("An overpaid credit note was already made from this invoice.");
    const notOver = await issuedPa(server, token.front_desk!, classes[0]!, students[2]!);
    const exact = (await pay(notOver.id, { amount: notOver.summary.total, paymentMethod: "cash" })).json().data;
    expect((await make("finance_staff", { type: "overpaid", receiptId: exact.receipt.id })).json().message).toBe("This receipt's invoice is not overpaid.");
  });

  it("a payment by an approved credit note reconciles: its receipt's ledger lines spend the student's credit (found by npm run simulate)", async () => {
    const over = await issuedPa(server, token.front_desk!, classes[1]!, students[1]!);
    const paid = (await pay(over.id, { amount: centsToNumeric(cents(over.summary.total) + 2000), paymentMethod: "cash" })).json().data;
    const made = (await api(server.app, "POST", "/credit-notes", token.finance_staff, { type: "overpaid", receiptId: paid.receipt.id })).json().data;
    const current = (await api(server.app, "GET", `/credit-notes/${made.id}`, token.finance_manager)).json().data;
    const approved = await api(server.app, "PATCH", `/credit-notes/change-status-credit-note/${made.id}`, token.finance_manager, { status: "issued", updatedAt: current.updatedAt });
    expect(approved.statusCode, approved.body).toBe(200);
    const next = await issuedPa(server, token.front_desk!, classes[0]!, students[1]!);
    const byCredit = await pay(next.id, { amount: "20.00", paymentMethod: "credit_note", creditNoteId: made.id });
    expect(byCredit.statusCode, byCredit.body).toBe(201);
    const receipt = byCredit.json().data.receipt.name as string;
    const differences = (await reconcile(server.db)).filter((d) => d.subject === receipt || d.subject === approved.json().data.name);
    expect(differences).toEqual([]);
  });

  it("a receipt whose PA's deposit was deducted on a later PA is not voided: the deposit would be spent but never collected (found by npm run simulate)", async () => {
    const first = await issuedPa(server, token.front_desk!, classes[1]!, students[0]!, { deposits: [{ name: "Deposit", amount: "50.00" }] });
    const paid = (await pay(first.id, { amount: first.summary.total, paymentMethod: "cash" })).json().data;
    const deposit = await one<{ id: string }>(`select id from deposits where "paymentAdviceId" = $1`, [first.id]);
    await issuedPa(server, token.front_desk!, classes[0]!, students[0]!, { deductedDeposit: [{ name: "Deposit", depositId: deposit.id }], isDeductedDeposit: true });
    const voided = await api(server.app, "POST", `/finances/receipts/${paid.receipt.id}/void`, token.finance_staff, { reason: "wrong amount" });
    expect(voided.statusCode, voided.body).toBe(409);
    expect(voided.json().message).toBe("A deposit collected on this payment advice was already used or refunded; its payments cannot be voided.");
    expect(await one(`select "depositStatus" as s from deposits where id = $1`, [deposit.id])).toEqual({ s: "used" });
    expect(await paStatus(first.id)).toBe("paid");
  });

  it("identities (FINANCE.md §6): each invoice's paid amount is the sum of its non-voided payments and its PA's status agrees", async () => {
    const { rows } = await server.db.query<{ total: string; paid: string; sum: string; status: string; pa: string }>(
      `select i.total::text as total, i."paidAmount"::text as paid, i."invoiceStatus" as status, pa."paymentStatus" as pa,
         (select coalesce(sum(amount), 0)::text from invoice_payments p where p."invoiceId" = i.id and p.status <> 'deleted' and p."transactionStatus" = 'success') as sum
       from invoices i join payment_advices pa on pa.id = i."paymentAdviceId" where i."invoiceStatus" <> 'voided' and i."createdBy" is not null`,
    );
    expect(rows.length).toBeGreaterThan(4);
    for (const r of rows) {
      expect(cents(r.paid)).toBe(cents(r.sum));
      const [t, p] = [cents(r.total), cents(r.paid)];
      expect(r.pa).toBe(p <= 0 || p < t ? "unpaid" : p === t ? "paid" : "overpaid");
    }
  });
});
