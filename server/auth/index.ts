import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { TokenVerifier } from "./types.ts";
import { createBuiltInProvider, type IdentityProvider } from "./provider.ts";
import { authRoutes, type CredentialLimit } from "./routes.ts";
import { readSession, requireSession } from "./session.ts";

export { IdentityError, rolesOf, type IdentityProvider, type TokenPair } from "./provider.ts";

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export interface Identity {
  verifier: TokenVerifier;
  /** /auth/* routes (sign-in, sign-out, forgot-password, change-password, jwks). */
  routes: FastifyPluginAsync;
  /** The identity provider behind the routes (built in; an OIDC provider could implement the same interface). */
  provider: IdentityProvider;
  /** preHandler: 401 {success:false, message} without or with a bad token; else sets request.session. */
  requireSession: PreHandler;
  /** preHandler: sets request.session when a valid token is present, never refuses. */
  readSession: PreHandler;
  /** onRequest: counts a credential call outside /auth/* in the per-address bucket of /auth/* (issue 32 §7). */
  credentialLimit: CredentialLimit;
}

export async function createIdentity(ctx: ServerContext): Promise<Identity> {
  const provider = await createBuiltInProvider(ctx.db);
  let limit: CredentialLimit | undefined;
  return {
    verifier: provider,
    provider,
    routes: async (app) => {
      limit = await authRoutes(app, { provider, signInPerMinute: ctx.config.authRateLimit });
    },
    credentialLimit: async (request, reply) => {
      // The bucket exists once the /auth routes are registered; a credential call must never go uncounted.
      if (!limit) throw new Error("credentialLimit used before the /auth routes were registered");
      return limit(request, reply);
    },
    requireSession: requireSession(provider),
    readSession: readSession(provider),
  };
}
