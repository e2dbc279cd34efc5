/**
 * GET /classes/class-free?studentId&classId[&lessonStartDate] (spec part 1 §7; issue 13 §4): priced by
 * server/finance/classFree.ts with src/domain/finance.
 */
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import { parseCalendarDay, DATE_FORMAT } from "../../src/domain/dates.ts";
import { classFree } from "../finance/classFree.ts";
import { FinanceError } from "../finance/transaction.ts";
import { validationError } from "./validation.ts";
import { UUID } from "../../src/domain/validators.ts";

const query = z.object({
  studentId: z.string({ error: "Please select student!" }).regex(UUID, "Please select student!"),
  classId: z.string({ error: "Please select class!" }).regex(UUID, "Please select class!"),
  lessonStartDate: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const d = parseCalendarDay(v);
      if (!d) {
        ctx.addIssue({ code: "custom", message: "Please input lesson start date!" });
        return z.NEVER;
      }
      return d.format(DATE_FORMAT);
    }),
});

export const classFreeRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get("/classes/class-free", async (request, reply) => {
    const parsed = query.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    try {
      return reply.send({ success: true, data: await classFree(ctx.db, parsed.data) });
    } catch (e) {
      if (e instanceof FinanceError) return reply.code(e.status).send({ success: false, message: e.message, ...(e.errors ? { errors: e.errors } : {}) });
      throw e;
    }
  });
};
