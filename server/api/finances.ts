/**
 * The payment advice calls under /api/v2 (spec part 2 §7; payload shapes in
 * src/domain/finance/paymentAdviceApi.ts): schema-validated (400 with one message per field, the spec's
 * texts of part 2 §5), the action rights of FINANCE.md §5 checked against the access policy
 * (api:/actions/payment-advice/<action>), and every change one finance transaction (server/finance).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import type { MediaService } from "../media/index.ts";
import type { PdfMaker } from "../finance/pdfMaker.ts";
import { GST_CHOICES, type GstPercent } from "../../src/domain/finance/summary.ts";
import { PA_MESSAGES } from "../../src/domain/finance/paymentAdviceStatus.ts";
import { PA_FIELD_MESSAGES } from "../finance/paymentAdviceCompose.ts";
import { ACTION_METHOD, deletePaymentAdvice, initPaymentAdvice, paActionObject, savePaymentAdvice, voidPaidPaymentAdvice, voidUnpaidPaymentAdvice, type ActionCheck } from "../finance/paymentAdvices.ts";
import { emailUnpaidToParents } from "../finance/email.ts";
import { paperData, paperPdf } from "../finance/paper.ts";
import { FinanceError } from "../finance/transaction.ts";
import { rememberSuccessStatus } from "../finance/committedAnswer.ts";
import { day, money, uuid, validationError } from "./validation.ts";
import { FORBIDDEN_MESSAGE } from "./guard.ts";

const row = z.object({ name: z.string({ error: PA_FIELD_MESSAGES.rowName }).trim().min(1, PA_FIELD_MESSAGES.rowName).max(200), amount: money(PA_FIELD_MESSAGES.rowAmount) });
const rows = z.array(row).max(50).default([]);
const ids = z.array(uuid()).max(100).default([]);

const classInformation = z.object({
  id: uuid(PA_FIELD_MESSAGES.classUnknown),
  lessonStartDate: day(PA_FIELD_MESSAGES.lessonStartDate),
  termIds: ids,
  discountIds: ids,
  quantityAdditionalLesson: z.number({ error: "Additional lesson must be a number of at least 0." }).int("Additional lesson must be a whole number.").min(0, "Additional lesson must be a number of at least 0.").max(1000).default(0),
  additionalDiscount: money("Invalid amount.").default(0),
  booterClassIds: ids,
  otherPayments: rows,
  deductions: rows,
  deposits: rows,
    // The amount of a deducted deposit is the deposit's own (read by the server); what the browser sends is ignored.
  deductedDeposit: z
    .array(z.object({ name: z.string().trim().max(200).default("Deposit"), amount: z.unknown().optional(), depositId: uuid("Please select a deposit.") }).transform((d) => ({ name: d.name, depositId: d.depositId, amount: 0 })))
    .max(20)
    .default([]),
  isDeductedDeposit: z.boolean().default(false),
});

const gst = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = Number(v);
  if (!(GST_CHOICES as readonly number[]).includes(n)) {
    ctx.addIssue({ code: "custom", message: "GST must be No GST, 7%, 8% or 9%." });
    return z.NEVER;
  }
  return n as GstPercent;
});

const fields = {
  studentId: uuid(PA_FIELD_MESSAGES.student),
  companyId: uuid(PA_FIELD_MESSAGES.company),
  branchId: uuid(PA_FIELD_MESSAGES.branch).nullable().optional().transform((v) => v ?? null),
  issueDate: day(PA_FIELD_MESSAGES.issueDate),
  dueDate: day(PA_FIELD_MESSAGES.dueDate),
  qrExpiryDate: day(PA_FIELD_MESSAGES.qrExpiryDate),
  hasExpiryDate: z.boolean().default(false),
  axsCode: z.string().trim().max(50).nullable().optional().transform((v) => v || null),
  isRegistrationFee: z.boolean().default(false),
  gst: gst.default(0),
  remarks: z.string().max(5000).nullable().optional().transform((v) => v ?? null),
  notes: z.string().max(100_000).nullable().optional().transform((v) => v ?? null),
  classInformations: z.array(classInformation).max(30).default([]),
};
const initBody = z.object({ ...fields, gst: gst.optional(), notes: z.string().max(100_000).nullable().optional() });
const updateBody = z.object({ ...fields, action: z.enum(["save", "issue"], { error: 'The action is "save" or "issue".' }), updatedAt: z.string({ error: PA_MESSAGES.stale }).min(1, PA_MESSAGES.stale) });
const voidBody = z.object({ id: uuid(PA_MESSAGES.notFound), reason: z.string({ error: PA_MESSAGES.reasonRequired }).trim().min(1, PA_MESSAGES.reasonRequired).max(2000), updatedAt: z.string({ error: PA_MESSAGES.stale }).min(1, PA_MESSAGES.stale) });
const emailBody = z.object({ paymentAdviceIds: z.array(uuid()).min(1, "Select at least one payment advice.").max(200) });
const idParams = z.object({ id: uuid(PA_MESSAGES.notFound) });

function actionCheck(policy: PolicyService, request: FastifyRequest): ActionCheck {
  return (action) => policy.enforce(request.session?.roles ?? [], paActionObject(action), ACTION_METHOD);
}

/** Runs a finance call: `{ success, data }`, or the refusal's status and message (one per field when given). */
export async function runFinance<T>(reply: FastifyReply, work: () => Promise<T>, status = 200) {
  rememberSuccessStatus(status);
  try {
    const data = await work();
    return reply.code(status).send({ success: true, data });
  } catch (e) {
    if (e instanceof FinanceError) return reply.code(e.status).send({ success: false, message: e.message, ...(e.errors ? { errors: e.errors } : {}) });
    throw e;
  }
}

