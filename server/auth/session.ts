import type { FastifyReply, FastifyRequest } from "fastify";
import { InvalidTokenError, type Session, type TokenVerifier } from "./types.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the session preHandlers when the request carries a valid access token. */
    session?: Session;
  }
}

export const SESSION_MESSAGES = {
  missing: "Please sign in to continue.",
} as const;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** The Session of a verified access token: all of the user's roles apply (union). */
export async function sessionFromToken(verifier: TokenVerifier, token: string): Promise<Session> {
  const { userId, username, claims } = await verifier.verifyAccessToken(token);
  return {
    userId,
    username,
    roles: claims["x-hasura-allowed-roles"],
    isAdmin: false,
    variables: {
      "x-hasura-user-id": userId,
      "x-hasura-role": claims["x-hasura-default-role"],
    },
  };
}

/** preHandler: reads `Authorization: Bearer`, verifies it and sets request.session; 401 without or with a bad token. */
export function requireSession(verifier: TokenVerifier) {
  return async function requireSessionHandler(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    if (!token) return reply.code(401).send({ success: false, message: SESSION_MESSAGES.missing });
    try {
      request.session = await sessionFromToken(verifier, token);
    } catch (e) {
      if (e instanceof InvalidTokenError) return reply.code(401).send({ success: false, message: e.message });
      throw e;
    }
  };
}

/**
 * preHandler: like requireSession but never refuses; request.session stays unset without a valid
 * token (for calls open to anonymous callers, such as the token refresh). `request.sessionError`
 * keeps the reason for a later 401.
 */
export function readSession(verifier: TokenVerifier) {
  return async function readSessionHandler(request: FastifyRequest) {
    const token = bearerToken(request);
    if (!token) return;
    try {
      request.session = await sessionFromToken(verifier, token);
    } catch (e) {
      if (!(e instanceof InvalidTokenError)) throw e;
      (request as FastifyRequest & { sessionError?: string }).sessionError = e.message;
    }
  };
}
