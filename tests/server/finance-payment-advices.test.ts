/**
 * The payment advice calls (issue 14 §4, FINANCE.md §1–5): init a draft, save, issue with a gap-free
 * number, edit unpaid, void unpaid and paid (overpaid credit note), soft delete, paper and PDF, e-mail
 * through the outbox; every figure recomputed by the server; stale edits, missing rights and bad input
 * refused with nothing written; a crash half-way through issue leaves no number used.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { numericToCents } from "../../src/domain/money.ts";
import { CREDIT_NOTE_MESSAGES } from "../../src/domain/finance/creditNote.ts";

interface ClassPick { id: string; companyId: string; branchId: string; termId: string; start: string; programId: string }

describe.each(databaseLanes())("payment advice calls [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let classes: ClassPick[];
  let studentId: string;
  let shortName: string;
  const today = todayInSingapore();
  const year = Number(today.slice(0, 4));
  const plusDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "intern", "ops_manager", "finance_staff", "finance_manager", "hr"]) token[role] = (await signIn(server.app, role)).accessToken;
    // Open regular classes of one company, one per programme, each with a term holding active lessons.
    const { rows } = await server.db.query<ClassPick>(
      `select distinct on (c."programId") c.id, c."companyId", c."branchId", c."programId", l."termId" as "termId", min(l.date)::text as start
       from classes c join lessons l on l."classId" = c.id and l."lessonStatus" = 'active' and l.status = 'active' and l."termId" is not null
       where c."classType" = 'regular' and c."classStatus" = 'open' and c.status = 'active'
         and c."companyId" = (select id from companies where "shortName" = 'BME')
       group by c.id, l."termId" order by c."programId", count(*) desc, c.id`,
    );
    classes = rows;
    expect(classes.length).toBeGreaterThanOrEqual(2);
    studentId = (await server.db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' and "companyId" = $1 order by username limit 1`, [classes[0]!.companyId])).rows[0]!.id;
    shortName = "BME";
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const entry = (c: ClassPick, over: Record<string, unknown> = {}) => ({
    id: c.id, lessonStartDate: c.start, termIds: [c.termId], discountIds: [], quantityAdditionalLesson: 0, additionalDiscount: 0, booterClassIds: [],
    otherPayments: [], deductions: [], deposits: [], deductedDeposit: [], isDeductedDeposit: false, ...over,
  });
  const fields = (over: Record<string, unknown> = {}) => ({
    studentId, companyId: classes[0]!.companyId, branchId: classes[0]!.branchId, issueDate: today, dueDate: plusDays(14), qrExpiryDate: plusDays(30), hasExpiryDate: true,
    isRegistrationFee: false, gst: 9, remarks: null, classInformations: [entry(classes[0]!)], ...over,
  });
  /** Lessons × price straight from the tables: the expected class fee of one entry. */
  const expectedClassFee = async (c: ClassPick) => {
    const r = await one<{ n: number; price: string }>(
      `select (select count(*)::int from lessons where "classId" = $1 and "termId" = $2 and date >= $3::date and "lessonStatus" = 'active' and status = 'active') as n,
         (select p."pricePerLesson"::text from classes k join academic_program_type_pricings p on p."academicCalendarId" = k."academicCalendarId" and p."programTypeId" = k."programTypeId" and p."companyId" = k."companyId" and p.status <> 'deleted' where k.id = $1) as price`,
      [c.id, c.termId, c.start],
    );
    return r.n * numericToCents(r.price)!;
  };
  const init = async (over: Record<string, unknown> = {}, role = "front_desk") => {
    const res = await api(server.app, "POST", "/finances/payment-advices/init", token[role], fields(over));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const put = (id: string, body: Record<string, unknown>, role = "front_desk") => api(server.app, "PUT", `/finances/payment-advices/${id}`, token[role], body);
  const counter = async () => (await server.db.query<{ n: number }>(`select "lastNumber" as n from document_counters where "companyId" = $1 and year = $2 and "documentType" = 'payment_advice'`, [classes[0]!.companyId, year])).rows[0]?.n ?? 0;
  const logs = async (id: string) => (await server.db.query<{ type: string; valueBefore: any; valueAfter: any; createdBy: string }>(`select type, "valueBefore", "valueAfter", "createdBy" from payment_advice_logs where "paymentAdviceId" = $1 order by "createdAt", type`, [id])).rows;

  it("init creates a priced draft without a number, with its create log; figures sent by the browser are ignored", async () => {
    const pa = await init({ paymentSummaryStatic: { totalPayable: "1.00" }, paymentStatus: "paid", name: "PA-FAKE" });
    expect(pa).toMatchObject({ name: null, paymentStatus: "draft", displayStatus: "draft", gst: 9 });
    const fee = await expectedClassFee(classes[0]!);
    expect(fee).toBeGreaterThan(0);
    const s = pa.paymentSummaryStatic;
    expect(numericToCents(s.classFee)).toBe(fee);
    expect(numericToCents(s.gst)).toBe(Math.floor((fee * 9) / 100 + 0.5));
    expect(numericToCents(s.totalPayable)).toBe(fee + numericToCents(s.gst)!);
    expect(pa.classInformations[0].termInformations[0]).toMatchObject({ id: classes[0]!.termId });
    const l = await logs(pa.id);
    expect(l.map((x) => x.type)).toEqual(["create"]);
    expect(l[0]!.valueAfter.paymentAdvice.paymentStatus).toBe("draft");
  });

  it("issue assigns the next gap-free number and logs the update and the status change", async () => {
    const pa = await init();
    const before = await counter();
    const res = await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    const issued = res.json().data;
    expect(issued.paymentStatus).toBe("unpaid");
    expect(issued.name).toBe(`PA-${shortName}-${year}-${String(before + 1).padStart(5, "0")}`);
    expect(issued.qrReferenceNo).toBe(issued.name.replace(/-/g, ""));
    expect(await counter()).toBe(before + 1);
    const types = (await logs(pa.id)).map((x) => x.type);
    expect(types).toContain("update");
    expect(types).toContain("change_status");
    const change = (await logs(pa.id)).find((x) => x.type === "change_status")!;
    expect([change.valueBefore.paymentAdvice.paymentStatus, change.valueAfter.paymentAdvice.paymentStatus]).toEqual(["draft", "unpaid"]);
  });

  it("a two-class PA with a mid-term start, a % discount, a deduction, deposits and the waiver period is priced by the server", async () => {
    const [a, b] = classes as [ClassPick, ClassPick];
    const { rows: lessons } = await server.db.query<{ date: string }>(`select date::text as date from lessons where "classId" = $1 and "termId" = $2 and "lessonStatus" = 'active' and status = 'active' order by date`, [b.id, b.termId]);
    const mid = lessons[Math.floor(lessons.length / 2)]!.date;
    const discount = await one<{ id: string; amount: string }>(
      `select id, amount::text as amount from discounts where "companyId" = $1 and unit = 'percent' and status = 'active' and "startDate" <= $2::date and "endDate" >= $2::date order by "order" limit 1`,
      [a.companyId, today],
    );
    const waive = await one<{ value: { startDate: string; endDate: string } }>(`select value from system_settings where key = 'waivePeriod' and status = 'active' limit 1`);
    await server.db.query(`update system_settings set value = $1::jsonb where key = 'waivePeriod'`, [JSON.stringify({ startDate: plusDays(-1), endDate: plusDays(1) })]);
    try {
      const pa = await init({
        isRegistrationFee: true,
        gst: 8,
        classInformations: [
          entry(a, { discountIds: [discount.id], deductions: [{ name: "Sibling goodwill", amount: "10.00" }], deposits: [{ name: "Deposit", amount: 200 }] }),
          entry(b, { lessonStartDate: mid }),
        ],
      });
      const feeA = await expectedClassFee(a);
      const feeB = await expectedClassFee({ ...b, start: mid });
      const pct = numericToCents(discount.amount)!; // hundredths of a percent
      const discountA = Math.floor((feeA * pct) / 10000 + 0.5);
      const s = pa.paymentSummaryStatic;
      expect(pa.isRegistrationFee).toBe(false); // forced off inside the waiver period
      expect(numericToCents(s.registrationFee)).toBe(0);
      expect(numericToCents(pa.classInformations[0].responses.totalDiscount)).toBe(discountA);
      expect(numericToCents(s.classFee)).toBe(feeA - discountA + feeB);
      const before = feeA - discountA + feeB - 1000;
      expect(numericToCents(s.totalBeforeGst)).toBe(before);
      expect(numericToCents(s.gst)).toBe(Math.floor((before * 8) / 100 + 0.5));
      expect(numericToCents(s.deposit)).toBe(20000);
      expect(numericToCents(s.totalPayable)).toBe(before + numericToCents(s.gst)! + 20000);
      // issuing creates the deposit document
      const res = await put(pa.id, { ...fields({ isRegistrationFee: true, gst: 8, classInformations: pa.classInformations }), action: "issue", updatedAt: pa.updatedAt });
      expect(res.statusCode, res.body).toBe(200);
      const dep = await one<{ name: string; amount: string; depositStatus: string }>(`select name, amount::text as amount, "depositStatus" from deposits where "paymentAdviceId" = $1`, [pa.id]);
      expect(dep).toMatchObject({ amount: "200.00", depositStatus: "issued" });
      expect(dep.name).toMatch(new RegExp(`^DEP-${shortName}-${year}-\\d{5}$`));
    } finally {
      await server.db.query(`update system_settings set value = $1::jsonb where key = 'waivePeriod'`, [JSON.stringify(waive.value)]);
    }
  });

  it("a stale edit is refused with the spec's message and writes nothing", async () => {
    const pa = await init();
    const first = await put(pa.id, { ...fields({ remarks: "first" }), action: "save", updatedAt: pa.updatedAt });
    expect(first.statusCode, first.body).toBe(200);
    const logCount = (await logs(pa.id)).length;
    const stale = await put(pa.id, { ...fields({ remarks: "second" }), action: "save", updatedAt: pa.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ success: false, message: "This record was changed by someone else. Reload to see the latest." });
    const row = await one<{ remarks: string }>(`select remarks from payment_advices where id = $1`, [pa.id]);
    expect(row.remarks).toBe("first");
    expect((await logs(pa.id)).length).toBe(logCount);
  });

  it("issue without the required fields is refused with one message per field and nothing written", async () => {
    const pa = await init({ issueDate: null, dueDate: null, branchId: null });
    const before = await counter();
    const res = await put(pa.id, { ...fields({ issueDate: null, dueDate: null, branchId: null, classInformations: [entry(classes[0]!, { lessonStartDate: null, deductions: [{ name: "", amount: "" }] })] }), action: "issue", updatedAt: pa.updatedAt });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json();
    expect(errors).toMatchObject({ "classInformations.0.deductions.0.name": "Name is required.", "classInformations.0.deductions.0.amount": "Amount is required." });
    const res2 = await put(pa.id, { ...fields({ issueDate: null, dueDate: null, branchId: null, classInformations: [entry(classes[0]!, { lessonStartDate: null })] }), action: "issue", updatedAt: pa.updatedAt });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().errors).toMatchObject({ issueDate: "Please select issue date!", dueDate: "Please select issue date!", branchId: "Please select branch!", "classInformations.0.lessonStartDate": "Please input lesson start date!" });
    expect(await counter()).toBe(before);
    expect((await one<{ paymentStatus: string }>(`select "paymentStatus" from payment_advices where id = $1`, [pa.id])).paymentStatus).toBe("draft");
    const bad = await api(server.app, "POST", "/finances/payment-advices/init", token.front_desk, { studentId: studentId });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.companyId).toBe("Please select company!");
  });

  it("the same programme twice, a negative total and a QR expiry of today are refused", async () => {
    const pa = await init();
    const twice = await put(pa.id, { ...fields({ classInformations: [entry(classes[0]!), entry(classes[0]!)] }), action: "save", updatedAt: pa.updatedAt });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors["classInformations.1.id"]).toBe("Class's programme is already existed!");
    const negative = await put(pa.id, { ...fields({ classInformations: [entry(classes[0]!, { deductions: [{ name: "Too much", amount: "999999.00" }] })] }), action: "save", updatedAt: pa.updatedAt });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toBe("The total payable cannot be negative.");
    const qr = await put(pa.id, { ...fields({ qrExpiryDate: today }), action: "issue", updatedAt: pa.updatedAt });
    expect(qr.statusCode).toBe(400);
    expect(qr.json().errors.qrExpiryDate).toBe("The QR expiry date must be after today.");
  });

  it("an unpaid PA without payments is edited (logged) and keeps its number; its company cannot change", async () => {
    const pa = await init();
    const issued = (await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt })).json().data;
    const edit = await put(pa.id, { ...fields({ gst: 0, remarks: "corrected" }), action: "save", updatedAt: issued.updatedAt });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = edit.json().data;
    expect(edited).toMatchObject({ name: issued.name, paymentStatus: "unpaid", gst: 0, remarks: "corrected" });
    expect(edited.paymentSummaryStatic.gst).toBe("0.00");
    expect((await logs(pa.id)).filter((l) => l.type === "update")).toHaveLength(2);
    const other = await one<{ id: string }>(`select id from companies where "shortName" <> 'BME' limit 1`);
    const move = await put(pa.id, { ...fields({ companyId: other.id, branchId: null }), action: "save", updatedAt: edited.updatedAt });
    expect(move.statusCode).toBe(400);
  });

  it("action rights: intern may save a draft but not issue; hr reaches no PA call", async () => {
    const pa = await init({}, "intern");
    const issue = await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt }, "intern");
    expect(issue.statusCode).toBe(403);
    expect((await one<{ paymentStatus: string }>(`select "paymentStatus" from payment_advices where id = $1`, [pa.id])).paymentStatus).toBe("draft");
    const save = await put(pa.id, { ...fields({ remarks: "by intern" }), action: "save", updatedAt: pa.updatedAt }, "intern");
    expect(save.statusCode, save.body).toBe(200);
    expect((await api(server.app, "POST", "/finances/payment-advices/init", token.hr, fields())).statusCode).toBe(403);
  });

  it("an admin's policy change takes the issue right away from front_desk at once", async () => {
    const pa = await init();
    const adminToken = (await signIn(server.app, "admin")).accessToken;
    const current = (await api(server.app, "GET", "/access/policy", adminToken)).json().data;
    const lines = current.policy.split("\n");
    const policy = lines.filter((l: string) => l.trim() !== "p, front_desk, api:/actions/payment-advice/issue, POST").join("\n");
    expect(policy.length).toBeLessThan(current.policy.length);
    expect((await api(server.app, "PUT", "/access/policy", adminToken, { policy, version: current.version })).statusCode).toBe(200);
    expect((await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt })).statusCode).toBe(403);
    const back = (await api(server.app, "GET", "/access/policy", adminToken)).json().data;
    expect((await api(server.app, "PUT", "/access/policy", adminToken, { policy: `${back.policy.trim()}\np, front_desk, api:/actions/payment-advice/issue, POST\n`, version: back.version })).statusCode).toBe(200);
    expect((await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt })).statusCode).toBe(200);
  });

  it("void unpaid needs a reason and the right (ops_manager yes, front_desk no); the PA and its invoice are voided", async () => {
    const pa = await init();
    const issued = (await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt })).json().data;
    const noReason = await api(server.app, "POST", "/finances/payment-advices/void-unpaid", token.ops_manager, { id: pa.id, reason: " ", updatedAt: issued.updatedAt });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors.reason).toBe("Please fill in reason!");
    const fd = await api(server.app, "POST", "/finances/payment-advices/void-unpaid", token.front_desk, { id: pa.id, reason: "Wrong class", updatedAt: issued.updatedAt });
    expect(fd.statusCode).toBe(403);
    const ok = await api(server.app, "POST", "/finances/payment-advices/void-unpaid", token.ops_manager, { id: pa.id, reason: "Wrong class", updatedAt: issued.updatedAt });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.paymentStatus).toBe("voided");
    const last = (await logs(pa.id)).filter((l) => l.type === "change_status").at(-1)!;
    expect(last.valueAfter.paymentAdvice).toMatchObject({ paymentStatus: "voided", reason: "Wrong class" });
    const again = await api(server.app, "POST", "/finances/payment-advices/void-unpaid", token.ops_manager, { id: pa.id, reason: "Again", updatedAt: ok.json().data.updatedAt });
    expect(again.statusCode).toBe(400);
  });

  it("void paid (finance_manager only) voids invoice and receipts and issues an overpaid credit note for the money received", async () => {
    const paid = await one<{ id: string; companyId: string; received: string; updatedAt: string }>(
      `select pa.id, pa."companyId", to_json(pa."updatedAt") #>> '{}' as "updatedAt",
         (select sum(ip.amount)::text from invoice_payments ip join invoices i on i.id = ip."invoiceId" where i."paymentAdviceId" = pa.id and ip.status <> 'deleted') as received
       from payment_advices pa where pa."paymentStatus" = 'paid' and pa.status = 'active'
         and not exists (select 1 from deposits d where d."paymentAdviceId" = pa.id and d."depositStatus" = 'used')
         and exists (select 1 from invoices i join invoice_payments ip on ip."invoiceId" = i.id where i."paymentAdviceId" = pa.id)
         -- nothing credited or refunded from it yet: the whole amount received becomes the credit note
         and not exists (select 1 from credit_notes cn left join credit_note_fees f on f.id = cn."creditNoteFeeId" join receipts r on r."paymentAdviceId" = pa.id
                         where (cn."paymentAdviceId" = pa.id or f."receiptId" = r.id) and cn."creditNoteStatus" not in ('rejected', 'voided'))
         and not exists (select 1 from refund_classes rc join receipts r on r.id = rc."receiptId" where r."paymentAdviceId" = pa.id)
       order by pa."issueDate" desc limit 1`,
    );
    const body = { id: paid.id, reason: "Billed the wrong student", updatedAt: paid.updatedAt };
    expect((await api(server.app, "PATCH", "/finances/payment-advices/void-paid-pa", token.finance_staff, body)).statusCode).toBe(403);
    const res = await api(server.app, "PATCH", "/finances/payment-advices/void-paid-pa", token.finance_manager, body);
    expect(res.statusCode, res.body).toBe(200);
    const { paymentAdvice, creditNote } = res.json().data;
    expect(paymentAdvice.paymentStatus).toBe("voided");
    expect(creditNote.total).toBe(paid.received);
    const cn = await one<{ type: string; creditNoteStatus: string; name: string; total: string }>(`select type, "creditNoteStatus", name, summary->>'total' as total from credit_notes where id = $1`, [creditNote.id]);
    expect(cn).toMatchObject({ type: "overpaid", creditNoteStatus: "issued", total: paid.received });
    expect(cn.name).toMatch(/^CN-[A-Z]+-\d{4}-\d{5}$/);
    const live = await one<{ n: number }>(
      `select (select count(*) from invoices where "paymentAdviceId" = $1 and "invoiceStatus" <> 'voided') + (select count(*) from receipts where "paymentAdviceId" = $1 and status <> 'voided')::int as n`,
      [paid.id],
    );
    expect(Number(live.n)).toBe(0);
    // the credit note holds money received: it is never voided (its credit would stay in the ledger with no document)
    const current = (await api(server.app, "GET", `/credit-notes/${creditNote.id}`, token.finance_manager)).json().data;
    expect(current.moves.map((m: { to: string }) => m.to)).not.toContain("voided");
    const voided = await api(server.app, "PATCH", `/credit-notes/change-status-credit-note/${creditNote.id}`, token.finance_manager, { status: "voided", updatedAt: current.updatedAt });
    expect(voided.statusCode).toBe(400);
    expect(voided.json().message).toBe(CREDIT_NOTE_MESSAGES.overpaidNotVoided);
    expect((await one<{ creditNoteStatus: string }>(`select "creditNoteStatus" from credit_notes where id = $1`, [creditNote.id])).creditNoteStatus).toBe("issued");
  });

  it("a draft is soft deleted; an issued PA is not", async () => {
    const pa = await init();
    const del = await api(server.app, "DELETE", `/finances/payment-advices/${pa.id}?updatedAt=${encodeURIComponent(pa.updatedAt)}`, token.intern);
    expect(del.statusCode, del.body).toBe(200);
    expect((await one<{ status: string }>(`select status from payment_advices where id = $1`, [pa.id])).status).toBe("deleted");
    const pb = await init();
    const issued = (await put(pb.id, { ...fields(), action: "issue", updatedAt: pb.updatedAt })).json().data;
    const refused = await api(server.app, "DELETE", `/finances/payment-advices/${pb.id}?updatedAt=${encodeURIComponent(issued.updatedAt)}`, token.finance_manager);
    expect(refused.statusCode).toBe(400);
  });

  it("the paper: its data with a PayNow QR code and the PA number as reference, and a real PDF", async () => {
    const pa = await init();
    await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt });
    const res = await api(server.app, "GET", `/finances/payment-advices/${pa.id}/paper`, token.intern);
    expect(res.statusCode, res.body).toBe(200);
    const paper = res.json().data;
    expect(paper.company).toMatchObject({ shortName: "BME", uen: expect.any(String), gstRefNo: expect.any(String) });
    expect(paper.qrText).toBe(paper.paymentAdvice.name);
    expect(paper.payNow).toMatchObject({ reference: paper.paymentAdvice.name, amount: paper.paymentAdvice.paymentSummaryStatic.totalPayable });
    expect(paper.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const pdf = await api(server.app, "GET", `/finances/payment-advices/${pa.id}/paper?format=pdf`, token.intern);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.rawPayload.length).toBeGreaterThan(2000);
  });

  it("unpaid PAs are e-mailed to the parents through the outbox with the paper attached; others are skipped", async () => {
    const pa = await init();
    await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt });
    const draft = await init();
    const parentEmail = (await one<{ email: string | null }>(`select p->>'email' as email from users u, jsonb_array_elements(u.parents) p where u.id = $1 order by coalesce((p->>'primaryContact')::boolean, false) desc limit 1`, [studentId])).email;
    const res = await api(server.app, "POST", "/finances/email/unpaid-pa-to-parents", token.front_desk, { paymentAdviceIds: [pa.id, draft.id] });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.skipped).toEqual([{ id: draft.id, reason: "Only unpaid payment advices are e-mailed." }]);
    expect(data.queued).toEqual([{ id: pa.id, recipient: parentEmail }]);
    const mail = await one<{ subject: string; attachment: string }>(`select subject, payload->'attachments'->0->>'contentBase64' as attachment from outbox where payload->>'paymentAdviceId' = $1`, [pa.id]);
    expect(mail.subject).toContain("Payment Advice PA-");
    expect(Buffer.from(mail.attachment, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    expect((await api(server.app, "POST", "/finances/email/unpaid-pa-to-parents", token.intern, { paymentAdviceIds: [pa.id] })).statusCode).toBe(403);
  });

  it("E-mail to Parents: a primary contact without an e-mail address → the other parent's; no address at all → skipped, naming the PA and the student", async () => {
    const pa = await init();
    const issued = (await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt })).json().data;
    const before = await one<{ parents: unknown; fullName: string }>(`select parents, "fullName" from users where id = $1`, [studentId]);
    const family = (primary: string | null, other: string | null) => [
      { firstName: "Ann", lastName: "Tan", relationship: "mother", primaryContact: true, email: primary },
      { firstName: "Ben", lastName: "Tan", relationship: "father", primaryContact: false, email: other },
    ];
    const mail = async (parents: unknown) => {
      await server.db.query(`update users set parents = $2::jsonb where id = $1`, [studentId, JSON.stringify(parents)]);
      return (await api(server.app, "POST", "/finances/email/unpaid-pa-to-parents", token.front_desk, { paymentAdviceIds: [pa.id] })).json().data;
    };
    try {
      expect((await mail(family(null, "ben.tan@example.com"))).queued).toEqual([{ id: pa.id, recipient: "ben.tan@example.com" }]);
      expect((await mail(family("ann.tan@example.com", "ben.tan@example.com"))).queued).toEqual([{ id: pa.id, recipient: "ann.tan@example.com" }]);
      expect((await mail(family(null, null))).skipped).toEqual([{ id: pa.id, reason: `${issued.name} was not e-mailed: no parent of ${before.fullName} has an e-mail address.` }]);
    } finally {
      await server.db.query(`update users set parents = $2::jsonb where id = $1`, [studentId, JSON.stringify(before.parents)]);
    }
  });

  it("a crash in the middle of issue leaves no number used and no partial PA", async () => {
    const pa = await init();
    const before = await counter();
    const logCount = (await logs(pa.id)).length;
    // Kill the transaction after the number was taken: the status-change log row fails.
    await server.db.exec(`create function crash_on_issue() returns trigger language plpgsql as $$ begin if new.type = 'change_status' then raise exception 'crash'; end if; return new; end $$;
      create trigger crash_on_issue before insert on payment_advice_logs for each row execute function crash_on_issue();`);
    try {
      const res = await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt });
      expect(res.statusCode).toBe(500);
    } finally {
      await server.db.exec(`drop trigger crash_on_issue on payment_advice_logs; drop function crash_on_issue();`);
    }
    expect(await counter()).toBe(before);
    const row = await one<{ paymentStatus: string; name: string | null; updatedAt: string }>(`select "paymentStatus", name, to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [pa.id]);
    expect(row).toMatchObject({ paymentStatus: "draft", name: null, updatedAt: pa.updatedAt });
    expect((await logs(pa.id)).length).toBe(logCount);
    const retry = await put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt });
    expect(retry.json().data.name).toBe(`PA-${shortName}-${year}-${String(before + 1).padStart(5, "0")}`);
  });

  it("50 concurrent issues get 50 consecutive numbers", async () => {
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await init());
    const before = await counter();
    const results = await Promise.all(drafts.map((pa) => put(pa.id, { ...fields(), action: "issue", updatedAt: pa.updatedAt })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const numbers = results.map((r) => Number(r.json().data.name.slice(-5))).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => before + 1 + i));
    expect(await counter()).toBe(before + 50);
  });

  it("seeded payment advices carry totals that add up: lessons from the tables × price, summary identities, GST half up", async () => {
    const { rows } = await server.db.query<{ id: string; gst: string; s: Record<string, string>; ci: Array<{ id: string; termIds: string[]; lessonStartDate: string; classType: string; responses: { lessons: number; unitPrice: string; total: string; totalDiscount: string } }> }>(
      `select id, gst::text as gst, "paymentSummaryStatic" as s, "classInformations" as ci from payment_advices where "createdBy" = (select id from users where username = 'front_desk') order by id limit 40`,
    );
    expect(rows.length).toBeGreaterThan(10);
    const c = (v: string) => numericToCents(v)!;
    for (const pa of rows) {
      const s = pa.s;
      expect(c(s.classFee), pa.id).toBe(pa.ci.reduce((t, x) => t + c(x.responses.total), 0));
      expect(c(s.totalBeforeGst)).toBe(c(s.classFee) + c(s.registrationFee) + c(s.materialFee) + c(s.otherPayment) - c(s.deduction));
      expect(c(s.gst)).toBe(Math.floor((c(s.totalBeforeGst) * Number(pa.gst) + 50) / 100));
      expect(c(s.totalPayable)).toBe(c(s.totalBeforeGst) + c(s.gst) + c(s.deposit) - c(s.deductedDeposit));
      for (const x of pa.ci) {
        if (x.classType === "special" || x.classType === "others") continue;
        const n = await one<{ n: number }>(
          `select count(*)::int as n from lessons where "classId" = $1 and "termId"::text = any($2::text[]) and date >= $3::date and "lessonStatus" = 'active' and status = 'active'`,
          [x.id, x.termIds, x.lessonStartDate],
        );
        expect(x.responses.lessons).toBe(n.n);
        expect(c(x.responses.total)).toBe(n.n * c(x.responses.unitPrice) - c(x.responses.totalDiscount));
      }
    }
  });

  it("GET /classes/class-free prices a class from the lesson start date with the PA's functions", async () => {
    const c = classes[0]!;
    const res = await api(server.app, "GET", `/classes/class-free?studentId=${studentId}&classId=${c.id}&lessonStartDate=${c.start}`, token.front_desk);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ classId: c.id, classStatus: "open", lessonStartDate: c.start, additionalLesson: { quantity: 0 } });
    const term = data.terms.find((t: { id: string }) => t.id === c.termId);
    expect(numericToCents(term.total)).toBe(await expectedClassFee(c));
    expect(data.termInformations).toEqual(data.terms);
    const bad = await api(server.app, "GET", `/classes/class-free?studentId=${studentId}`, token.front_desk);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.classId).toBe("Please select class!");
  });
});
