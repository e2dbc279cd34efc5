import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Cents } from "../../src/domain/money.ts";
import { BOUND_MESSAGES, MAX_LINE_CENTS, parseAmount } from "../../src/domain/finance/bounds.ts";
import { parseCalendarDay, DATE_FORMAT } from "../../src/domain/dates.ts";
import { textBoundViolation } from "../security/text-bounds.ts";
import { PdfTimeoutError } from "../finance/pdfMaker.ts";
import { UUID } from "../../src/domain/validators.ts";

/** A record id in a body, query or path: anything but a uuid gets `message`. */
export const uuid = (message = "Invalid id.") => z.string({ error: message }).regex(UUID, message);

/** A calendar day: "YYYY-MM-DD" or a UTC start-of-day ISO string (spec part 2 §9) → "YYYY-MM-DD". */
export const day = (message = "Invalid date.") =>
  z
    .string({ error: message })
    .transform((v, ctx) => {
      const d = parseCalendarDay(/^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z$/.test(v) ? v.slice(0, 10) : v);
      if (!d) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return d.format(DATE_FORMAT);
    })
    .nullable()
    .optional()
    .transform((v) => v ?? null);
/**
 * Dollars (numeric string or number) → integer cents: at most two decimals, never cut (FINANCE.md §1
 * "Bounds"); not negative; at most `max` (a line's maximum unless told).
 */
export const money = (requiredMessage: string, bound: { max: Cents; message: string; negative?: string } = { max: MAX_LINE_CENTS, message: BOUND_MESSAGES.line }) =>
  z.union([z.string(), z.number()], { error: requiredMessage }).transform((v, ctx) => {
    const parsed = typeof v === "string" && v.trim() === "" ? null : parseAmount(v);
    if (!parsed?.ok) {
      ctx.addIssue({ code: "custom", message: parsed?.message === BOUND_MESSAGES.decimals ? parsed.message : requiredMessage });
      return z.NEVER;
    }
    if (parsed.cents < 0) {
      ctx.addIssue({ code: "custom", message: bound.negative ?? "Amount cannot be negative." });
      return z.NEVER;
    }
    if (parsed.cents > bound.max) {
      ctx.addIssue({ code: "custom", message: bound.message });
      return z.NEVER;
    }
    return parsed.cents;
  });
/** A day that must be given. */
export const requiredDay = (message: string) =>
  day(message)
    .refine((v) => v !== null, { message })
    .transform((v) => v!);

/** Free text: blank is null; absent stays undefined (an update leaves the field as it was). */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null));

/** The `updatedAt` a document update read (optimistic concurrency, FINANCE.md §1). */
export const updatedAt = z.string({ error: "updatedAt is required." }).min(1, "updatedAt is required.");

/** 400 {success:false, message, errors:{field: message}}: the first problem as the message, one message per field. */
export function validationError(reply: FastifyReply, error: z.ZodError) {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join(".") : "body";
    errors[field] ??= issue.message;
  }
  const message = Object.values(errors)[0] ?? "Invalid input.";
  return reply.code(400).send({ success: false, message, errors });
}

/**
 * Error handler for the REST and identity routes: Fastify's own 4xx (unparsable JSON, too large a body…)
 * keep their status but answer {success:false, message}; a value longer than its column allows (the
 * database's length checks, which catch what a route's schema let through) answers 400 naming the field;
 * a PDF stopped at its time limit answers 503 with why; anything else is logged and answers 500.
 */
export function restErrorHandler(error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) {
  const bound = textBoundViolation(error);
  if (bound) return reply.code(400).send({ success: false, message: bound.message, errors: { [bound.column]: bound.message } });
  if (error instanceof PdfTimeoutError) {
    request.log.warn(error.message);
    return reply.code(503).send({ success: false, message: error.message });
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error(error);
  return reply.code(status).send({ success: false, message: status === 500 ? "Internal server error." : error.message });
}
