/**
 * A student's or family's statement (issue 39 §2) from the ledger: its data for the printable page and an A4 PDF
 * laid out like the PA paper (company header, the family, the rows with their running balance, a PayNow QR per
 * outstanding PA). A family is the student and the siblings on their profile — the link the Sibling Discount is
 * given on (profiles keep it on both sides). One company's entries per statement (each company keeps its own books).
 */
import type { Content, TableCell } from "pdfmake/interfaces";
import QRCode from "qrcode";
import type { Queryable } from "../db/index.ts";
import type { MediaService } from "../media/index.ts";
import { centsToNumeric, formatMoney, numericToCents } from "../../src/domain/money.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT, todayInSingapore } from "../../src/domain/dates.ts";
import { payNowPayload, payNowRequestFor } from "../../src/domain/finance/paynow.ts";
import type { LedgerLine, LedgerOperation } from "../../src/domain/finance/ledger.ts";
import { statementRows, type StatementPaper } from "../../src/domain/finance/statement.ts";
import { cents } from "./ledger.ts";
import { companyHeaderLines, logoImage, primaryParent } from "./paper.ts";
import type { PdfDocument, PdfMaker } from "./pdfMaker.ts";
import { FinanceError } from "./transaction.ts";

export const STATEMENT_MESSAGES = { studentNotFound: "Student not found.", noEntries: "This student has no finance records yet." } as const;

const NAME_SQL = `coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", '')))`;
/** PayNow QRs on one statement at most (a family rarely has more outstanding PAs; the rest are on their own papers). */
const MAX_QR = 12;

/** The student and, for a family, the siblings on their profile (existing students only). */
export async function familyOf(db: Queryable, studentId: string, family: boolean): Promise<StatementPaper["students"]> {
  const { rows } = await db.query<{ id: string; fullName: string; username: string | null; self: boolean }>(
    `select u.id, ${NAME_SQL} as "fullName", u.username, u.id = $1 as self from users u
     where u.type = 'student' and (u.id = $1 or ($2 and u.id in (select (s->>'id')::uuid from users me, jsonb_array_elements(coalesce(me.siblings, '[]'::jsonb)) s
       where me.id = $1 and s->>'id' ~ '^[0-9a-fA-F-]{36}$')))
     order by u.id <> $1, ${NAME_SQL}, u.id`,
    [studentId, family],
  );
  if (!rows.some((r) => r.self)) throw new FinanceError(404, STATEMENT_MESSAGES.studentNotFound);
  return rows.map(({ id, fullName, username }) => ({ id, fullName, username }));
}

