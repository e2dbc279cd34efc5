/**
 * The reconciliation (FINANCE.md §6, §7; `npm run reconcile`): recomputes the balances from the documents
 * and from the ledger and lists every difference, each naming the document (its number) or the student.
 * Read-only. The identities checked:
 *   - every journal entry is balanced (debits = credits, at least one line);
 *   - every document's amounts equal its own ledger lines (PA: revenue deferred and recognised, GST, what is
 *     still owed and deposits billed; receipt: the money it brought in; suspension credit note: the credit it gave;
 *     refund: the cash it paid out);
 *   - per PA: the revenue recognised in the ledger = what the revenue model recognises today (lessons
 *     delivered, fees due, less credits: server/finance/revenueLines.ts, the revenue report's own lines);
 *   - per student: receivable, customer_credit and deposits_held from the documents = from the ledger,
 *     and neither customer_credit nor deposits_held below zero;
 *   - per invoice: Σ non-voided payments = its amount received, and its PA's status agrees;
 *   - caps (FINANCE.md §6, §7): per PA and class, the lessons credited by issued suspension credit notes and given
 *     back by refunded refunds ≤ the lessons its payments paid for (with customer_credit ≥ 0 and deposits_held ≥ 0
 *     below: a refund never pays out more than the lessons paid and not delivered, the credit and the deposits);
 *   - per student: deposits collected = held + used (deducted on a live PA) + refunded, and the deposit report's
 *     figures (from deposits_held) equal them and the ledger's balance; per deposit: its
 *     status agrees with its PA (paid with it) and its use (deducted or refunded);
 *   - document numbers: no gap and no duplicate per company, year and prefix;
 *   - the attendance report's monthly counts (app_internal.attendance_months, kept by triggers) = the seats they count;
 *   - its yearly rows (app_internal.attendance_years, kept by the same triggers) = the monthly counts;
 *   - the PA listing's sums per issue day (app_internal.pa_listing_days, kept by triggers) = the PAs and invoices they sum.
 */
import type { Db, Queryable } from "../db/index.ts";
import { formatMoney, type Cents } from "../../src/domain/money.ts";
import { paStatusFor, SELF_VOIDED_RECEIPT_SQL } from "../../src/domain/finance/invoice.ts";
import { lessonsPaidFor } from "../../src/domain/finance/caps.ts";
import { cents, creditedBefore, paFigures, recognitionGaps } from "./ledger.ts";
import { readWithoutJit } from "../db/jit.ts";
import type { PaRow } from "./paymentAdviceRecord.ts";
import { depositMovements } from "../reports/deposits.ts";
import { ATTENDED_SEAT, COUNTED_SEAT } from "../reports/attendance.ts";

export interface Difference {
  check: string;
  /** The document's number (or the student, for per-student balances). */
  subject: string;
  message: string;
}

const money = (c: Cents) => formatMoney(c);

/** The students a check covers: all (null), or these (the randomised workflow's own, between whole checks). */
type Students = readonly string[] | null;
/** A check's student condition on `column` ($1 when scoped) and its parameters. */
const only = (students: Students, column: string): string => (students ? `${column} = any($1::uuid[])` : "true");
const params = (students: Students): unknown[] => (students ? [students] : []);
const LIVE = `('unpaid', 'paid', 'overpaid', 'overdue')`;
const RECEIVED = (pa: string) => `(select coalesce(sum(ip.amount), 0) from invoice_payments ip join invoices i on i.id = ip."invoiceId"
  where i."paymentAdviceId" = ${pa} and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success')`;
const ON_DOC = (type: string, id: string, account: string, expr: string) => `(select coalesce(sum(${expr}), 0) from journal_entries e join journal_lines l on l."entryId" = e.id
  where e."documentType" = '${type}' and e."documentId" = ${id} and l.account = '${account}')`;

/**
 * The lines of the entries of a PA's receipts on `account`. A join from the PA's receipts, not an `or` beside the PA's
 * own entries: that `or` read every entry once per PA, and the whole check of the 20k scale seed ran for over 30 min.
 */
const ON_RECEIPTS = (pa: string, account: string, expr: string) => `(select coalesce(sum(${expr}), 0) from receipts r
  join journal_entries e on e."documentType" = 'receipt' and e."documentId" = r.id join journal_lines l on l."entryId" = e.id
  where r."paymentAdviceId" = ${pa} and l.account = '${account}')`;

