/**
 * POST /finances/email/unpaid-pa-to-parents: each unpaid (or overdue) PA goes to its student's primary
 * parent by e-mail (another parent's address when the primary contact has none) with the paper as a PDF
 * attachment, through the outbox in one transaction. A PA that is not unpaid, or whose student has no parent
 * e-mail, is skipped with the reason, naming the PA and the student.
 */
import type { Db } from "../db/index.ts";
import type { MediaService } from "../media/index.ts";
import { emailMessage, enqueueMessages, type QueuedMessage } from "../mail/outbox.ts";
import { html, mailBody, type SafeHtml } from "../mail/template.ts";
import type { MailAttachment } from "../mail/transport.ts";
import { formatMoney, numericToCents } from "../../src/domain/money.ts";
import { formatCalendarDay, DISPLAY_DATE_FORMAT } from "../../src/domain/dates.ts";
import type { EmailUnpaidReply, PaymentAdvicePaper } from "../../src/domain/finance/paymentAdviceApi.ts";
import { parentToEmail } from "../../src/domain/students.ts";
import { paperData, paperPdf, parentName } from "./paper.ts";
import type { PdfMaker } from "./pdfMaker.ts";
import { FinanceError } from "./transaction.ts";

export const EMAIL_SKIP = {
  notUnpaid: "Only unpaid payment advices are e-mailed.",
  noParentEmail: (pa: string, student: string) => `${pa} was not e-mailed: no parent of ${student} has an e-mail address.`,
  notFound: "Payment advice not found.",
} as const;

/** The content id of the inline PayNow QR image in the e-mail. */
const PAYNOW_CID = "paynow-qr";

/**
 * What a PA's e-mail carries (the unpaid-PA e-mail, an overdue reminder): the paper as a PDF and, where the PA has a
 * PayNow QR, the QR as an inline image with the paragraph that shows it.
 */
export async function paMailParts(paper: PaymentAdvicePaper, pdfMaker: PdfMaker, media?: MediaService): Promise<{ attachments: MailAttachment[]; payNow: SafeHtml | "" }> {
  const pa = paper.paymentAdvice;
  const pdf = await paperPdf(paper, pdfMaker, media);
  const payNow = paper.payNow && paper.qrCodeDataUrl ? { ...paper.payNow, png: paper.qrCodeDataUrl.replace(/^data:image\/png;base64,/, "") } : null;
  return {
    attachments: [
      { filename: `${pa.name}.pdf`, contentType: "application/pdf", contentBase64: pdf.toString("base64") },
      ...(payNow ? [{ filename: `${pa.name}-paynow.png`, contentType: "image/png", contentBase64: payNow.png, cid: PAYNOW_CID }] : []),
    ],
    payNow: payNow
      ? html`<p>Pay ${formatMoney(numericToCents(payNow.amount) ?? 0)} by PayNow: scan this QR code with your banking app (reference <b>${payNow.reference}</b>, UEN ${payNow.uen}${
          payNow.expiry ? html`, valid until ${formatCalendarDay(payNow.expiry, DISPLAY_DATE_FORMAT)}` : ""
        }).</p><p><img src="cid:${PAYNOW_CID}" alt="PayNow QR code" width="200" height="200"></p>`
      : "",
  };
}

export async function emailUnpaidToParents(db: Db, ids: readonly string[], pdfMaker: PdfMaker, media?: MediaService): Promise<EmailUnpaidReply> {
  const reply: EmailUnpaidReply = { queued: [], skipped: [] };
  const messages: QueuedMessage[] = [];
  for (const id of new Set(ids)) {
    let paper;
    try {
      paper = await paperData(db, id);
    } catch (e) {
      if (e instanceof FinanceError && e.status === 404) {
        reply.skipped.push({ id, reason: EMAIL_SKIP.notFound });
        continue;
      }
      throw e;
    }
    const pa = paper.paymentAdvice;
    if (pa.paymentStatus !== "unpaid") {
      reply.skipped.push({ id, reason: EMAIL_SKIP.notUnpaid });
      continue;
    }
    const { rows: family } = await db.query<{ parents: Array<Record<string, unknown>> | null }>(`select parents from users where id = $1`, [paper.student.id]);
    const parent = parentToEmail(family[0]?.parents);
    if (!parent) {
      reply.skipped.push({ id, reason: EMAIL_SKIP.noParentEmail(pa.name ?? "The payment advice", paper.student.fullName) });
      continue;
    }
    const to = parent.email;
    const { attachments, payNow } = await paMailParts(paper, pdfMaker, media);
    const total = formatMoney(numericToCents(pa.paymentSummaryStatic.totalPayable) ?? 0);
    const due = pa.dueDate ? formatCalendarDay(pa.dueDate, DISPLAY_DATE_FORMAT) : "--";
    const body = mailBody(
      html`<p>Dear ${parentName(parent) ?? "Parent"},</p><p>Please find attached payment advice <b>${pa.name ?? ""}</b> for ${paper.student.fullName}: ${total} due on ${due}.</p>${payNow}<p>${paper.company.name}</p>`,
    );
    messages.push(emailMessage(to, `Payment Advice ${pa.name} for ${paper.student.fullName}`, body, { paymentAdviceId: pa.id, attachments }));
    reply.queued.push({ id, recipient: to });
  }
  await db.transaction((tx) => enqueueMessages(tx, messages));
  return reply;
}
