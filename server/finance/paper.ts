/**
 * The printable paper of a payment advice (spec part 2 §2): its data for the browser page, and a real
 * A4 PDF (pdfmake on the server with the standard Helvetica fonts) with the company's logo, name, UEN
 * and GST registration number, the PA number, student and parent, class lines with terms and lessons,
 * the summary, the PA notes and, while there is something to pay, a PayNow QR code of the balance due with the
 * PA number as its reference (src/domain/finance/paynow.ts). The PDF is laid out in a worker thread
 * (pdfMaker.ts): here it is only described.
 */
import type { Content, TableCell } from "pdfmake/interfaces";
import QRCode from "qrcode";
import sanitizeHtml from "sanitize-html";
import type { Queryable } from "../db/index.ts";
import type { MediaService } from "../media/index.ts";
import { centsToNumeric, formatMoney, numericToCents } from "../../src/domain/money.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT, todayInSingapore } from "../../src/domain/dates.ts";
import { payNowPayload, payNowRequestFor } from "../../src/domain/finance/paynow.ts";
import { documentNumberLabel } from "../../src/domain/finance/documentNumber.ts";
import { valueLabel } from "../../src/domain/enumLabels.ts";
import { GST_LABELS, NEGATIVE_FIGURES, SUMMARY_FIGURES, SUMMARY_LABELS } from "../../src/domain/finance/summary.ts";
import type { PaymentAdvicePaper } from "../../src/domain/finance/paymentAdviceApi.ts";
import { paperClassLines } from "../../src/domain/finance/paperLines.ts";
import { getPaymentAdvice } from "./paymentAdvices.ts";
import type { PdfDocument, PdfMaker } from "./pdfMaker.ts";

export async function paperData(db: Queryable, id: string): Promise<PaymentAdvicePaper> {
  const pa = await getPaymentAdvice(db, id);
  const { rows: companies } = await db.query<PaymentAdvicePaper["company"]>(
    `select id, name, "shortName", address, uen, "payNowUen", "hasGstNo", "gstRefNo", "telNo", "logoUrl", "colorCode" from companies where id = $1`,
    [pa.companyId],
  );
  const { rows: branches } = await db.query<NonNullable<PaymentAdvicePaper["branch"]>>(`select id, name, address from branches where id = $1`, [pa.branchId]);
  const { rows: students } = await db.query<PaymentAdvicePaper["student"] & { parents: Array<Record<string, unknown>> | null }>(
    `select u.id, coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", ''))) as "fullName", u.username,
       s.name as "schoolName", l.name as "levelName", u.parents
     from users u left join schools s on s.id = u."schoolId" left join levels l on l.id = u."levelId" where u.id = $1`,
    [pa.studentId],
  );
  const s = students[0]!;
  const parent = primaryParent(s.parents);
  const company = companies[0]!;
  const payNow = payNowRequestFor(
    { name: pa.name, paymentStatus: pa.paymentStatus, totalPayable: numericToCents(pa.paymentSummaryStatic.totalPayable) ?? 0, amountReceived: numericToCents(pa.amountReceived) ?? 0, qrExpiryDate: pa.qrExpiryDate },
    company,
    todayInSingapore(),
  );
  return {
    paymentAdvice: pa,
    company,
    branch: branches[0] ?? null,
    student: { id: s.id, fullName: s.fullName, username: s.username, schoolName: s.schoolName, levelName: s.levelName },
    parent,
    payNow: payNow && { uen: payNow.uen, amount: centsToNumeric(payNow.amount), expiry: payNow.expiry, reference: payNow.reference },
    qrText: pa.name,
    // quiet zone of 4 modules, as the QR standard asks: banking apps read it from a screen or paper more surely
    qrCodeDataUrl: payNow ? await QRCode.toDataURL(payNowPayload(payNow), { errorCorrectionLevel: "M", margin: 4, width: 240 }) : null,
    pdfUrl: `/api/v2/finances/payment-advices/${pa.id}/paper?format=pdf`,
  };
}