async function unbalancedEntries(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ id: string; documentNumber: string | null; operation: string; debit: string; credit: string }>(
    `select e.id, e."documentNumber", e.operation, coalesce(sum(l.debit), 0)::text as debit, coalesce(sum(l.credit), 0)::text as credit
     from journal_entries e left join journal_lines l on l."entryId" = e.id where ${only(students, 'e."studentId"')}
     group by e.id having coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0) or count(l.id) = 0`,
    params(students),
  );
  return rows.map((r) => ({ check: "entry balanced", subject: r.documentNumber ?? r.id, message: `${r.operation} entry ${r.id}: debits ${money(cents(r.debit))} ≠ credits ${money(cents(r.credit))}` }));
}

async function paymentAdvices(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ id: string; name: string; paymentStatus: string; pss: PaRow["paymentSummaryStatic"]; received: string; revenue: string; gst: string; receivable: string; billed: string }>(
    `select pa.id, pa.name, pa."paymentStatus", pa."paymentSummaryStatic" as pss, ${RECEIVED("pa.id")}::text as received,
       (${ON_DOC("payment_advice", "pa.id", "revenue_deferred", "l.credit - l.debit")} + ${ON_DOC("payment_advice", "pa.id", "revenue_recognised", "l.credit - l.debit")})::text as revenue,
       ${ON_DOC("payment_advice", "pa.id", "gst_payable", "l.credit - l.debit")}::text as gst,
       (${ON_DOC("payment_advice", "pa.id", "receivable", "l.debit - l.credit")} + ${ON_RECEIPTS("pa.id", "receivable", "l.debit - l.credit")})::text as receivable,
       (${ON_DOC("payment_advice", "pa.id", "deposits_billed", "l.credit - l.debit")} + ${ON_RECEIPTS("pa.id", "deposits_billed", "l.credit - l.debit")})::text as billed
     from payment_advices pa where pa.status <> 'deleted' and pa."paymentStatus" <> 'draft' and pa.name is not null and ${only(students, 'pa."studentId"')} order by pa.name`,
    params(students),
  );
  const out: Difference[] = [];
  for (const r of rows) {
    const live = ["unpaid", "paid", "overpaid", "overdue"].includes(r.paymentStatus);
    const f = paFigures(r.pss);
    const received = cents(r.received);
    const paid = received > 0 && received >= f.totalPayable;
    // a paid PA voided after credit notes or refunds of its lessons leaves on its own lines what those took out
    const credited = r.paymentStatus === "voided" ? await creditedBefore(db, r.id) : { net: 0, gst: 0 };
    const expected: Array<[string, Cents, Cents]> = [
      ["revenue (deferred + recognised)", live ? f.totalBeforeGst : credited.net, cents(r.revenue)],
      ["GST payable", live ? f.gst : credited.gst, cents(r.gst)],
      ["still owed (receivable)", live ? Math.max(0, f.totalPayable - received) : 0, cents(r.receivable)],
      ["deposits billed and unpaid", live && !paid ? f.deposit : 0, cents(r.billed)],
    ];
    for (const [what, doc, ledger] of expected) {
      if (doc !== ledger) out.push({ check: "document = its ledger lines", subject: r.name, message: `${r.paymentStatus} payment advice: ${what} ${money(doc)} by the document, ${money(ledger)} in the ledger` });
    }
  }
  return out;
}

/** Each PA's revenue billed, credited and recognised in the ledger, class by class and month by month, is what the revenue model states today (voided ones: nothing). */
async function revenueRecognised(db: Queryable | Db, students: Students): Promise<Difference[]> {
  const gaps = await readWithoutJit(db, (tx) => recognitionGaps(tx, students));
  if (!gaps.length) return [];
  const { rows } = await db.query<{ id: string; name: string }>(`select id::text, name from classes`);
  const className = new Map(rows.map((r) => [r.id, r.name]));
  return gaps.map((g) => ({
    check: `revenue ${g.figure} = revenue model`,
    subject: g.name ?? g.paymentAdviceId,
    message: `${g.classId === null ? (g.revenueMonth === null ? "recognised before the split by class and month" : "fees") : (className.get(g.classId) ?? g.classId)}${g.revenueMonth ? ` in ${g.revenueMonth.slice(0, 7)}` : ""}: ${money(g.posted)} ${g.figure} in the ledger, ${money(g.target)} by the documents, lessons delivered and fees due`,
  }));
}

