/**
 * Issue 39 §2–4 under /api/v2: a student's or family's statement (JSON for the page, ?format=pdf for the PDF),
 * the overdue reminders tomorrow's run will send and the Hold toggle, and the ledger's export to accounting.
 * Roles come from the access policy's api: lines; refusals are FinanceError's status and message.
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { MediaService } from "../media/index.ts";
import type { PdfMaker } from "../finance/pdfMaker.ts";
import { statementData, statementPdf, STATEMENT_MESSAGES } from "../finance/statement.ts";
import { setReminderHold, upcomingReminders } from "../finance/reminders.ts";
import { accountingExport } from "../finance/accountingExport.ts";
import { FinanceError } from "../finance/transaction.ts";
import { EXPORT_MESSAGES } from "../../src/domain/finance/accountingExport.ts";
import { REMINDER_MESSAGES } from "../../src/domain/finance/reminders.ts";
import { requiredDay, uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";

const statementParams = z.object({ studentId: uuid(STATEMENT_MESSAGES.studentNotFound) });
const statementQuery = z.object({
  family: z.enum(["0", "1", "true", "false"]).optional().transform((v) => v === "1" || v === "true"),
  companyId: uuid("Invalid company.").optional(),
  format: z.enum(["json", "pdf"]).optional(),
});
const holdParams = z.object({ paymentAdviceId: uuid(REMINDER_MESSAGES.notFound) });
const holdBody = z.object({ held: z.boolean({ error: "Say whether the reminders are held (true or false)." }) });
const exportQuery = z.object({
  companyId: uuid(EXPORT_MESSAGES.company),
  from: requiredDay(EXPORT_MESSAGES.badRange),
  to: requiredDay(EXPORT_MESSAGES.badRange),
  format: z.enum(["xero", "lines"], { error: 'The format is "xero" or "lines".' }).default("xero"),
  /** Which file of a Xero export in parts (1 = the first). */
  part: z.coerce.number({ error: "The part is a whole number from 1." }).int({ error: "The part is a whole number from 1." }).min(1, { error: "The part is a whole number from 1." }).optional(),
});

export const statementRoutes: FastifyPluginAsync<{ ctx: ServerContext; media: MediaService; pdfMaker: PdfMaker }> = async (app, { ctx, media, pdfMaker }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;

  app.get("/finances/statements/:studentId", async (request, reply) => {
    const params = statementParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const query = statementQuery.safeParse(request.query ?? {});
    if (!query.success) return validationError(reply, query.error);
    const options = { family: query.data.family, companyId: query.data.companyId };
    if (query.data.format !== "pdf") return runFinance(reply, () => statementData(db, params.data.studentId, options));
    try {
      const paper = await statementData(db, params.data.studentId, options);
      const pdf = await statementPdf(paper, pdfMaker, media);
      const file = `Statement-${(paper.students[0]?.username ?? "student").replace(/[^\w.-]/g, "_")}-${paper.day}.pdf`;
      return reply.header("Content-Type", "application/pdf").header("Content-Disposition", `attachment; filename="${file}"`).header("Cache-Control", "no-store").send(pdf);
    } catch (e) {
      if (e instanceof FinanceError) return reply.code(e.status).send({ success: false, message: e.message });
      throw e;
    }
  });

  app.get("/finances/reminders/upcoming", async (_request, reply) => runFinance(reply, () => upcomingReminders(db)));

  app.put("/finances/reminders/:paymentAdviceId/hold", async (request, reply) => {
    const params = holdParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const body = holdBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    return runFinance(reply, () => setReminderHold(db, params.data.paymentAdviceId, body.data.held, by(request)));
  });

  app.get("/finances/ledger-export", async (request, reply) => {
    const query = exportQuery.safeParse(request.query ?? {});
    if (!query.success) return validationError(reply, query.error);
    try {
      const file = await accountingExport(db, query.data);
      return reply.header("Content-Type", "text/csv; charset=utf-8").header("Content-Disposition", `attachment; filename="${file.fileName}"`).header("Cache-Control", "no-store").send(file.csv);
    } catch (e) {
      if (e instanceof FinanceError) return reply.code(e.status).send({ success: false, message: e.message, ...(e.errors ? { errors: e.errors } : {}) });
      throw e;
    }
  });
};