export function primaryParent(parents: Array<Record<string, unknown>> | null): PaymentAdvicePaper["parent"] {
  if (!Array.isArray(parents) || !parents.length) return null;
  const p = [...parents].sort((a, b) => Number(Boolean(b.primaryContact)) - Number(Boolean(a.primaryContact)))[0]!;
  const phone = p.phone as { code?: string; number?: string } | string | undefined;
  return { name: parentName(p), email: (p.email as string) ?? null, phone: typeof phone === "string" ? phone : phone?.number ? `${phone.code ?? ""} ${phone.number}`.trim() : null };
}

export const parentName = (p: Record<string, unknown>): string | null =>
  (p.fullName as string) || [p.firstName, p.lastName].filter(Boolean).join(" ") || (p.name as string) || null;

const money = (v: string | number) => formatMoney(numericToCents(v) ?? 0);
const day = (v: string | null) => (v ? formatCalendarDay(v, DISPLAY_DATE_FORMAT) : "--");
/** The PA notes are rich text: the paper prints their text, a paragraph per block. */
export const htmlToText = (html: string | null) =>
  sanitizeHtml((html ?? "").replace(/<\/(p|li|h\d|div)>|<br\s*\/?>/gi, "\n"), { allowedTags: [], allowedAttributes: {} }).replace(/&amp;/g, "&").replace(/&nbsp;/g, " ").replace(/\n{3,}/g, "\n\n").trim();

export async function logoImage(media: MediaService | undefined, logoUrl: string | null): Promise<string | null> {
  const key = logoUrl ? /[?&]key=([^&]+)/.exec(logoUrl)?.[1] : undefined;
  if (!media || !key) return null;
  try {
    const file = await media.read(decodeURIComponent(key));
    if (!/^image\/(png|jpeg)$/.test(file.type.contentType)) return null;
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    return `data:${file.type.contentType};base64,${Buffer.concat(chunks).toString("base64")}`;
  } catch {
    return null;
  }
}

