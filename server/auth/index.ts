// PLACEHOLDER until the identity work lands: replace wholesale, keep the exported signature.
import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../app.ts";
import { InvalidTokenError, type TokenVerifier } from "./types.ts";

export interface Identity {
  verifier: TokenVerifier;
  /** /auth/* routes (sign-in, sign-out, forgot-password, change-password, jwks). */
  routes: FastifyPluginAsync;
}

export async function createIdentity(_ctx: ServerContext): Promise<Identity> {
  return {
    verifier: {
      async verifyAccessToken() {
        throw new InvalidTokenError("identity not built yet");
      },
    },
    routes: async () => undefined,
  };
}
