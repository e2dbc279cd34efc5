/**
 * Money received under /api/v2 (issue 15; spec part 2 §7 names `POST /finances/invoices`, the rest are
 * ours — docs/DECISIONS.md): issue a PA's invoice (and record a first payment with it), record a payment,
 * void a receipt or an invoice with a reason, the invoice screen's data and the receipt's paper / PDF.
 * Validated with one message per field; rights of FINANCE.md §5 as api:/actions/invoice/<action> lines.
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import type { MediaService } from "../media/index.ts";
import type { PdfMaker } from "../finance/pdfMaker.ts";
import { BOUND_MESSAGES, MAX_DOCUMENT_CENTS } from "../../src/domain/finance/bounds.ts";
import { parseCalendarDay, DATE_FORMAT, todayInSingapore } from "../../src/domain/dates.ts";
import { CARD_TYPES, INVOICE_MESSAGES, PAYMENT_METHODS } from "../../src/domain/finance/invoice.ts";
import { ACTION_METHOD } from "../finance/paymentAdvices.ts";
import { invoiceActionObject, invoiceDetail, issueInvoice, recordPayment, voidInvoice, voidReceipt, type InvoiceActionCheck, type PaymentInput } from "../finance/invoices.ts";
import { receiptPaperData, receiptPdf } from "../finance/receiptPaper.ts";
import { FinanceError } from "../finance/transaction.ts";
import { money, uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";

const payment = z
  .object({
    amount: money(INVOICE_MESSAGES.amountRequired, { max: MAX_DOCUMENT_CENTS, message: BOUND_MESSAGES.payment, negative: INVOICE_MESSAGES.amountPositive }).refine(
      (cents) => cents > 0,
      INVOICE_MESSAGES.amountPositive,
    ),
    paymentMethod: z.enum(PAYMENT_METHODS, { error: INVOICE_MESSAGES.methodRequired }),
    cardType: z.enum(CARD_TYPES, { error: INVOICE_MESSAGES.cardTypeRequired }).nullable().optional(),
    paymentDate: z
      .string({ error: INVOICE_MESSAGES.dateRequired })
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === "") return todayInSingapore();
        const d = parseCalendarDay(v.slice(0, 10));
        if (!d) {
          ctx.addIssue({ code: "custom", message: INVOICE_MESSAGES.dateRequired });
          return z.NEVER;
        }
        return d.format(DATE_FORMAT);
      }),
    referenceNo: z.string().trim().max(200).nullable().optional(),
    creditNoteId: uuid(INVOICE_MESSAGES.creditNoteRequired).nullable().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.paymentMethod === "credit_card" && !p.cardType) ctx.addIssue({ code: "custom", path: ["cardType"], message: INVOICE_MESSAGES.cardTypeRequired });
    if (p.paymentMethod === "credit_note" && !p.creditNoteId) ctx.addIssue({ code: "custom", path: ["creditNoteId"], message: INVOICE_MESSAGES.creditNoteRequired });
  })
  .transform(
    (p): PaymentInput => ({
      amount: p.amount,
      paymentMethod: p.paymentMethod,
      cardType: p.paymentMethod === "credit_card" ? (p.cardType ?? null) : null,
      paymentDate: p.paymentDate,
      referenceNo: p.referenceNo || null,
      creditNoteId: p.paymentMethod === "credit_note" ? (p.creditNoteId ?? null) : null,
    }),
  );

const issueBody = z.object({ paymentAdviceId: uuid("Please select a payment advice."), payment: payment.optional() });
const reasonBody = z.object({ reason: z.string({ error: INVOICE_MESSAGES.reasonRequired }).trim().min(1, INVOICE_MESSAGES.reasonRequired).max(2000) });
const invoiceParams = z.object({ id: uuid(INVOICE_MESSAGES.notFound) });
const receiptParams = z.object({ id: uuid(INVOICE_MESSAGES.receiptNotFound) });

export const invoiceRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService; media: MediaService; pdfMaker: PdfMaker }> = async (app, { ctx, policy, media, pdfMaker }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;
  const can = (request: FastifyRequest): InvoiceActionCheck => (action) => policy.enforce(request.session?.roles ?? [], invoiceActionObject(action), ACTION_METHOD);

  app.post("/finances/invoices", async (request, reply) => {
    const parsed = issueBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const { paymentAdviceId, payment: first } = parsed.data;
    if (first) return runFinance(reply, () => recordPayment(db, { paymentAdviceId }, first, by(request), can(request)), 201);
    return runFinance(reply, async () => ({ invoice: await issueInvoice(db, paymentAdviceId, by(request), can(request)) }), 201);
  });

  app.get("/finances/invoices/:id", async (request, reply) => {
    const params = invoiceParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    return runFinance(reply, () => invoiceDetail(db, params.data.id));
  });

  app.post("/finances/invoices/:id/payments", async (request, reply) => {
    const params = invoiceParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = payment.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => recordPayment(db, { invoiceId: params.data.id }, parsed.data, by(request), can(request)), 201);
  });

  app.post("/finances/invoices/:id/void", async (request, reply) => {
    const params = invoiceParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = reasonBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => voidInvoice(db, params.data.id, parsed.data.reason, by(request), can(request)));
  });

  app.post("/finances/receipts/:id/void", async (request, reply) => {
    const params = receiptParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = reasonBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => voidReceipt(db, params.data.id, parsed.data.reason, by(request), can(request)));
  });

  app.get("/finances/receipts/:id/paper", async (request, reply) => {
    const params = receiptParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    if ((request.query as { format?: string } | undefined)?.format !== "pdf") return runFinance(reply, () => receiptPaperData(db, params.data.id));
    try {
      const paper = await receiptPaperData(db, params.data.id);
      const pdf = await receiptPdf(paper, pdfMaker, media);
      return reply.header("Content-Type", "application/pdf").header("Content-Disposition", `attachment; filename="${paper.receipt.name}.pdf"`).header("Cache-Control", "no-store").send(pdf);
    } catch (e) {
      if (e instanceof FinanceError) return reply.code(e.status).send({ success: false, message: e.message });
      throw e;
    }
  });
};