export async function paperPdf(paper: PaymentAdvicePaper, pdf: PdfMaker, media?: MediaService): Promise<Buffer> {
  const pa = paper.paymentAdvice;
  const c = paper.company;
  const colour = /^#[0-9a-f]{6}$/i.test(c.colorCode ?? "") ? c.colorCode! : "#1f3b73";
  const logo = await logoImage(media, c.logoUrl);
  const logoCell: Content = logo
    ? { image: logo, fit: [90, 60] }
    : { table: { widths: [60], body: [[{ text: c.shortName ?? c.name.slice(0, 3), color: "#ffffff", fillColor: colour, bold: true, fontSize: 16, alignment: "center", margin: [0, 14, 0, 14] }]] }, layout: "noBorders" };
  const companyLines = companyHeaderLines(c);
  const classRows: TableCell[][] = [[{ text: "Class", bold: true }, { text: "Term", bold: true }, { text: "Lessons", bold: true, alignment: "right" }, { text: "Unit price", bold: true, alignment: "right" }, { text: "Amount", bold: true, alignment: "right" }]];
  const right = (text: string) => ({ text, alignment: "right" as const });
  for (const l of paperClassLines(pa.classInformations)) {
    if (l.total) classRows.push(["", { text: l.label, bold: true }, "", "", { text: formatMoney(l.amount), bold: true, alignment: "right" }]);
    else classRows.push([l.className ? { text: l.className, bold: true } : "", l.label, l.lessons === null ? "" : right(String(l.lessons)), l.unitPrice === null ? "" : right(formatMoney(l.unitPrice)), right(formatMoney(l.amount))]);
  }
  const s = pa.paymentSummaryStatic;
  const summaryRows: TableCell[][] = SUMMARY_FIGURES.map((k) => {
    const label = k === "gst" ? `GST (${GST_LABELS[s.gstConfig.percentage] ?? `${s.gstConfig.percentage}%`})` : SUMMARY_LABELS[k];
    const value = NEGATIVE_FIGURES.has(k) && (numericToCents(s[k]) ?? 0) > 0 ? `-${money(s[k])}` : money(s[k]);
    const strong = k === "totalPayable";
    return [{ text: label, bold: strong }, { text: value, bold: strong, alignment: "right" }];
  });
  const student = paper.student;
  const parent = paper.parent;
  const doc: PdfDocument["doc"] = {
    pageSize: "A4",
    pageMargins: [40, 40, 40, 50],
    defaultStyle: { font: "Helvetica", fontSize: 9 },
    info: { title: `Payment Advice ${documentNumberLabel(pa.name)}`, author: c.name },
    content: [
      { columns: [{ width: 100, stack: [logoCell] }, { width: "*", stack: companyLines }, { width: 120, stack: [{ text: "PAYMENT ADVICE", bold: true, fontSize: 14, color: colour, alignment: "right" }, { text: documentNumberLabel(pa.name), bold: true, fontSize: 11, alignment: "right" }, { text: valueLabel("payment_advices", "paymentStatus", pa.displayStatus), alignment: "right" }] }], columnGap: 10 },
      { canvas: [{ type: "line", x1: 0, y1: 6, x2: 515, y2: 6, lineWidth: 1, lineColor: colour }], margin: [0, 4, 0, 8] },
      {
        columns: [
          { width: "*", stack: [{ text: "Student", bold: true }, student.fullName, student.username ? `Username: ${student.username}` : "", student.schoolName ? `School: ${student.schoolName}` : "", student.levelName ? `Level: ${student.levelName}` : "",
            { text: "Parent", bold: true, margin: [0, 6, 0, 0] }, parent?.name ?? "--", parent?.email ?? "", parent?.phone ?? ""].filter((x) => x !== "") as Content[] },
          { width: 200, table: { widths: [80, "*"], body: [["Issue date", day(pa.issueDate)], ["Due date", day(pa.dueDate)], ["Issued branch", paper.branch?.name ?? "--"], ["QR expiry date", day(pa.qrExpiryDate)], ["AXS code", pa.axsCode ?? "--"]] }, layout: "noBorders" },
        ],
      },
      { text: "Class Fee", bold: true, fontSize: 11, margin: [0, 12, 0, 4] },
      { table: { headerRows: 1, widths: ["*", 120, 45, 65, 70], body: classRows }, layout: "lightHorizontalLines" },
      {
        columns: [
          { width: "*", stack: payNowBlock(paper) },
          { width: 220, table: { widths: ["*", 90], body: summaryRows }, layout: "lightHorizontalLines" },
        ],
        margin: [0, 14, 0, 0],
      },
      ...(pa.remarks ? [{ text: "Remarks", bold: true, margin: [0, 12, 0, 2] } as Content, { text: pa.remarks } as Content] : []),
      ...(pa.notes ? [{ text: "Notes", bold: true, margin: [0, 12, 0, 2] } as Content, { text: htmlToText(pa.notes) } as Content] : []),
    ],
  };
  return pdf.render({ doc, footerText: `${c.name} · ${documentNumberLabel(pa.name)}` });
}

/** Beside the summary: the PayNow QR with what it pays and its reference, or the reference alone when nothing is payable by QR. */
function payNowBlock(paper: PaymentAdvicePaper): Content[] {
  const p = paper.payNow;
  if (!paper.qrText) return [{ text: "Draft: no reference yet", italics: true }];
  if (!p || !paper.qrCodeDataUrl) return [{ text: "Reference", bold: true }, paper.qrText];
  return [
    { text: "Pay by PayNow", bold: true, margin: [0, 0, 0, 4] },
    { image: paper.qrCodeDataUrl, width: 110 },
    { text: `Reference: ${p.reference}`, bold: true },
    `UEN: ${p.uen}`,
    `Amount: ${money(p.amount)}`,
    ...(p.expiry ? [`Valid until ${day(p.expiry)}`] : []),
  ];
}

/** The company block at the head of every paper: name, address, UEN, GST registration, telephone. */
export function companyHeaderLines(c: { name: string; address: string | null; uen: string | null; hasGstNo: boolean | null; gstRefNo: string | null; telNo: string | null }): Content[] {
  return [
    { text: c.name, bold: true, fontSize: 13 },
    c.address ?? "",
    `UEN: ${c.uen ?? "--"}`,
    c.hasGstNo && c.gstRefNo ? `GST Reg No: ${c.gstRefNo}` : "",
    c.telNo ? `Tel: ${c.telNo}` : "",
  ].filter((x) => x !== "");
}
