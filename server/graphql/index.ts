// PLACEHOLDER until the engine work lands: replace wholesale, keep the exported signatures.
import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../app.ts";
import type { Config } from "../config.ts";
import type { GeneratedPermissions, TokenVerifier } from "../auth/types.ts";

export interface Engine {
  setGeneratedPermissions(permissions: GeneratedPermissions): void;
  close(): Promise<void>;
}

export async function createEngine(_ctx: ServerContext): Promise<Engine> {
  return { setGeneratedPermissions: () => undefined, close: async () => undefined };
}

export const graphqlPlugin: FastifyPluginAsync<{ engine: Engine; verifier: TokenVerifier; config: Config }> = async () => undefined;