/** Money out never exceeds money in (FINANCE.md §7): lessons given back at most once and only as far as they were paid for. */
async function lessonCaps(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ name: string; classId: string; className: string | null; billed: number; total: string; received: string; credited: number; refunded: number }>(
    // materialized: inlined, the planner joined classes once per PA (the 20k scale seed's check ran for minutes; 20 s so)
    `with cards as materialized (
       select pa.id, pa.name, card->>'id' as "classId", jsonb_array_length(coalesce(card->'responses'->'lessonIds', '[]'::jsonb)) as billed,
         pa."paymentSummaryStatic"->>'totalPayable' as total, ${RECEIVED("pa.id")}::text as received
       from payment_advices pa cross join lateral jsonb_array_elements(pa."classInformations") card
       where pa.status <> 'deleted' and pa.name is not null and pa."paymentStatus" in ${LIVE} and ${only(students, 'pa."studentId"')}
     )
     select c.name, c."classId", cl.name as "className", c.billed, c.total, c.received,
       (select coalesce(sum(f."numberOfLesson"), 0)::int from credit_notes cn join credit_note_fees f on f.id = cn."creditNoteFeeId" join credit_note_classes k on k.id = cn."creditNoteClassId"
         join receipts r on r.id = f."receiptId"
         where cn.type = 'suspension' and cn.status <> 'deleted' and cn."creditNoteStatus" in ('issued', 'used') and r."paymentAdviceId" = c.id and k."classId"::text = c."classId") as credited,
       (select coalesce(sum(rc."leftLessonNo"), 0)::int from refund_classes rc join refunds rf on rf.id = rc."refundId" join receipts r on r.id = rc."receiptId"
         where rf.status <> 'deleted' and rf."refundStatus" = 'refunded' and rc.status <> 'deleted' and r."paymentAdviceId" = c.id and rc."classId"::text = c."classId") as refunded
     from cards c left join classes cl on cl.id::text = c."classId"
     order by c.name, c."classId"`,
    params(students),
  );
  const out: Difference[] = [];
  for (const r of rows) {
    const paid = lessonsPaidFor(r.billed, cents(r.received), cents(r.total));
    if (r.credited + r.refunded > paid) {
      out.push({ check: "cap: lessons given back ≤ lessons paid for", subject: r.name, message: `${r.className ?? r.classId}: ${r.credited} credited + ${r.refunded} refunded > ${paid} of ${r.billed} lessons paid for` });
    }
  }
  return out;
}

async function receipts(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ name: string | null; id: string; status: string; amount: string; paymentMethod: string; selfVoided: boolean; ledger: string }>(
    `select r.id, r.name, r.status, r.amount::text as amount, r."paymentMethod", ${SELF_VOIDED_RECEIPT_SQL} as "selfVoided",
       (select coalesce(sum(l.debit - l.credit), 0) from journal_entries e join journal_lines l on l."entryId" = e.id
         where e."documentType" = 'receipt' and e."documentId" = r.id
           and ((r."paymentMethod" = 'credit_note' and l.account = 'customer_credit') or (r."paymentMethod" <> 'credit_note' and l.account = 'cash' and l.method = r."paymentMethod")))::text as ledger
     from receipts r where ${only(students, 'r."studentId"')} order by r.name`,
    params(students),
  );
  const out: Difference[] = [];
  for (const r of rows) {
    // a receipt voided on its own takes its money back; one voided with its paid PA keeps it (it became credit)
    const doc = r.status === "deleted" || r.selfVoided ? 0 : cents(r.amount);
    // debits less credits: cash in for a cash receipt, and for a payment by credit note the credit spent (a debit of customer_credit)
    const ledger = cents(r.ledger);
    if (doc !== ledger) out.push({ check: "document = its ledger lines", subject: r.name ?? r.id, message: `${r.status} receipt (${r.paymentMethod}): ${money(doc)} received by the document, ${money(ledger)} in the ledger` });
  }
  return out;
}

