import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.ts";
import type { Identity } from "../auth/index.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import { authorizeApi } from "./guard.ts";
import { actorOfSession, actorRecordingDb, rememberActor } from "../audit/actor.ts";
import { restErrorHandler } from "./validation.ts";
import { idempotencyHooks } from "./idempotency.ts";
import { armPause } from "../finance/testPause.ts";
import { usersRoutes } from "./users.ts";
import { accessPolicyRoutes } from "./access-policy.ts";
import { mediaApiRoutes } from "./media.ts";
import { communicationRoutes } from "./communication.ts";
import { studentProfileRoutes } from "./student-profiles.ts";
import { mediaFor } from "../media/index.ts";
import { createPdfMaker } from "../finance/pdfMaker.ts";
// issue 14: payment advice calls and class-free
import { financeRoutes } from "./finances.ts";
import { invoiceRoutes } from "./invoices.ts";
import { creditNoteRoutes } from "./credit-notes.ts";
import { refundRoutes } from "./refunds.ts";
import { reportRoutes } from "./reports.ts";
import { bankReconciliationRoutes } from "./bank-reconciliation.ts";
// issue 39: the term billing run
import { billingRunRoutes } from "./billing-runs.ts";
import { companyRoutes } from "./companies.ts";
import { classFreeRoutes } from "./class-free.ts";
// issue 13: classes, enrolment and attendance
import type { Engine } from "../graphql/index.ts";
import { classesRoutes } from "./classes.ts";
import { enrolmentRoutes } from "./enrolments.ts";
import { attendanceRoutes } from "./attendance.ts";
import { historyRoutes } from "./history.ts";
// issue 39: statements, overdue reminders, the ledger out to accounting
import { statementRoutes } from "./statements.ts";

export interface ApiOptions {
  ctx: ServerContext;
  identity: Identity;
  policy: PolicyService;
  /** Lets a REST call ask what the caller may read under the access policy's row rules (issue 13). */
  engine?: Engine;
}

/**
 * The REST API of the spec under /api/v2: each area registers its own routes here. Every route is
 * guarded: the session is read from the bearer token, then the policy's api:<route> rules decide (401/403).
 */
export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (app, options) => {
  app.setErrorHandler(restErrorHandler);
  app.addHook("preHandler", options.identity.readSession);
  app.addHook("preHandler", authorizeApi(options.policy));
  // The audit trail's one place for REST (issue 36): the routes' database records the caller in each transaction
  app.addHook("preHandler", async (request) => rememberActor(actorOfSession(request.session)));
  const opts = { ...options, ctx: { ...options.ctx, db: actorRecordingDb(options.ctx.db) } };
  // Money POST/PATCH/PUT with an Idempotency-Key run once per key (issue 31 §3); after the guard, so a refused
  // call claims nothing
  const idempotency = idempotencyHooks(options.ctx.db);
  app.addHook("onRequest", idempotency.onRequest);
  if (options.ctx.config.financeTestPauses) app.addHook("onRequest", armPause);
  app.addHook("preHandler", idempotency.preHandler);
  app.addHook("onSend", idempotency.onSend);
  app.addHook("onResponse", idempotency.onResponse);
  // PDFs (PA paper, receipt, the PA e-mail's attachment) are made in worker threads with a time limit (issue 32)
  const pdfMaker = createPdfMaker({ timeLimitMs: opts.ctx.config.pdfTimeLimitMs, workers: opts.ctx.config.pdfWorkers });
  app.addHook("onClose", () => pdfMaker.close());
  await app.register(usersRoutes, { ctx: opts.ctx, identity: opts.identity });
  await app.register(accessPolicyRoutes, { policy: opts.policy });
  await app.register(communicationRoutes, { ctx: opts.ctx });
  await app.register(financeRoutes, { ctx: opts.ctx, policy: opts.policy, media: mediaFor(opts.ctx), pdfMaker });
  await app.register(invoiceRoutes, { ctx: opts.ctx, policy: opts.policy, media: mediaFor(opts.ctx), pdfMaker });
  await app.register(creditNoteRoutes, { ctx: opts.ctx, policy: opts.policy });
  await app.register(refundRoutes, { ctx: opts.ctx, policy: opts.policy });
  await app.register(reportRoutes, { ctx: opts.ctx });
  await app.register(bankReconciliationRoutes, { ctx: opts.ctx, policy: opts.policy });
  await app.register(billingRunRoutes, { ctx: opts.ctx, policy: opts.policy });
  await app.register(companyRoutes, { ctx: opts.ctx, media: mediaFor(opts.ctx) });
  await app.register(classFreeRoutes, { ctx: opts.ctx });
  await app.register(studentProfileRoutes, { ctx: opts.ctx });
  await app.register(classesRoutes, { ctx: opts.ctx });
  await app.register(enrolmentRoutes, { ctx: opts.ctx });
  if (opts.engine) await app.register(attendanceRoutes, { ctx: opts.ctx, engine: opts.engine });
  if (opts.engine) await app.register(historyRoutes, { ctx: opts.ctx, engine: opts.engine });
  await app.register(statementRoutes, { ctx: opts.ctx, media: mediaFor(opts.ctx), pdfMaker });
  await app.register(mediaApiRoutes, { media: mediaFor(opts.ctx), requireSession: opts.identity.requireSession, publicUrlConfigured: opts.ctx.config.publicUrlConfigured });
};
