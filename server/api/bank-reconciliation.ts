/**
 * Bank statement reconciliation under /api/v2/finances/bank-reconciliation (issue 35; ours, not in the spec):
 * preview a statement file (its headings and the bank's remembered column mapping), import it, list a
 * company's open or recorded lines with their matches, search unpaid PAs to match a line by hand, and confirm
 * matches in bulk. Files travel as base64 in JSON (a statement is small; the body limit is 5 MB).
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import { BANK_MESSAGES } from "../../src/domain/finance/bankStatement.ts";
import { ACTION_METHOD } from "../finance/paymentAdvices.ts";
import { invoiceActionObject, type InvoiceActionCheck } from "../finance/invoices.ts";
import { confirmMatches, importStatement, knownBanks, listLines, previewStatement, searchPayablePas } from "../finance/bankReconciliation.ts";
import { uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";

const BASE = "/finances/bank-reconciliation";

const bank = z.string({ error: BANK_MESSAGES.bank }).trim().min(1, BANK_MESSAGES.bank).max(100);
const file = {
  fileName: z.string({ error: BANK_MESSAGES.file }).trim().min(1, BANK_MESSAGES.file).max(200),
  // 3.5 MB of file as base64, inside the 5 MB body limit
  fileBase64: z.string({ error: BANK_MESSAGES.file }).min(1, BANK_MESSAGES.file).max(4_700_000).regex(/^[A-Za-z0-9+/]*={0,2}$/, BANK_MESSAGES.fileUnreadable),
};
const column = z.string().trim().min(1).max(200);
const optionalColumn = column.nullable().optional().transform((v) => v ?? null);
const previewBody = z.object({ bank: bank.nullable().optional(), ...file });
const importBody = z.object({
  companyId: uuid(BANK_MESSAGES.company),
  bank,
  ...file,
  mapping: z.object({
    dateColumn: z.string({ error: BANK_MESSAGES.dateColumn }).trim().min(1, BANK_MESSAGES.dateColumn).max(200),
    creditColumn: z.string({ error: BANK_MESSAGES.creditColumn }).trim().min(1, BANK_MESSAGES.creditColumn).max(200),
    descriptionColumn: optionalColumn,
    referenceColumn: optionalColumn,
  }),
});
const linesQuery = z.object({ companyId: uuid(BANK_MESSAGES.company), status: z.enum(["open", "recorded"]).default("open") });
const searchQuery = z.object({ companyId: uuid(BANK_MESSAGES.company), q: z.string().trim().max(100).default("") });
const confirmBody = z.object({
  matches: z
    .array(z.object({ lineId: uuid(BANK_MESSAGES.lineNotFound), paymentAdviceId: uuid(BANK_MESSAGES.paNotFound) }), { error: BANK_MESSAGES.selectLines })
    .min(1, BANK_MESSAGES.selectLines)
    .max(500),
});

const bytesOf = (base64: string) => Buffer.from(base64, "base64");

export const bankReconciliationRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService }> = async (app, { ctx, policy }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;
  const can = (request: FastifyRequest): InvoiceActionCheck => (action) => policy.enforce(request.session?.roles ?? [], invoiceActionObject(action), ACTION_METHOD);

  app.post(`${BASE}/preview`, async (request, reply) => {
    const parsed = previewBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const { fileName, fileBase64 } = parsed.data;
    return runFinance(reply, async () => ({ ...(await previewStatement(db, parsed.data.bank ?? null, { fileName, bytes: bytesOf(fileBase64) })), banks: await knownBanks(db) }));
  });

  app.post(`${BASE}/import`, async (request, reply) => {
    const parsed = importBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const { companyId, bank: name, mapping, fileName, fileBase64 } = parsed.data;
    return runFinance(reply, () => importStatement(db, { companyId, bank: name, mapping, file: { fileName, bytes: bytesOf(fileBase64) } }, by(request)), 201);
  });

  app.get(`${BASE}/lines`, async (request, reply) => {
    const parsed = linesQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => listLines(db, parsed.data.companyId, parsed.data.status));
  });

  app.get(`${BASE}/payment-advices`, async (request, reply) => {
    const parsed = searchQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => searchPayablePas(db, parsed.data.companyId, parsed.data.q));
  });

  app.post(`${BASE}/confirm`, async (request, reply) => {
    const parsed = confirmBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, async () => ({ results: await confirmMatches(db, parsed.data.matches, by(request), can(request)) }));
  });
};