async function creditNotesAndRefunds(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows: cns } = await db.query<{ id: string; name: string | null; creditNoteStatus: string; total: string | null; ledger: string }>(
    `select cn.id, cn.name, cn."creditNoteStatus", cn.summary->>'total' as total, ${ON_DOC("credit_note", "cn.id", "customer_credit", "l.credit - l.debit")}::text as ledger
     from credit_notes cn where cn.type = 'suspension' and cn.status <> 'deleted' and ${only(students, 'cn."studentId"')} order by cn.name`,
    params(students),
  );
  const out: Difference[] = [];
  for (const c of cns) {
    const doc = ["issued", "used"].includes(c.creditNoteStatus) ? cents(c.total) : 0;
    if (doc !== cents(c.ledger)) out.push({ check: "document = its ledger lines", subject: c.name ?? c.id, message: `${c.creditNoteStatus} suspension credit note: credit ${money(doc)} by the document, ${money(cents(c.ledger))} in the ledger` });
  }
  const { rows: refunds } = await db.query<{ id: string; name: string | null; refundStatus: string; total: string | null; ledger: string }>(
    `select rf.id, rf.name, rf."refundStatus", rf.summary->>'total' as total,
       (select coalesce(sum(l.credit - l.debit), 0) from journal_entries e join journal_lines l on l."entryId" = e.id
         where e."documentType" = 'refund' and e."documentId" = rf.id and l.account = 'cash')::text as ledger
     from refunds rf where rf.status <> 'deleted' and ${only(students, 'rf."studentId"')} order by rf.name`,
    params(students),
  );
  for (const r of refunds) {
    const doc = r.refundStatus === "refunded" ? cents(r.total) : 0;
    if (doc !== cents(r.ledger)) out.push({ check: "document = its ledger lines", subject: r.name ?? r.id, message: `${r.refundStatus} refund: ${money(doc)} paid out by the document, ${money(cents(r.ledger))} in the ledger` });
  }
  return out;
}

