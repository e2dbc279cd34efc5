import Fastify, { type FastifyInstance } from "fastify";
import type { ServerContext } from "./context.ts";
import { serveBrowserApp } from "./static.ts";
import { compressResponses } from "./compression.ts";
import { createIdentity } from "./auth/index.ts";
import { createPolicy } from "./auth/policy/index.ts";
import { createEngine, graphqlPlugin } from "./graphql/index.ts";
import { adminPlugin } from "./graphql/admin/index.ts";
import { apiPlugin } from "./api/index.ts";
import { mediaFor } from "./media/index.ts";
import { mediaRoutes } from "./media/routes.ts";
import { securityHeaders } from "./security/headers.ts";
import { loggerOptions, type LoggerSetting } from "./security/log-redaction.ts";
import { queueRequestsByCaller } from "./request-caller.ts";
import { readinessOf } from "./readiness.ts";
import { tagRequests } from "./audit/actor.ts";

// The context type lives in context.ts, so route modules need not import the module that wires them.
export type { ServerContext } from "./context.ts";

/** Wires the three interfaces (GraphQL, REST, identity) and the browser app over one database. */
export async function buildServer(ctx: ServerContext, options: { logger?: LoggerSetting; serveApp?: boolean; appDir?: string } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: loggerOptions(options.logger), bodyLimit: 5 * 1024 * 1024, trustProxy: ctx.config.trustProxy });

  queueRequestsByCaller(app);
  tagRequests(app);
  await compressResponses(app);
  const identity = await createIdentity(ctx);
  const policy = await createPolicy(ctx);
  const engine = await createEngine(ctx);
  engine.setGeneratedPermissions(policy.hasuraPermissions());
  policy.onChange(() => engine.setGeneratedPermissions(policy.hasuraPermissions()));
  policy.checkPermissionsWith((permissions) => engine.checkGeneratedPermissions(permissions));

  await securityHeaders(app);
  app.get("/healthz", async () => ({ ok: true, db: ctx.db.kind, migrations: ctx.migrations }));
  const readiness = readinessOf(ctx.db);
  app.get("/readyz", async (_request, reply) => {
    const r = await readiness();
    return reply.code(r.ready ? 200 : 503).send(r);
  });
  await app.register(identity.routes);
  await app.register(graphqlPlugin, { engine, verifier: identity.verifier, config: ctx.config });
  await app.register(adminPlugin, { engine, db: ctx.db, config: ctx.config });
  await app.register(apiPlugin, { prefix: "/api/v2", ctx, identity, policy, engine });
  await app.register(mediaRoutes, { media: mediaFor(ctx) });

  app.setNotFoundHandler((request, reply) => {
    if (/^\/(api|auth|v1|v2|media)(\/|$)/.test(request.url)) {
      return reply.code(404).send({ success: false, message: `Not found: ${request.method} ${request.url.split("?")[0]}` });
    }
    if (options.serveApp && request.method === "GET") return reply.sendFile("index.html");
    return reply.code(404).send({ success: false, message: "Not found" });
  });

  if (options.serveApp) await serveBrowserApp(app, options.appDir);
  app.addHook("onClose", async () => {
    await engine.close();
    await policy.close();
  });
  return app;
}
