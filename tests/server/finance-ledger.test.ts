/**
 * The ledger and the reconciliation (issue 31 §1 and §8; FINANCE.md §6, §7): every finance operation
 * posts balanced entries in its own transaction, the seeded documents get the entries they imply, and
 * `reconcile` lists every document whose amounts differ from its ledger lines, by its number.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes, recordingDb } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { enrolmentsWithLessonsAhead, issuedPa, type Enrolment } from "../support/finance.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { reconcile } from "../../server/finance/reconcile.ts";
import { backfillLedger, recogniseAllRevenue, recogniseIfDayBegan } from "../../server/finance/ledgerBackfill.ts";
import { writeEntries } from "../../server/finance/ledger.ts";
import { revenueRecognisedByPart } from "../../src/domain/finance/ledger.ts";
import { financeTransaction } from "../../server/finance/transaction.ts";
import { revenueByPa } from "../../server/reports/revenue.ts";

/**
 * What the demo seed still gets wrong (its rows are written directly, not through the finance service; a
 * separate change fixes the seed): deposits whose status does not follow their PA, and refunds whose total
 * leaves out the GST of their class lines. Reconcile reports each by its number; nothing else may differ.
 */
describe.each(databaseLanes())("the ledger and the reconciliation [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  let enrolments: Enrolment[];

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff", "finance_manager", "sales"]) token[role] = (await signIn(server.app, role)).accessToken;
    enrolments = await enrolmentsWithLessonsAhead(server, 4);
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = (role: string, method: string, url: string, body?: unknown) => api(server.app, method, url, token[role], body);
  const cents = (v: string) => numericToCents(v)!;
  const pay = async (paId: string, amount: number, paymentMethod = "cash") => {
    const res = await call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: paId, payment: { amount: centsToNumeric(amount), paymentMethod } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { invoice: { id: string; invoiceStatus: string }; receipt: { id: string; name: string } };
  };
  /** A student's ledger balance of an account (debit − credit for receivable and cash, credit − debit otherwise). */
  const ledgerBalance = async (studentId: string, account: string, method?: string) =>
    cents(
      (
        await server.db.query<{ b: string }>(
          `select coalesce(sum(case when account in ('receivable', 'cash') then debit - credit else credit - debit end), 0)::text as b
           from journal_lines where "studentId" = $1 and account = $2 and ($3::text is null or method = $3)`,
          [studentId, account, method ?? null],
        )
      ).rows[0]!.b,
    );
  /** Balances measured from where the student stood before the test (the demo gave some students documents). */
  const baseline = new Map<string, number>();
  const balance = async (studentId: string, account: string, method?: string) => (await ledgerBalance(studentId, account, method)) - (baseline.get(`${studentId}|${account}|${method}`) ?? 0);
  const startFrom = async (studentId: string) => {
    for (const [account, method] of [["receivable"], ["customer_credit"], ["cash", "cash"], ["cash", "nets"], ["cash", "qr_code"], ["cash", "interbank transfer"], ["revenue_recognised"], ["revenue_deferred"]] as const) {
      baseline.set(`${studentId}|${account}|${method}`, await ledgerBalance(studentId, account, method));
    }
    return differencesOf(studentId);
  };
  const unbalanced = async () =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from (select e.id from journal_entries e left join journal_lines l on l."entryId" = e.id group by e.id having coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0) or count(l.id) = 0) x`)).rows[0]!.n;
  /** The differences about one student's documents (their numbers) and balances. */
  const differencesOf = async (studentId: string) => {
    const { rows } = await server.db.query<{ name: string }>(
      `select name from payment_advices where "studentId" = $1 and name is not null union all select name from receipts where "studentId" = $1 and name is not null
       union all select name from credit_notes where "studentId" = $1 and name is not null union all select name from refunds where "studentId" = $1 and name is not null
       union all select 'student ' || username from users where id = $1`,
      [studentId],
    );
    const subjects = new Set(rows.map((r) => r.name));
    return (await reconcile(server.db)).filter((d) => subjects.has(d.subject));
  };

  it("right after seeding: every entry balanced, every seeded document equal to its ledger lines, the reconciliation clean", async () => {
    expect(await unbalanced()).toBe(0);
    expect((await server.db.query<{ n: number }>(`select count(*)::int as n from journal_entries`)).rows[0]!.n).toBeGreaterThan(0);
    const differences = await reconcile(server.db);
    expect(differences).toEqual([]);
  });

  it("issue, part-pay, overpay, void a receipt, pay again, void the paid PA: balanced, reconciled, the money received is the student's credit", async () => {
    const e = enrolments[0]!;
    const before = await startFrom(e.studentId);
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const total = cents(pa.summary.total);
    expect(await balance(e.studentId, "receivable")).toBe(total);

    const first = await pay(pa.id, 1000, "cash");
    expect(first.invoice.invoiceStatus).toBe("partial_payment");
    const second = await pay(pa.id, total - 1000 + 500, "nets"); // S$5.00 over
    expect(second.invoice.invoiceStatus).toBe("overpaid");
    expect(await balance(e.studentId, "receivable")).toBe(0);
    expect(await balance(e.studentId, "customer_credit")).toBe(500);

    const voided = await call("finance_staff", "POST", `/finances/receipts/${first.receipt.id}/void`, { reason: "Recorded twice" });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await balance(e.studentId, "receivable")).toBe(500);
    expect(await balance(e.studentId, "customer_credit")).toBe(0);
    expect(await balance(e.studentId, "cash", "cash")).toBe(0);
    await pay(pa.id, 1000, "qr_code");
    expect(await differencesOf(e.studentId)).toEqual(before);

    const current = (await server.db.query<{ updatedAt: string }>(`select to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [pa.id])).rows[0]!;
    const voidPaid = await call("finance_manager", "PATCH", "/finances/payment-advices/void-paid-pa", { id: pa.id, reason: "Wrong class", updatedAt: current.updatedAt });
    expect(voidPaid.statusCode, voidPaid.body).toBe(200);
    const received = total - 1000 + 500 + 1000;
    expect(voidPaid.json().data.creditNote.total).toBe(centsToNumeric(received));
    // the sale is undone, the cash stays in the drawers it reached, all of it is the student's credit now
    expect(await balance(e.studentId, "receivable")).toBe(0);
    expect(await balance(e.studentId, "customer_credit")).toBe(received);
    expect(await balance(e.studentId, "cash", "nets")).toBe(total - 1000 + 500);
    expect(await balance(e.studentId, "cash", "qr_code")).toBe(1000);
    expect(await unbalanced()).toBe(0);
    expect(await differencesOf(e.studentId)).toEqual(before);
  });

  it("paid PA, suspension credit note approved, withdrawal refunded with the credit note: balanced and reconciled, credit paid out in cash", async () => {
    const e = enrolments[1]!;
    const before = await startFrom(e.studentId);
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const paid = await pay(pa.id, cents(pa.summary.total), "cash");
    const suspension = await call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: e.studentId, classId: e.id, startDate: e.lessons[2]!.date, endDate: e.lessons[3]!.date, reason: "Overseas trip" });
    expect(suspension.statusCode, suspension.body).toBe(201);
    const cnId = suspension.json().data.creditNoteId as string;
    const cnNow = async () => (await call("finance_manager", "GET", `/credit-notes/${cnId}`)).json().data;
    const cnMove = async (role: string, status: string) => {
      const res = await call(role, "PATCH", `/credit-notes/change-status-credit-note/${cnId}`, { status, updatedAt: (await cnNow()).updatedAt });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    await cnMove("front_desk", "awaiting_finance_action");
    const filled = await call("finance_staff", "PUT", `/credit-notes/${cnId}`, { updatedAt: (await cnNow()).updatedAt, numberOfLesson: 1, receiptId: paid.receipt.id, reason: "Overseas trip" });
    expect(filled.statusCode, filled.body).toBe(200);
    await cnMove("finance_staff", "awaiting_finance_approval");
    const cn = await cnMove("finance_manager", "issued");
    const credit = cents(cn.summary.total);
    expect(await balance(e.studentId, "customer_credit")).toBe(credit);
    expect(await differencesOf(e.studentId)).toEqual(before);

    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[0]!.date, reason: "Moving abroad" });
    expect(created.statusCode, created.body).toBe(201);
    const refundId = created.json().data.refundId as string;
    const refundNow = async () => (await call("finance_manager", "GET", `/refund/${refundId}`)).json().data;
    const patch = async (role: string, body: Record<string, unknown>) => {
      const res = await call(role, "PATCH", `/refund/${refundId}`, { updatedAt: (await refundNow()).updatedAt, ...body });
      expect(res.statusCode, res.body).toBe(200);
    };
    const rfMove = async (role: string, status: string) => {
      const res = await call(role, "PATCH", `/refund/${refundId}/change-refund-status`, { status, updatedAt: (await refundNow()).updatedAt });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    await patch("front_desk", { creditNoteIds: [cnId] });
    await rfMove("front_desk", "awaiting_sale_action");
    await patch("sales", { studentFeedback: { feedback: "Family moving" }, rating: "good" });
    await rfMove("sales", "awaiting_finance_approval");
    await patch("finance_manager", { payeeDetails: { name: "Parent of student", bankName: "DBS", accountNo: "123-456" }, refundMethod: "interbank transfer" });
    const refund = await rfMove("finance_manager", "refunded");
    expect(refund.refundStatus).toBe("refunded");
    const refunded = cents(refund.summary.total);
    expect(refunded).toBeGreaterThan(credit);
    expect(await balance(e.studentId, "customer_credit")).toBe(0);
    expect(await balance(e.studentId, "cash", "interbank transfer")).toBe(-refunded);
    expect(await unbalanced()).toBe(0);
    expect(await differencesOf(e.studentId)).toEqual(before);
  });

  it("a refund's other payments and deduction correct recognised revenue, not deferred: the ledger's deferred revenue stays the revenue report's", async () => {
    const e = enrolments[3]!;
    const before = await startFrom(e.studentId);
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    await pay(pa.id, cents(pa.summary.total), "cash");
    const created = await call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: e.studentId, classId: e.id, noticeDate: todayInSingapore(), lastLessonDate: e.lessons[0]!.date, reason: "Moving abroad" });
    expect(created.statusCode, created.body).toBe(201);
    const refundId = created.json().data.refundId as string;
    const refundNow = async () => (await call("finance_manager", "GET", `/refund/${refundId}`)).json().data;
    const step = async (role: string, url: string, body: Record<string, unknown>) => {
      const res = await call(role, "PATCH", url, { updatedAt: (await refundNow()).updatedAt, ...body });
      expect(res.statusCode, res.body).toBe(200);
    };
    await step("front_desk", `/refund/${refundId}`, { classes: [{ id: (await refundNow()).classes[0].id, deduction: "20.00", otherPayments: [{ name: "Books returned", amount: "5.00" }] }] });
    await step("front_desk", `/refund/${refundId}/change-refund-status`, { status: "awaiting_sale_action" });
    await step("sales", `/refund/${refundId}`, { studentFeedback: { feedback: "Family moving" }, rating: "good" });
    await step("sales", `/refund/${refundId}/change-refund-status`, { status: "awaiting_finance_approval" });
    await step("finance_manager", `/refund/${refundId}`, { payeeDetails: { name: "Parent of student", bankName: "DBS", accountNo: "123-456" }, refundMethod: "cheque" });
    await step("finance_manager", `/refund/${refundId}/change-refund-status`, { status: "refunded" });

    const day = todayInSingapore();
    const model = (await revenueByPa(server.db, { from: day, to: day, companyId: pa.companyId, branchId: null })).find((r) => r.paymentAdviceId === pa.id)!;
    expect(cents(model.credited)).toBeGreaterThan(0);
    expect(await balance(e.studentId, "revenue_deferred")).toBe(cents(model.deferred));
    // the S$20.00 kept less the S$5.00 given back: a correction of recognised revenue on the refund's day
    expect(await balance(e.studentId, "revenue_recognised")).toBe(cents(model.recognised) + 1500);
    expect(await unbalanced()).toBe(0);
    expect(await differencesOf(e.studentId)).toEqual(before);
  });

  it("revenue is recognised in the ledger as the revenue report recognises it: delivered lessons at issue, fees once paid, nothing once the paid PA is voided", async () => {
    const e = enrolments[2]!;
    const before = await startFrom(e.studentId);
    // from the term's first lesson: the lessons already delivered are recognised as soon as the PA is issued
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId, { otherPayments: [{ name: "Books", amount: "30.00" }] });
    const inLedger = async () =>
      cents(
        (
          await server.db.query<{ b: string }>(
            `select coalesce(sum(l.credit - l.debit), 0)::text as b from journal_entries e join journal_lines l on l."entryId" = e.id
             where e."documentType" = 'payment_advice' and e."documentId" = $1 and l.account = 'revenue_recognised'`,
            [pa.id],
          )
        ).rows[0]!.b,
      );
    const inReport = async () => {
      const day = todayInSingapore();
      const row = (await revenueByPa(server.db, { from: day, to: day, companyId: pa.companyId, branchId: null })).find((r) => r.paymentAdviceId === pa.id);
      return row ? cents(row.recognised) : 0;
    };
    const delivered = await inReport();
    expect(delivered).toBeGreaterThan(0);
    expect(await inLedger()).toBe(delivered);

    await pay(pa.id, cents(pa.summary.total), "cash");
    expect(await inReport()).toBe(delivered + 3000); // the books fall due when the PA is paid
    expect(await inLedger()).toBe(delivered + 3000);
    expect(await differencesOf(e.studentId)).toEqual(before);

    const current = (await server.db.query<{ updatedAt: string }>(`select to_json("updatedAt") #>> '{}' as "updatedAt" from payment_advices where id = $1`, [pa.id])).rows[0]!;
    const voidPaid = await call("finance_manager", "PATCH", "/finances/payment-advices/void-paid-pa", { id: pa.id, reason: "Wrong class", updatedAt: current.updatedAt });
    expect(voidPaid.statusCode, voidPaid.body).toBe(200);
    expect(await inLedger()).toBe(0);
    expect(await balance(e.studentId, "revenue_recognised")).toBe(0);
    expect(await balance(e.studentId, "revenue_deferred")).toBe(0);
    expect(await differencesOf(e.studentId)).toEqual(before);
  });

  it("a receipt changed behind the finance service's back (raw SQL) is reported with its number", async () => {
    const e = enrolments[0]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const { receipt } = await pay(pa.id, 2000, "cheque");
    expect((await reconcile(server.db)).filter((d) => d.subject === receipt.name)).toEqual([]);
    await server.db.query(`update receipts set amount = amount + 0.01 where id = $1`, [receipt.id]);
    const found = (await reconcile(server.db)).filter((d) => d.subject === receipt.name);
    expect(found).toEqual([{ check: "document = its ledger lines", subject: receipt.name, message: "active receipt (cheque): S$20.01 received by the document, S$20.00 in the ledger" }]);
  });

  it("reconcile's numbers check names a gap in a series, whole and scoped to a student whose documents are in it", async () => {
    const e = enrolments[0]!;
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const { receipt } = await pay(pa.id, 1000, "cash");
    const numbersOf = async (students: string[] | null) => (await reconcile(server.db, students)).filter((d) => d.check.startsWith("numbers"));
    expect(await numbersOf([e.studentId])).toEqual([]);
    const series = receipt.name.replace(/-\d+$/, "");
    const last = Number(receipt.name.slice(series.length + 1));
    await server.db.query(`update receipts set name = $2 where id = $1`, [receipt.id, `${series}-${String(last + 1).padStart(5, "0")}`]);
    try {
      const gap = [{ check: "numbers: no gap", subject: series, message: `missing ${receipt.name}` }];
      expect(await numbersOf([e.studentId])).toEqual(gap);
      expect(await numbersOf(null)).toEqual(gap);
    } finally {
      await server.db.query(`update receipts set name = $2 where id = $1`, [receipt.id, receipt.name]);
    }
  });

  it("the database refuses an entry whose debits differ from its credits (checked per statement of lines), and at commit an entry without lines", async () => {
    const e = enrolments[0]!;
    const company = (await server.db.query<{ id: string }>(`select "companyId" as id from classes where id = $1`, [e.id])).rows[0]!.id;
    const entry = (lines: Array<[string, number, number]>) =>
      server.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `insert into journal_entries ("companyId", "studentId", day, operation, "documentType", "documentId") values ($1, $2, current_date, 'pa_issued', 'payment_advice', gen_random_uuid()) returning id`,
          [company, e.studentId],
        );
        for (const [account, debit, credit] of lines) {
          await tx.query(`insert into journal_lines ("entryId", "companyId", "studentId", day, account, debit, credit) values ($1, $2, $3, current_date, $4, $5, $6)`, [rows[0]!.id, company, e.studentId, account, debit, credit]);
        }
      });
    await expect(entry([["receivable", 10, 0]])).rejects.toThrow(/not balanced/);
    await expect(entry([])).rejects.toThrow(/not balanced/);
    // balanced only by a later statement: each statement of lines must leave its entries balanced
    await expect(entry([["receivable", 10, 0], ["gst_payable", 0, 10]])).rejects.toThrow(/not balanced/);
  });

  it("recognition lines name their class and month; lines posted before that split are taken back and posted again by class and month at start-up", async () => {
    const e = enrolments[2]!; // after its PA was voided (the test above)
    const pa = await issuedPa(server, token.front_desk!, e, e.studentId);
    const parts = async () =>
      (
        await server.db.query<{ classId: string | null; month: string | null; amount: string }>(
          `select l."classId", l."revenueMonth"::text as month, sum(l.credit - l.debit)::text as amount from journal_entries e join journal_lines l on l."entryId" = e.id
           where e.operation = 'revenue_recognised' and e."documentId" = $1 and l.account = 'revenue_recognised' group by 1, 2 having sum(l.credit - l.debit) <> 0 order by 2, 1`,
          [pa.id],
        )
      ).rows.map((r) => ({ ...r, amount: cents(r.amount) }));
    const split = await parts();
    expect(split.length).toBeGreaterThan(0);
    for (const p of split) expect([p.classId, p.month?.slice(8)]).toEqual([e.id, "01"]);
    // as a database recognised before the split holds it: the same revenue on lines with no class and no month
    await financeTransaction(server.db, (tx) =>
      writeEntries(tx, [{
        head: { companyId: pa.companyId, studentId: e.studentId, day: todayInSingapore(), operation: "revenue_recognised", documentType: "payment_advice", documentId: pa.id, documentNumber: pa.name, createdBy: null },
        lines: revenueRecognisedByPart([
          ...split.map((p) => ({ classId: p.classId, revenueMonth: p.month, figure: "recognised" as const, target: 0, posted: p.amount })),
          { classId: null, revenueMonth: null, figure: "recognised" as const, target: split.reduce((s, p) => s + p.amount, 0), posted: 0 },
        ]),
      }]),
    );
    expect((await reconcile(server.db, [e.studentId])).map((d) => d.message).join("\n")).toContain("recognised before the split by class and month");
    await recogniseAllRevenue(server.db);
    expect(await parts()).toEqual(split);
    expect(await reconcile(server.db, [e.studentId])).toEqual([]);
  });

  it("the start-up backfill reads a window of documents and students a statement: PAs written without entries get theirs, window by window", async () => {
    // three unpaid PAs without a deposit, copied as raw rows (as a seed writes them): documents with no entries
    const copies = await financeTransaction(server.db, async (tx) =>
      (
        await tx.query<{ id: string; name: string }>(
          `insert into payment_advices select (jsonb_populate_record(null::payment_advices, to_jsonb(pa) || jsonb_build_object('id', gen_random_uuid(), 'name', pa.name || '-W'))).*
           from payment_advices pa where pa.status = 'active' and pa."paymentStatus" = 'unpaid' and coalesce((pa."paymentSummaryStatic"->>'deposit')::numeric, 0) = 0
             and not exists (select 1 from receipts r where r."paymentAdviceId" = pa.id) order by pa.id limit 3
           returning id, name`,
        )
      ).rows,
    );
    expect(copies).toHaveLength(3);
    const statements: Array<{ sql: string; params: unknown[] }> = [];
    const db = recordingDb(server.db, (sql, params) => statements.push({ sql, params }));

    const window = 40; // fewer than the demo's PAs and users: they are read in several windows
    expect(await backfillLedger(db, window)).toBeGreaterThanOrEqual(3);
    const issued = await server.db.query<{ n: number }>(`select count(*)::int as n from journal_entries where operation = 'pa_issued' and "documentId" = any($1::uuid[])`, [copies.map((c) => c.id)]);
    expect(issued.rows[0]!.n).toBe(3);
    const names = new Set(copies.map((c) => c.name));
    expect((await reconcile(server.db)).filter((d) => names.has(d.subject))).toEqual([]);
    // no statement was given more than the window: every id list and every limit within it, and the revenue model
    // read for named students, never for all of them at once
    for (const { sql, params } of statements) {
      for (const p of params) if (Array.isArray(p)) expect(p.length, sql).toBeLessThanOrEqual(window);
      if (/\blimit \$\d/.test(sql)) expect(params, sql).toContain(window);
      if (sql.includes("revenue_lines")) expect(Array.isArray(params[0]), sql).toBe(true);
    }
    expect(statements.filter((s) => s.sql.includes("revenue_lines")).length).toBeGreaterThan(1);
  });

  it("a start-up on an up-to-date database reads no window: one check of documents and one of students changed since the last full run", async () => {
    const statements: string[] = [];
    const db = recordingDb(server.db, (sql) => statements.push(sql));
    expect(await backfillLedger(db, 40)).toBe(0);
    expect(statements.filter((sql) => /\blimit \$\d/.test(sql))).toEqual([]);
    expect(statements.filter((sql) => sql.includes("revenue_lines"))).toEqual([]);
  });

  it("a start on a new Singapore day listens before the day's recognition walk: start-up leaves it, the server's daily job walks it once", async () => {
    const markDay = async () => (await server.db.query<{ today: boolean }>(
      `select day = to_char(now() at time zone 'Asia/Singapore', 'YYYY-MM-DD')::date as today from app_internal.revenue_recognition_mark`,
    )).rows[0]?.today;
    await server.db.query(`update app_internal.revenue_recognition_mark set day = day - 1`);
    const statements: string[] = [];
    const db = recordingDb(server.db, (sql) => statements.push(sql));
    expect(await backfillLedger(db, 40, { newDayWalk: "later" })).toBe(0);
    expect(statements.filter((sql) => sql.includes("revenue_lines"))).toEqual([]);
    expect(await markDay()).toBe(false);

    await recogniseIfDayBegan(db, 40);
    expect(statements.filter((sql) => sql.includes("revenue_lines")).length).toBeGreaterThan(1);
    expect(await markDay()).toBe(true);
    statements.length = 0;
    expect(await recogniseIfDayBegan(db, 40)).toBe(0);
    expect(statements.filter((sql) => sql.includes("revenue_lines"))).toEqual([]);
  });
});