async function studentBalances(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ studentId: string; who: string; receivable: string; credit: string; held: string; lReceivable: string; lCredit: string; lHeld: string; collected: string; deducted: string; refunded: string }>(
    `with pa as (
       select pa.id, pa."studentId", (pa."paymentSummaryStatic"->>'totalPayable')::numeric as total, coalesce((pa."paymentSummaryStatic"->>'deductedDeposit')::numeric, 0) as deducted,
              ${RECEIVED("pa.id")} as received,
              (select coalesce(sum((cn.summary->>'total')::numeric), 0) from credit_notes cn
                where cn."paymentAdviceId" = pa.id and cn.type = 'overpaid' and cn.status <> 'deleted' and cn."creditNoteStatus" in ('issued', 'used')) as documented
       from payment_advices pa where pa.status <> 'deleted' and pa.name is not null and pa."paymentStatus" in ${LIVE} and ${only(students, 'pa."studentId"')}
     ), by_student as (
       -- summed per student once: a subquery over the PAs per student scanned every PA for each (minutes on the 20k scale seed)
       select "studentId", sum(greatest(0, total - received)) as receivable, sum(greatest(0, received - total - documented)) as over, sum(deducted) as deducted
       from pa group by "studentId"
     ), doc as (
       select s.id as "studentId",
         coalesce(b.receivable, 0) as receivable,
         (select coalesce(sum(coalesce((cn.summary->>'total')::numeric, 0) - cn."usedAmount"), 0) from credit_notes cn
           where cn."studentId" = s.id and cn.status <> 'deleted' and cn."creditNoteStatus" in ('issued', 'used'))
         + coalesce(b.over, 0) as credit,
         (select coalesce(sum(d.amount), 0) from deposits d where d."studentId" = s.id and d.status <> 'deleted' and d."depositStatus" = 'paid') as held,
         (select coalesce(sum(d.amount), 0) from deposits d where d."studentId" = s.id and d.status <> 'deleted' and d."depositStatus" in ('paid', 'used', 'refunded')) as collected,
         coalesce(b.deducted, 0) as deducted,
         (select coalesce(sum(coalesce((rf.summary->>'depositAmount')::numeric, 0)), 0) from refunds rf where rf."studentId" = s.id and rf.status <> 'deleted' and rf."refundStatus" = 'refunded') as refunded
       from users s left join by_student b on b."studentId" = s.id where ${only(students, "s.id")} and (exists (select 1 from payment_advices p where p."studentId" = s.id) or exists (select 1 from journal_lines l where l."studentId" = s.id)
         or exists (select 1 from credit_notes c where c."studentId" = s.id) or exists (select 1 from deposits d where d."studentId" = s.id))
     ), led as (
       select "studentId",
         sum(case when account = 'receivable' then debit - credit else 0 end) as receivable,
         sum(case when account = 'customer_credit' then credit - debit else 0 end) as credit,
         sum(case when account = 'deposits_held' then credit - debit else 0 end) as held
       from journal_lines where ${only(students, '"studentId"')} group by "studentId"
     )
     select doc."studentId", coalesce(u.username, u."fullName", doc."studentId"::text) as who,
       doc.receivable::text as receivable, doc.credit::text as credit, doc.held::text as held,
       coalesce(led.receivable, 0)::text as "lReceivable", coalesce(led.credit, 0)::text as "lCredit", coalesce(led.held, 0)::text as "lHeld",
       doc.collected::text as collected, doc.deducted::text as deducted, doc.refunded::text as refunded
     from doc join users u on u.id = doc."studentId" left join led on led."studentId" = doc."studentId" order by who`,
    params(students),
  );
  // the deposit report over all time (it reads deposits_held by kind of movement): each figure = the documents'
  const report = new Map((await depositMovements(db, { from: "0001-01-01", to: "9999-12-31", companyId: null }, students)).map((r) => [r.studentId, r]));
  const out: Difference[] = [];
  for (const r of rows) {
    const subject = `student ${r.who}`;
    const d = report.get(r.studentId) ?? { collected: 0, released: 0, used: 0, refunded: 0, held: 0 };
    const shown: Array<[string, Cents, Cents]> = [
      ["held", d.held, cents(r.lHeld)],
      ["collected less released", d.collected - d.released, cents(r.collected)],
      ["used", d.used, cents(r.deducted)],
      ["refunded", d.refunded, cents(r.refunded)],
    ];
    for (const [what, inReport, expected] of shown) {
      if (inReport !== expected) out.push({ check: "deposit report = ledger and documents", subject, message: `${what} ${money(inReport)} in the deposit report, ${money(expected)} by the ${what === "held" ? "ledger" : "documents"}` });
    }
    const pairs: Array<[string, Cents, Cents]> = [
      ["receivable", cents(r.receivable), cents(r.lReceivable)],
      ["customer_credit", cents(r.credit), cents(r.lCredit)],
      ["deposits_held", cents(r.held), cents(r.lHeld)],
    ];
    for (const [account, doc, ledger] of pairs) {
      if (doc !== ledger) out.push({ check: "student balance: documents = ledger", subject, message: `${account} ${money(doc)} from the documents, ${money(ledger)} in the ledger` });
    }
    if (cents(r.lCredit) < 0) out.push({ check: "cap: customer credit ≥ 0", subject, message: `customer_credit is ${money(cents(r.lCredit))}` });
    if (cents(r.lHeld) < 0) out.push({ check: "cap: deposits held ≥ 0", subject, message: `deposits_held is ${money(cents(r.lHeld))}` });
    const collected = cents(r.collected);
    const accounted = cents(r.lHeld) + cents(r.deducted) + cents(r.refunded);
    if (collected !== accounted) {
      out.push({ check: "deposits: collected = held + used + refunded", subject, message: `collected ${money(collected)} ≠ held ${money(cents(r.lHeld))} + deducted ${money(cents(r.deducted))} + refunded ${money(cents(r.refunded))}` });
    }
  }
  return out;
}

async function invoices(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ name: string; invoiceStatus: string; total: string; paidAmount: string; received: string; paName: string | null; paymentStatus: string }>(
    `select i.name, i."invoiceStatus", i.total::text as total, i."paidAmount"::text as "paidAmount", pa.name as "paName", pa."paymentStatus",
       (select coalesce(sum(ip.amount), 0) from invoice_payments ip where ip."invoiceId" = i.id and ip.status <> 'deleted' and ip."transactionStatus" = 'success')::text as received
     from invoices i join payment_advices pa on pa.id = i."paymentAdviceId" where i.status <> 'deleted' and ${only(students, 'pa."studentId"')} order by i.name`,
    params(students),
  );
  const out: Difference[] = [];
  for (const r of rows) {
    if (r.invoiceStatus === "voided") continue;
    const received = cents(r.received);
    if (received !== cents(r.paidAmount)) out.push({ check: "invoice: Σ payments = received", subject: r.name, message: `payments ${money(received)}, amount received ${money(cents(r.paidAmount))}` });
    const status = paStatusFor(cents(r.total), received);
    const shown = r.paymentStatus === "overdue" ? "unpaid" : r.paymentStatus;
    if (["unpaid", "paid", "overpaid", "overdue"].includes(r.paymentStatus) && shown !== status) {
      out.push({ check: "invoice: PA status agrees", subject: r.name, message: `${r.paName ?? "its payment advice"} is ${r.paymentStatus}; ${money(received)} received of ${money(cents(r.total))} makes it ${status}` });
    }
  }
  return out;
}

