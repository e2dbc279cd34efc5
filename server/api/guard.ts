import type { FastifyReply, FastifyRequest } from "fastify";
import type { PolicyService } from "../auth/policy/index.ts";
import { ANONYMOUS } from "../auth/policy/rules.ts";
import { SESSION_MESSAGES } from "../auth/session.ts";

export const API_PREFIX = "/api/v2";
export const FORBIDDEN_MESSAGE = "You do not have permission to perform this action.";

/** The policy object of a REST route: api:<pattern without /api/v2>, e.g. api:/users/:id. */
export function apiObject(routePattern: string): string {
  const path = routePattern.startsWith(`${API_PREFIX}/`) ? routePattern.slice(API_PREFIX.length) : routePattern;
  return `api:${path}`;
}

/**
 * REST guard (preHandler; runs after the session is read): the caller's roles — plus "anonymous",
 * whose rules everyone has — must be allowed `api:<route pattern>` with the request's method.
 * No session and not open to anonymous callers: 401; a session without permission: 403.
 */
export function authorizeApi(policy: PolicyService) {
  return async function authorizeApiHandler(request: FastifyRequest, reply: FastifyReply) {
    const pattern = request.routeOptions.url;
    if (!pattern) return;
    const obj = apiObject(pattern);
    const method = request.method === "HEAD" ? "GET" : request.method;
    if (await policy.enforce([ANONYMOUS], obj, method)) return;
    const session = request.session;
    if (!session) {
      const reason = (request as FastifyRequest & { sessionError?: string }).sessionError;
      return reply.code(401).send({ success: false, message: reason ?? SESSION_MESSAGES.missing });
    }
    if (!(await policy.enforce(session.roles, obj, method))) {
      return reply.code(403).send({ success: false, message: FORBIDDEN_MESSAGE });
    }
  };
}