export async function statementData(db: Queryable, studentId: string, options: { family: boolean; companyId?: string }): Promise<StatementPaper> {
  const students = await familyOf(db, studentId, options.family);
  const ids = students.map((s) => s.id);
  const { rows: companies } = await db.query<{ id: string; name: string }>(
    `select c.id, c.name from companies c where c.id in (select distinct "companyId" from journal_entries where "studentId" = any($1::uuid[]))
     order by (select max(day) from journal_entries e where e."companyId" = c.id and e."studentId" = any($1::uuid[])) desc, c.name`,
    [ids],
  );
  const companyId = options.companyId && companies.some((c) => c.id === options.companyId) ? options.companyId : companies[0]?.id;
  if (!companyId) throw new FinanceError(404, STATEMENT_MESSAGES.noEntries);
  const { rows: entries } = await db.query<{ day: string; operation: LedgerOperation; documentNumber: string | null; studentId: string; lines: Array<{ account: LedgerLine["account"]; method: string | null; debit: string; credit: string }> }>(
    `select e.day::text as day, e.operation, e."documentNumber", e."studentId",
       (select json_agg(json_build_object('account', l.account, 'method', l.method, 'debit', l.debit::text, 'credit', l.credit::text)) from journal_lines l where l."entryId" = e.id) as lines
     from journal_entries e
     where e."studentId" = any($1::uuid[]) and e."companyId" = $2 and e.operation <> 'revenue_recognised'
     order by e.day, e."createdAt", e.id`,
    [ids, companyId],
  );
  const names = new Map(students.map((s) => [s.id, s.fullName]));
  const rows = statementRows(entries.map((e) => ({
    day: e.day, operation: e.operation, documentNumber: e.documentNumber, studentName: names.get(e.studentId) ?? "",
    lines: (e.lines ?? []).map((l) => ({ account: l.account, method: l.method, debit: cents(l.debit), credit: cents(l.credit) })),
  })));
  const { rows: heads } = await db.query<StatementPaper["company"]>(
    `select id, name, "shortName", address, uen, "payNowUen", "hasGstNo", "gstRefNo", "telNo", "logoUrl", "colorCode" from companies where id = $1`,
    [companyId],
  );
  const company = heads[0]! as StatementPaper["company"] & { payNowUen: string | null };
  const { rows: parents } = await db.query<{ parents: Array<Record<string, unknown>> | null }>(`select parents from users where id = $1`, [studentId]);
  const last = rows[rows.length - 1];
  const today = todayInSingapore();
  return {
    company: { id: company.id, name: company.name, shortName: company.shortName, address: company.address, uen: company.uen, hasGstNo: company.hasGstNo, gstRefNo: company.gstRefNo, telNo: company.telNo, logoUrl: company.logoUrl, colorCode: company.colorCode },
    companies,
    family: options.family,
    students,
    parent: primaryParent(parents[0]?.parents ?? null),
    day: today,
    rows: rows.map((r) => ({ ...r, charge: centsToNumeric(r.charge), credit: centsToNumeric(r.credit), balance: centsToNumeric(r.balance), depositsHeld: centsToNumeric(r.depositsHeld) })),
    balance: centsToNumeric(last?.balance ?? 0),
    depositsHeld: centsToNumeric(last?.depositsHeld ?? 0),
    payNow: await payNowOfOutstanding(db, ids, company, today),
    pdfUrl: `/api/v2/finances/statements/${studentId}?format=pdf&family=${options.family ? 1 : 0}&companyId=${companyId}`,
  };
}

/** The outstanding PAs of the family with the company that PayNow can pay, each with its QR (as on its own paper). */
async function payNowOfOutstanding(db: Queryable, ids: string[], company: { id: string; name: string; uen: string | null; payNowUen: string | null }, today: string): Promise<StatementPaper["payNow"]> {
  const { rows } = await db.query<{ id: string; name: string | null; paymentStatus: string; totalPayable: string | null; qrExpiryDate: string | null; received: string }>(
    `select pa.id, pa.name, pa."paymentStatus", pa."paymentSummaryStatic"->>'totalPayable' as "totalPayable", pa."qrExpiryDate"::text as "qrExpiryDate",
       (select coalesce(sum(ip.amount), 0) from invoice_payments ip join invoices i on i.id = ip."invoiceId"
        where i."paymentAdviceId" = pa.id and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success')::text as received
     from payment_advices pa where pa."studentId" = any($1::uuid[]) and pa."companyId" = $2 and pa."paymentStatus" = 'unpaid' and pa.status <> 'deleted'
     order by pa."dueDate", pa.name`,
    [ids, company.id],
  );
  const out: StatementPaper["payNow"] = [];
  for (const r of rows) {
    const p = payNowRequestFor({ name: r.name, paymentStatus: r.paymentStatus, totalPayable: cents(r.totalPayable), amountReceived: cents(r.received), qrExpiryDate: r.qrExpiryDate }, company, today);
    if (!p) continue;
    out.push({ paymentAdviceId: r.id, reference: p.reference, uen: p.uen, amount: centsToNumeric(p.amount), expiry: p.expiry, qrCodeDataUrl: await QRCode.toDataURL(payNowPayload(p), { errorCorrectionLevel: "M", margin: 4, width: 240 }) });
    if (out.length >= MAX_QR) break;
  }
  return out;
}