/** Each deposit's status agrees with its PA and its use: paid with its PA, used only where deducted, refunded only by a refunded refund. */
async function deposits(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ id: string; name: string | null; depositStatus: string; paName: string | null; paymentStatus: string | null; total: string | null; received: string; deducted: boolean; refunded: boolean }>(
    `select d.id, d.name, d."depositStatus", pa.name as "paName", pa."paymentStatus", pa."paymentSummaryStatic"->>'totalPayable' as total, ${RECEIVED("pa.id")}::text as received,
       exists (select 1 from payment_advices p2 where p2.status <> 'deleted' and p2."paymentStatus" in ${LIVE}
                 and jsonb_path_exists(p2."classInformations", '$[*].deductedDeposit[*] ? (@.depositId == $id)', jsonb_build_object('id', d.id::text))) as deducted,
       exists (select 1 from refunds rf where rf.status <> 'deleted' and rf."refundStatus" = 'refunded' and rf."depositIds" ? d.id::text) as refunded
     from deposits d left join payment_advices pa on pa.id = d."paymentAdviceId" where d.status <> 'deleted' and ${only(students, 'd."studentId"')} order by d.name`,
    params(students),
  );
  const out: Difference[] = [];
  for (const d of rows) {
    const received = cents(d.received);
    const paPaid = ["paid", "overpaid"].includes(d.paymentStatus ?? "") && received > 0 && received >= cents(d.total);
    const expected = d.deducted ? "used" : d.refunded ? "refunded" : paPaid ? "paid" : "issued";
    if (d.depositStatus !== expected) {
      out.push({ check: "deposit status agrees", subject: d.name ?? d.id, message: `${d.depositStatus}, but ${d.paName ?? "its payment advice"} is ${d.paymentStatus ?? "missing"} with ${money(received)} received of ${money(cents(d.total))}${d.deducted ? ", deducted on a payment advice" : ""}${d.refunded ? ", refunded" : ""}: it should be ${expected}` });
    }
  }
  return out;
}

const NUMBERED = ["payment_advices", "invoices", "receipts", "credit_notes", "refunds", "deposits"] as const;

/**
 * Per company and series (prefix, company code, year): no number issued twice, none missing up to the last. Counted
 * in the database; only a series that fails the count is read number by number, to name them. Scoped: the series
 * the students' documents are numbered in (a gap is the company's, whoever's document it is).
 */
async function numbers(db: Queryable, students: Students): Promise<Difference[]> {
  const named = NUMBERED.map((t) => `select "companyId", "studentId", regexp_match(name, '^([A-Z]+-.+-[0-9]{4})-([0-9]+)$') as m from ${t} where name is not null`).join(" union all ");
  const { rows } = await db.query<{ series: string; numbers: string[] }>(
    `with named as (select "companyId", "studentId", m[1] as series, m[2]::numeric as n from (${named}) x where m is not null),
     series as (
       select "companyId", series from named
       where ${students ? `("companyId", series) in (select "companyId", series from named where ${only(students, '"studentId"')})` : "true"}
       group by 1, 2 having count(*) <> count(distinct n) or count(distinct n) <> max(n)
     )
     select s.series, array_agg(x.n::text) as numbers from series s join named x on x."companyId" = s."companyId" and x.series = s.series group by s."companyId", s.series`,
    params(students),
  );
  const out: Difference[] = [];
  for (const r of rows) {
    const series = r.series;
    const seen = new Map<number, number>();
    for (const n of r.numbers.map(Number)) seen.set(n, (seen.get(n) ?? 0) + 1);
    const max = Math.max(...seen.keys());
    const number = (n: number) => `${series}-${String(n).padStart(5, "0")}`;
    for (const [n, count] of seen) if (count > 1) out.push({ check: "numbers: no duplicate", subject: number(n), message: `issued ${count} times` });
    const missing = [];
    for (let n = 1; n <= max; n++) if (!seen.has(n)) missing.push(n);
    if (missing.length) out.push({ check: "numbers: no gap", subject: series, message: `missing ${missing.length > 10 ? `${missing.slice(0, 10).map(number).join(", ")} and ${missing.length - 10} more` : missing.map(number).join(", ")}` });
  }
  return out;
}

