import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A record id in a body, query or path: anything but a uuid gets `message`. */
export const uuid = (message = "Invalid id.") => z.string({ error: message }).regex(UUID, message);

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
 * keep their status but answer {success:false, message}; anything else is logged and answers 500.
 */
export function restErrorHandler(error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error(error);
  return reply.code(status).send({ success: false, message: status === 500 ? "Internal server error." : error.message });
}
