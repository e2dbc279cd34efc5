/**
 * `POST /credit-notes` (spec part 2 §7). Built so far: the overpaid credit note made by finance from a
 * receipt of an overpaid invoice (issue 15's hand-off). A suspension's credit note is made by the suspension
 * workflow (issue 16), not here.
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../app.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import { CREDIT_NOTE_MESSAGES } from "../../src/domain/finance/creditNote.ts";
import { ACTION_METHOD } from "../finance/paymentAdvices.ts";
import { createOverpaidCreditNote, creditNoteActionObject, type CreditNoteActionRight } from "../finance/overpaid.ts";
import { uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";

const body = z.object({
  type: z.literal("overpaid", { error: CREDIT_NOTE_MESSAGES.onlyOverpaid }),
  receiptId: uuid("Please select the receipt."),
});

export const creditNoteRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService }> = async (app, { ctx, policy }) => {
  app.post("/credit-notes", async (request: FastifyRequest, reply) => {
    const parsed = body.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const can = (action: CreditNoteActionRight) => policy.enforce(request.session?.roles ?? [], creditNoteActionObject(action), ACTION_METHOD);
    return runFinance(reply, () => createOverpaidCreditNote(ctx.db, parsed.data.receiptId, request.session?.userId ?? null, can), 201);
  });
};