/** Per class, student and month: the attendance report's stored counts = the lessons_students rows they count. */
async function attendanceMonths(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ classId: string; studentId: string; month: string; stored: string; counted: string }>(
    `with counted as (
       select l."classId", ls."studentId", date_trunc('month', l.date)::date as month, count(*)::int as lessons, count(*) filter (where ${ATTENDED_SEAT})::int as attended
       from lessons l join lessons_students ls on ls."lessonId" = l.id where ${COUNTED_SEAT} and ${only(students, 'ls."studentId"')} group by 1, 2, 3),
     stored as (select m."classId", m."studentId", m.month, m.lessons, m.attended from app_internal.attendance_months m where m.lessons <> 0 and ${only(students, 'm."studentId"')})
     select "classId", "studentId", to_char(month, 'YYYY-MM') as month, coalesce(s.lessons || ' lessons, ' || s.attended || ' attended', 'none') as stored,
       coalesce(c.lessons || ' lessons, ' || c.attended || ' attended', 'none') as counted
     from stored s full join counted c using ("classId", "studentId", month)
     where (s.lessons, s.attended) is distinct from (c.lessons, c.attended)`,
    params(students),
  );
  return rows.map((r) => ({ check: "attendance report's monthly counts = the seats", subject: r.studentId, message: `class ${r.classId}, ${r.month}: ${r.stored} stored, ${r.counted} counted` }));
}

/** Per class, student and month: the attendance report's yearly rows (migration 1763700822000) = its monthly counts. */
async function attendanceYears(db: Queryable, students: Students): Promise<Difference[]> {
  const { rows } = await db.query<{ classId: string; studentId: string; month: string; yearly: string; monthly: string }>(
    `with yearly as (
       select y."classId", y."studentId", make_date(y.year, i, 1) as month, (array[y.l1, y.l2, y.l3, y.l4, y.l5, y.l6, y.l7, y.l8, y.l9, y.l10, y.l11, y.l12])[i] as lessons,
         (array[y.a1, y.a2, y.a3, y.a4, y.a5, y.a6, y.a7, y.a8, y.a9, y.a10, y.a11, y.a12])[i] as attended
       from app_internal.attendance_years y cross join generate_series(1, 12) i where ${only(students, 'y."studentId"')}),
     monthly as (select m."classId", m."studentId", m.month, m.lessons, m.attended from app_internal.attendance_months m where ${only(students, 'm."studentId"')})
     select "classId", "studentId", to_char(month, 'YYYY-MM') as month, coalesce(y.lessons || ' lessons, ' || y.attended || ' attended', 'none') as yearly,
       coalesce(m.lessons || ' lessons, ' || m.attended || ' attended', 'none') as monthly
     from (select * from yearly where lessons <> 0 or attended <> 0) y full join (select * from monthly where lessons <> 0 or attended <> 0) m using ("classId", "studentId", month)
     where (y.lessons, y.attended) is distinct from (m.lessons, m.attended)`,
    params(students),
  );
  return rows.map((r) => ({ check: "attendance report's yearly rows = its monthly counts", subject: r.studentId, message: `class ${r.classId}, ${r.month}: ${r.yearly} in the year's row, ${r.monthly} in the month's` }));
}

