import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import rateLimit from "@fastify/rate-limit";
import { z } from "zod";
import { IdentityError, type IdentityProvider } from "./provider.ts";
import { restErrorHandler, validationError } from "../api/validation.ts";

export interface AuthRouteOptions {
  provider: IdentityProvider;
  /** Credential calls (sign-in, password flows) per address per minute, all routes together (`Config.authRateLimit`). */
  signInPerMinute: number;
}

export function sendIdentityError(reply: FastifyReply, e: unknown) {
  if (e instanceof IdentityError) {
    const { errors, ...data } = e.data ?? {};
    return reply.code(e.statusCode).send({
      success: false,
      message: e.message,
      ...(errors ? { errors } : {}),
      ...(Object.keys(data).length ? { data } : {}),
    });
  }
  throw e;
}

const text = (max = 256) => z.string().trim().min(1, "This field is required.").max(max);
const password = z.string().min(1, "This field is required.").max(1024);

const signInBody = z.object({ username: text(), password });
const signOutBody = z.object({ refreshToken: text(512) });
const forgotBody = z.object({ username: text() });
const confirmBody = z.object({ username: text(), code: z.string().trim().regex(/^\d{6}$/, "The code has 6 digits."), newPassword: password });
const changeBody = z.object({ username: text(), oldPassword: password, newPassword: password });

/** A hook counting a request in the per-address credential bucket of /auth/* (a 429 past the limit). */
export type CredentialLimit = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * /auth/*: sign-in, sign-out, forgot password (+ confirm), change password, JWKS (issue 4 §1). Returns the hook
 * that counts a credential call elsewhere (under /api/v2) in the same bucket (issue 32 §7).
 */
export async function authRoutes(app: FastifyInstance, { provider, signInPerMinute }: AuthRouteOptions): Promise<CredentialLimit> {
  app.setErrorHandler(restErrorHandler);
  // One bucket per address for every credential call here (sign-in, forgot password and its confirmation,
  // change password): guesses spread over several routes count together (issue 10 §7). Sign-out and the
  // JWKS guess nothing and are not limited.
  await app.register(rateLimit, {
    global: true,
    max: signInPerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: (_req: unknown, ctx: { after: string }) => ({
      statusCode: 429,
      success: false,
      message: `Too many attempts. Please try again in ${ctx.after}.`,
    }),
  });
  const unlimited = { rateLimit: false } as const;

  app.post("/auth/sign-in", async (request, reply) => {
    const body = signInBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    try {
      return { success: true, data: await provider.signIn(body.data.username, body.data.password, request.ip) };
    } catch (e) {
      return sendIdentityError(reply, e);
    }
  });

  app.post("/auth/sign-out", { config: unlimited }, async (request, reply) => {
    const body = signOutBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    await provider.signOut(body.data.refreshToken);
    return { success: true, data: null };
  });

  app.post("/auth/forgot-password", async (request, reply) => {
    const body = forgotBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    await provider.requestPasswordReset(body.data.username);
    // The same answer whether or not the user exists.
    return { success: true, data: { message: "If the account exists, a code has been sent to its e-mail address." } };
  });

  app.post("/auth/forgot-password/confirm", async (request, reply) => {
    const body = confirmBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    try {
      await provider.confirmPasswordReset(body.data.username, body.data.code, body.data.newPassword);
      return { success: true, data: null };
    } catch (e) {
      return sendIdentityError(reply, e);
    }
  });

  app.post("/auth/change-password", async (request, reply) => {
    const body = changeBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    try {
      await provider.changePassword(body.data.username, body.data.oldPassword, body.data.newPassword, request.ip);
      return { success: true, data: null };
    } catch (e) {
      return sendIdentityError(reply, e);
    }
  });

  app.get("/auth/jwks.json", { config: unlimited }, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return provider.jwks();
  });
  // Without options the hook uses this registration's store: the very bucket of the routes above.
  return app.rateLimit() as CredentialLimit;
}
