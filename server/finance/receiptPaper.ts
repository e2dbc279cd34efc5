/**
 * The printable receipt (issue 15): its data for the browser page and an A4 PDF made like the PA paper
 * (company header, receipt number, student, the payment, the invoice it settles and what is left to pay),
 * laid out in a worker thread (pdfMaker.ts).
 */
import type { Queryable } from "../db/index.ts";
import type { MediaService } from "../media/index.ts";
import { centsToNumeric, formatMoney, numericToCents } from "../../src/domain/money.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT } from "../../src/domain/dates.ts";
import { balanceOf, paymentMethodLabel, type ReceiptPaper } from "../../src/domain/finance/invoice.ts";
import { companyHeaderLines, logoImage } from "./paper.ts";
import type { PdfDocument, PdfMaker } from "./pdfMaker.ts";
import { FinanceError } from "./transaction.ts";
import { INVOICE_MESSAGES } from "../../src/domain/finance/invoice.ts";

export async function receiptPaperData(db: Queryable, receiptId: string): Promise<ReceiptPaper> {
  const { rows } = await db.query<ReceiptPaper & { found: boolean }>(
    `select json_build_object('id', r.id, 'name', r.name, 'receiptDate', r."receiptDate"::text, 'amount', r.amount::text, 'paymentMethod', r."paymentMethod",
         'cardType', r."cardType", 'referenceNo', p."referenceNo", 'status', r.status, 'voidReason', r."voidReason") as receipt,
       json_build_object('id', i.id, 'name', i.name, 'total', i.total::text, 'paidAmount', i."paidAmount"::text, 'invoiceStatus', i."invoiceStatus") as invoice,
       json_build_object('id', pa.id, 'name', pa.name) as "paymentAdvice",
       json_build_object('name', c.name, 'shortName', c."shortName", 'address', c.address, 'uen', c.uen, 'hasGstNo', c."hasGstNo", 'gstRefNo', c."gstRefNo",
         'telNo', c."telNo", 'logoUrl', c."logoUrl", 'colorCode', c."colorCode") as company,
       case when b.id is null then null else json_build_object('name', b.name) end as branch,
       case when u.id is null then null else json_build_object('id', u.id, 'username', u.username,
         'fullName', coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", '')))) end as student
     from receipts r
       join invoices i on i.id = r."invoiceId"
       join payment_advices pa on pa.id = i."paymentAdviceId"
       join companies c on c.id = r."companyId"
       left join branches b on b.id = r."branchId"
       left join users u on u.id = r."studentId"
       left join lateral (select "referenceNo" from invoice_payments where "receiptId" = r.id order by "createdAt" limit 1) p on true
     where r.id = $1 and r.status <> 'deleted'`,
    [receiptId],
  );
  const row = rows[0];
  if (!row) throw new FinanceError(404, INVOICE_MESSAGES.receiptNotFound);
  const due = balanceOf(numericToCents(row.invoice.total) ?? 0, numericToCents(row.invoice.paidAmount) ?? 0).due;
  return { ...row, balanceDue: centsToNumeric(due) };
}

const money = (v: string) => formatMoney(numericToCents(v) ?? 0);
const day = (v: string | null) => (v ? formatCalendarDay(v, DISPLAY_DATE_FORMAT) : "--");

export async function receiptPdf(paper: ReceiptPaper, pdf: PdfMaker, media?: MediaService): Promise<Buffer> {
  const c = paper.company;
  const r = paper.receipt;
  const colour = /^#[0-9a-f]{6}$/i.test(c.colorCode ?? "") ? c.colorCode! : "#1f3b73";
  const logo = await logoImage(media, c.logoUrl);
  const header = companyHeaderLines(c);
  const doc: PdfDocument["doc"] = {
    pageSize: "A4",
    pageMargins: [40, 40, 40, 50],
    defaultStyle: { font: "Helvetica", fontSize: 10 },
    info: { title: `Receipt ${r.name}`, author: c.name },
    content: [
      {
        columns: [
          { width: 100, stack: [logo ? { image: logo, fit: [90, 60] } : { text: c.shortName ?? "", bold: true, fontSize: 16, color: colour }] },
          { width: "*", stack: header },
          { width: 130, stack: [{ text: r.status === "voided" ? "RECEIPT (VOIDED)" : "OFFICIAL RECEIPT", bold: true, fontSize: 13, color: colour, alignment: "right" }, { text: r.name, bold: true, fontSize: 11, alignment: "right" }] },
        ],
        columnGap: 10,
      },
      { canvas: [{ type: "line", x1: 0, y1: 6, x2: 515, y2: 6, lineWidth: 1, lineColor: colour }], margin: [0, 4, 0, 12] },
      {
        table: {
          widths: [140, "*"],
          body: [
            ["Received from", paper.student ? `${paper.student.fullName}${paper.student.username ? ` (${paper.student.username})` : ""}` : "--"],
            ["Receipt date", day(r.receiptDate)],
            ["Amount received", { text: money(r.amount), bold: true }],
            ["Payment method", paymentMethodLabel(r)],
            ["Reference no.", r.referenceNo ?? "--"],
            ["For invoice", paper.invoice.name],
            ["Payment advice", paper.paymentAdvice.name ?? "--"],
            ["Branch", paper.branch?.name ?? "--"],
            ["Invoice total", money(paper.invoice.total)],
            ["Balance due", money(paper.balanceDue)],
            ...(r.status === "voided" ? [["Voided", r.voidReason ?? ""]] : []),
          ],
        },
        layout: "lightHorizontalLines",
      },
      { text: "This receipt is computer generated; no signature is required.", italics: true, fontSize: 8, margin: [0, 20, 0, 0] },
    ],
  };
  return pdf.render({ doc, footerText: `${c.name} · ${r.name}` });
}
