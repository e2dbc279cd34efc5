/**
 * The term billing run under /api/v2/finances/billing-runs (issue 39; ours, not in the spec; shapes in
 * src/domain/finance/billingRun.ts): the form's options and the preview (front desk may prepare a run), and
 * the issue of a batch of students (finance staff and manager, and the PA's own issue right). E-mailing the
 * PAs is the PA's call, /finances/email/unpaid-pa-to-parents.
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import { BILLING_RUN_MESSAGES as M } from "../../src/domain/finance/billingRun.ts";
import { ACTION_METHOD, paActionObject, type ActionCheck } from "../finance/paymentAdvices.ts";
import { billingRunOptions, previewBillingRun } from "../finance/billingRun.ts";
import { billingRun, issueAndRecord, listBillingRuns } from "../finance/billingRunRecord.ts";
import { requiredDay, uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";

const BASE = "/finances/billing-runs";

const selection = {
  companyId: uuid(M.company),
  branchId: uuid(M.branch),
  year: z.number({ error: M.year }).int(M.year).min(2000, M.year).max(2100, M.year),
  termNames: z.array(z.string().trim().min(1).max(100), { error: M.terms }).min(1, M.terms).max(20),
  classIds: z.array(uuid()).max(500).default([]),
  programIds: z.array(uuid()).max(200).default([]),
  dueDate: requiredDay(M.dueDate),
};
const previewBody = z.object(selection);
const issueBody = z.object({
  ...selection,
  studentIds: z.array(uuid(), { error: M.students }).min(1, M.students).max(200),
  /** The stored run the batch belongs to (absent on the first batch: the call creates the run). */
  runId: uuid().optional(),
  /** Students of the preview not billed (unticked or skipped), recorded on the run with their reason. */
  leftOut: z.array(z.object({ studentId: uuid(), reason: z.string().trim().min(1).max(500) })).max(5000).default([]),
});
const optionsQuery = z.object({ companyId: uuid(M.company) });
const runParams = z.object({ id: uuid(M.runUnknown) });

export const billingRunRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService }> = async (app, { ctx, policy }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;
  const can = (request: FastifyRequest): ActionCheck => (action) => policy.enforce(request.session?.roles ?? [], paActionObject(action), ACTION_METHOD);

  app.get(`${BASE}/options`, async (request, reply) => {
    const parsed = optionsQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => billingRunOptions(db, parsed.data.companyId));
  });

  app.post(`${BASE}/preview`, async (request, reply) => {
    const parsed = previewBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, async () => ({ rows: await previewBillingRun(db, parsed.data) }));
  });

  app.post(`${BASE}/issue`, async (request, reply) => {
    const parsed = issueBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const { studentIds, runId, leftOut, ...sel } = parsed.data;
    return runFinance(reply, () => issueAndRecord(db, sel, { studentIds, runId, leftOut }, by(request), can(request)));
  });

  app.get(BASE, async (request, reply) => {
    const parsed = optionsQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, async () => ({ runs: await listBillingRuns(db, parsed.data.companyId) }));
  });

  app.get(`${BASE}/:id`, async (request, reply) => {
    const parsed = runParams.safeParse(request.params ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => billingRun(db, parsed.data.id));
  });
};
