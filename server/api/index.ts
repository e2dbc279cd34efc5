import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../app.ts";
import type { Identity } from "../auth/index.ts";
import type { PolicyService } from "../auth/policy/index.ts";

export interface ApiOptions {
  ctx: ServerContext;
  identity: Identity;
  policy: PolicyService;
}

/** The REST API of the spec under /api/v2: each area registers its own routes here. */
export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (_app, _opts) => {};