export const financeRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService; media: MediaService; pdfMaker: PdfMaker }> = async (app, { ctx, policy, media, pdfMaker }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;

  app.post("/finances/payment-advices/init", async (request, reply) => {
    const parsed = initBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => initPaymentAdvice(db, parsed.data, by(request), actionCheck(policy, request)), 201);
  });

  app.put("/finances/payment-advices/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = updateBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => savePaymentAdvice(db, params.data.id, parsed.data, by(request), actionCheck(policy, request)));
  });

  app.delete("/finances/payment-advices/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const q = z.object({ updatedAt: z.string({ error: PA_MESSAGES.stale }).min(1, PA_MESSAGES.stale) }).safeParse(request.query ?? {});
    if (!q.success) return validationError(reply, q.error);
    return runFinance(reply, () => deletePaymentAdvice(db, params.data.id, q.data.updatedAt, by(request), actionCheck(policy, request)));
  });

  app.get("/finances/payment-advices/:id/paper", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const format = (request.query as { format?: string } | undefined)?.format;
    if (format !== "pdf") return runFinance(reply, () => paperData(db, params.data.id));
    try {
      const paper = await paperData(db, params.data.id);
      const pdf = await paperPdf(paper, pdfMaker, media);
      const file = `${paper.paymentAdvice.name ?? "PA-Draft"}.pdf`;
      return reply.header("Content-Type", "application/pdf").header("Content-Disposition", `attachment; filename="${file}"`).header("Cache-Control", "no-store").send(pdf);
    } catch (e) {
      if (e instanceof FinanceError) return reply.code(e.status).send({ success: false, message: e.message });
      throw e;
    }
  });

  app.post("/finances/payment-advices/void-unpaid", async (request, reply) => {
    const parsed = voidBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => voidUnpaidPaymentAdvice(db, parsed.data, by(request), actionCheck(policy, request)));
  });

  app.patch("/finances/payment-advices/void-paid-pa", async (request, reply) => {
    const parsed = voidBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => voidPaidPaymentAdvice(db, parsed.data, by(request), actionCheck(policy, request)));
  });

  app.post("/finances/email/unpaid-pa-to-parents", async (request, reply) => {
    const parsed = emailBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    if (!(await actionCheck(policy, request)("email-unpaid"))) return reply.code(403).send({ success: false, message: FORBIDDEN_MESSAGE });
    return runFinance(reply, () => emailUnpaidToParents(db, parsed.data.paymentAdviceIds, pdfMaker, media));
  });
};