/** Per issue day, company, branch, status and due date: the PA listing's stored sums = the listed PAs and their live invoices (always whole: a group is not one student's). */
async function paListingDays(db: Queryable): Promise<Difference[]> {
  const { rows } = await db.query<{ day: string; paymentStatus: string; stored: string; counted: string }>(
    `with counted as (
       select p."issueDate", p."companyId", p."branchId", p."paymentStatus", p."dueDate", count(*)::int as pas, sum(coalesce(p.summary->>'total', '0')::numeric) as total, coalesce(sum(rc.received), 0) as received
       from payment_advices p left join (select i."paymentAdviceId", sum(i."paidAmount") as received from invoices i where i."invoiceStatus" <> 'voided' and i.status <> 'deleted' group by 1) rc on rc."paymentAdviceId" = p.id
       where p.status = 'active' and p."paymentStatus" <> 'draft' and p."issueDate" is not null group by 1, 2, 3, 4, 5),
     stored as (select * from app_internal.pa_listing_days where pas <> 0 or total <> 0 or received <> 0)
     select "issueDate"::text as day, "paymentStatus", coalesce(s.pas || ' PAs, ' || s.total || ' total, ' || s.received || ' received', 'none') as stored,
       coalesce(c.pas || ' PAs, ' || c.total || ' total, ' || c.received || ' received', 'none') as counted
     from stored s full join counted c using ("issueDate", "companyId", "branchId", "paymentStatus", "dueDate")
     where (s.pas, s.total, s.received) is distinct from (c.pas, c.total, c.received)`,
  );
  return rows.map((r) => ({ check: "PA listing's sums per issue day = the PAs", subject: r.day, message: `${r.paymentStatus}: ${r.stored} stored, ${r.counted} counted` }));
}

/** The revenue report's stored sums (app_internal.revenue_summary) = the journal lines they sum; a whole check (the sums are not per student). */
async function revenueSummary(db: Queryable, students: Students): Promise<Difference[]> {
  if (students !== null) return [];
  const { rows } = await db.query<{ issueDate: string; programme: string | null; month: string | null; billed: string; credited: string; recognised: string }>(
    `with both_sides as (
       select "companyId", "issueDate", "programId", fees, "revenueMonth", billed, credited, recognised from app_internal.revenue_summary
       union all
       select pa."companyId", pa."issueDate", c."programId", l."classId" is null, l."revenueMonth",
         -coalesce(sum(l.credit - l.debit) filter (where l."revenueFigure" = 'billed'), 0), -coalesce(sum(l.debit - l.credit) filter (where l."revenueFigure" = 'credited'), 0),
         -coalesce(sum(l.credit - l.debit) filter (where l.account = 'revenue_recognised'), 0)
       from journal_lines l join journal_entries e on e.id = l."entryId" join payment_advices pa on pa.id = e."documentId" left join classes c on c.id = l."classId"
       where e.operation = 'revenue_recognised' and e."documentType" = 'payment_advice' and pa."issueDate" is not null and (l."revenueFigure" is not null or l.account = 'revenue_recognised')
       group by 1, 2, 3, 4, 5
     )
     select b."issueDate"::text as "issueDate", case when b.fees then 'fees' else p.name end as programme, to_char(b."revenueMonth", 'YYYY-MM') as month,
       sum(b.billed)::text as billed, sum(b.credited)::text as credited, sum(b.recognised)::text as recognised
     from both_sides b left join programs p on p.id = b."programId"
     group by b."companyId", b."issueDate", b."programId", b.fees, b."revenueMonth", p.name having sum(b.billed) <> 0 or sum(b.credited) <> 0 or sum(b.recognised) <> 0`,
  );
  return rows.map((r) => ({
    check: "revenue report's sums = the ledger lines",
    subject: `${r.issueDate} ${r.programme ?? "--"} ${r.month ?? "No lessons"}`,
    message: `stored minus the lines: billed ${r.billed}, credited ${r.credited}, recognised ${r.recognised}`,
  }));
}

/**
 * Every difference found, in the order of the checks. `students`: only their documents and balances (and the
 * number series their documents are in, whole: a gap is the company's) — the randomised workflow's check after each sequence, with a whole
 * check every so many sequences.
 */
export async function reconcile(db: Queryable, students: Students = null): Promise<Difference[]> {
  const out: Difference[] = [];
  for (const check of [unbalancedEntries, paymentAdvices, revenueRecognised, lessonCaps, receipts, creditNotesAndRefunds, studentBalances, deposits, invoices, numbers, attendanceMonths, attendanceYears, paListingDays, revenueSummary]) out.push(...(await check(db, students)));
  return out;
}

export function formatDifference(d: Difference): string {
  return `[${d.check}] ${d.subject}: ${d.message}`;
}