const money = (v: string) => formatMoney(numericToCents(v) ?? 0);
const day = (v: string | null) => (v ? formatCalendarDay(v, DISPLAY_DATE_FORMAT) : "--");

export async function statementPdf(paper: StatementPaper, pdf: PdfMaker, media?: MediaService): Promise<Buffer> {
  const c = paper.company;
  const colour = /^#[0-9a-f]{6}$/i.test(c.colorCode ?? "") ? c.colorCode! : "#1f3b73";
  const logo = await logoImage(media, c.logoUrl);
  const title = paper.family ? "FAMILY STATEMENT" : "STATEMENT OF ACCOUNT";
  const body: TableCell[][] = [
    ["Date", "Description", "Document", ...(paper.family ? ["Student"] : []), "Charges", "Payments / Credits", "Balance"].map((t, i) => ({ text: t, bold: true, alignment: i >= (paper.family ? 4 : 3) ? "right" : "left" })),
    ...paper.rows.map((r) => [
      day(r.day), r.description, r.documentNumber ?? "--", ...(paper.family ? [r.studentName] : []),
      { text: r.charge === "0.00" ? "" : money(r.charge), alignment: "right" as const },
      { text: r.credit === "0.00" ? "" : money(r.credit), alignment: "right" as const },
      { text: money(r.balance), alignment: "right" as const },
    ]),
  ];
  const widths = paper.family ? [55, "*", 70, 80, 60, 60, 65] : [60, "*", 80, 70, 70, 70];
  const qr: Content[] = paper.payNow.map((p) => ({
    unbreakable: true,
    columns: [{ width: 100, image: p.qrCodeDataUrl, fit: [95, 95] }, { width: "*", stack: [{ text: "Pay by PayNow", bold: true }, `Reference: ${p.reference}`, `UEN: ${p.uen}`, `Amount: ${money(p.amount)}`, ...(p.expiry ? [`Valid until ${day(p.expiry)}`] : [])] }],
    margin: [0, 8, 0, 0],
  }));
  const doc: PdfDocument["doc"] = {
    pageSize: "A4",
    pageMargins: [40, 40, 40, 50],
    defaultStyle: { font: "Helvetica", fontSize: 9 },
    info: { title: `Statement ${paper.students[0]?.fullName ?? ""} ${paper.day}`, author: c.name },
    content: [
      { columns: [{ width: 100, stack: [logo ? { image: logo, fit: [90, 60] } : { text: c.shortName ?? "", bold: true, fontSize: 16, color: colour }] }, { width: "*", stack: companyHeaderLines(c) }, { width: 140, stack: [{ text: title, bold: true, fontSize: 13, color: colour, alignment: "right" }, { text: `As at ${day(paper.day)}`, alignment: "right" }] }], columnGap: 10 },
      { canvas: [{ type: "line", x1: 0, y1: 6, x2: 515, y2: 6, lineWidth: 1, lineColor: colour }], margin: [0, 4, 0, 8] },
      { text: paper.students.map((s) => `${s.fullName}${s.username ? ` (${s.username})` : ""}`).join(", "), bold: true },
      ...(paper.parent ? [{ text: ["Parent: ", paper.parent.name ?? "--", paper.parent.email ? ` · ${paper.parent.email}` : ""].join("") } as Content] : []),
      { table: { headerRows: 1, widths, body }, layout: "lightHorizontalLines", margin: [0, 10, 0, 0] },
      { text: `Balance due: ${money(paper.balance)}`, bold: true, fontSize: 11, alignment: "right", margin: [0, 8, 0, 0] },
      { text: `Deposits held: ${money(paper.depositsHeld)}`, alignment: "right" },
      ...qr,
    ],
  };
  return pdf.render({ doc, footerText: `${c.name} · Statement ${day(paper.day)}` });
}
