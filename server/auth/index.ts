import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { TokenVerifier } from "./types.ts";
import { createBuiltInProvider, type IdentityProvider } from "./provider.ts";
import { authRoutes } from "./routes.ts";
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
}

export async function createIdentity(ctx: ServerContext): Promise<Identity> {
  const provider = await createBuiltInProvider(ctx.db);
  return {
    verifier: provider,
    provider,
    routes: async (app) => authRoutes(app, { provider }),
    requireSession: requireSession(provider),
    readSession: readSession(provider),
  };
}
