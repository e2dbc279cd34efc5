/**
 * The credit-note calls of spec part 2 §7 under /api/v2 (`POST /credit-notes`, `PUT /credit-notes/{id}`,
 * `PATCH /credit-notes/change-status-credit-note/{id}`, `POST /credit-notes/duplicate-credit-note`,
 * `GET /credit-notes/get-class-information-for-credit-note`) and ours, `GET /credit-notes/{id}` (the
 * screen's data). `POST /credit-notes` makes a suspension ({type: suspension, studentId, classId, period})
 * or, from a receipt of an overpaid invoice, an overpaid credit note ({type: overpaid, receiptId}).
 * Each right of FINANCE.md §5 is an api:/actions/credit-note/<right> line, asked by the service.
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import { CREDIT_NOTE_MESSAGES, CREDIT_NOTE_RIGHTS, CREDIT_NOTE_STATUSES, type CreditNoteRight } from "../../src/domain/finance/creditNote.ts";
import { ACTION_METHOD } from "../finance/paymentAdvices.ts";
import { createOverpaidCreditNote } from "../finance/overpaid.ts";
import { changeCreditNoteStatus, classInformationForCreditNote, createSuspension, creditNoteDetail, duplicateCreditNote, updateCreditNote } from "../finance/creditNotes.ts";
import { creditNoteRightObject, grantedRights, suspensionCreateObject } from "../finance/creditNoteRecord.ts";
import { day, money, optionalText as text, requiredDay, updatedAt, uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";


const suspensionBody = z
  .object({
    type: z.literal("suspension"),
    studentId: uuid(CREDIT_NOTE_MESSAGES.student),
    classId: uuid(CREDIT_NOTE_MESSAGES.class),
    startDate: requiredDay(CREDIT_NOTE_MESSAGES.suspensionPeriod),
    endDate: requiredDay(CREDIT_NOTE_MESSAGES.suspensionPeriod),
    reason: text(2000),
    remarks: text(5000),
  })
  .refine((b) => b.endDate >= b.startDate, { path: ["endDate"], message: CREDIT_NOTE_MESSAGES.suspensionPeriod });
const overpaidBody = z.object({ type: z.literal("overpaid"), receiptId: uuid(CREDIT_NOTE_MESSAGES.receipt) });
const createBody = z.discriminatedUnion("type", [suspensionBody, overpaidBody], { error: "Please choose the credit note type: suspension or overpaid." });

const updateBody = z.object({
  updatedAt,
  reason: text(2000),
  remarks: text(5000),
  startDate: day(CREDIT_NOTE_MESSAGES.startDate).transform((v) => v ?? undefined),
  endDate: day(CREDIT_NOTE_MESSAGES.endDate).transform((v) => v ?? undefined),
  termId: uuid(CREDIT_NOTE_MESSAGES.termName).nullable().optional(),
  receiptId: uuid(CREDIT_NOTE_MESSAGES.receipt).nullable().optional(),
  numberOfLesson: z.number({ error: CREDIT_NOTE_MESSAGES.numberOfLesson }).int(CREDIT_NOTE_MESSAGES.numberOfLesson).min(0, CREDIT_NOTE_MESSAGES.numberOfLesson).max(1000).optional(),
  overpaidAmount: money(CREDIT_NOTE_MESSAGES.overpaidAmount).optional(),
});
const statusBody = z.object({ status: z.enum(CREDIT_NOTE_STATUSES, { error: CREDIT_NOTE_MESSAGES.moveNotAllowed }), updatedAt });
const duplicateBody = z.object({ creditNoteId: uuid(CREDIT_NOTE_MESSAGES.notFound) });
const idParams = z.object({ id: uuid(CREDIT_NOTE_MESSAGES.notFound) });
const classInfoQuery = z.object({
  studentId: uuid(CREDIT_NOTE_MESSAGES.student),
  classId: uuid(CREDIT_NOTE_MESSAGES.class),
  startDate: requiredDay(CREDIT_NOTE_MESSAGES.startDate),
  endDate: requiredDay(CREDIT_NOTE_MESSAGES.endDate),
});

export const creditNoteRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService }> = async (app, { ctx, policy }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;
  const roles = (request: FastifyRequest) => request.session?.roles ?? [];
  const rights = (request: FastifyRequest) => grantedRights(CREDIT_NOTE_RIGHTS, (r) => policy.enforce(roles(request), creditNoteRightObject(r), ACTION_METHOD));

  app.post("/credit-notes", async (request: FastifyRequest, reply) => {
    const parsed = createBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const body = parsed.data;
    if (body.type === "overpaid") {
      const can = (r: CreditNoteRight) => policy.enforce(roles(request), creditNoteRightObject(r), ACTION_METHOD);
      return runFinance(reply, () => createOverpaidCreditNote(db, body.receiptId, by(request), can), 201);
    }
    const checked = suspensionBody.safeParse(body);
    if (!checked.success) return validationError(reply, checked.error);
    const canCreate = await policy.enforce(roles(request), suspensionCreateObject, ACTION_METHOD);
    const { studentId, classId, startDate, endDate, reason, remarks } = checked.data;
    return runFinance(reply, () => createSuspension(db, { studentId, classId, startDate, endDate, reason: reason ?? null, remarks: remarks ?? null }, by(request), canCreate), 201);
  });

  app.get("/credit-notes/get-class-information-for-credit-note", async (request, reply) => {
    const parsed = classInfoQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => classInformationForCreditNote(db, parsed.data));
  });

  app.post("/credit-notes/duplicate-credit-note", async (request, reply) => {
    const parsed = duplicateBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const granted = await rights(request);
    return runFinance(reply, async () => creditNoteDetail(db, (await duplicateCreditNote(db, parsed.data.creditNoteId, by(request), granted)).id, granted, by(request)), 201);
  });

  app.patch("/credit-notes/change-status-credit-note/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = statusBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const granted = await rights(request);
    return runFinance(reply, async () => creditNoteDetail(db, (await changeCreditNoteStatus(db, params.data.id, parsed.data, by(request), granted)).id, granted, by(request)));
  });

  app.get("/credit-notes/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const granted = await rights(request);
    return runFinance(reply, () => creditNoteDetail(db, params.data.id, granted, by(request)));
  });

  app.put("/credit-notes/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = updateBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const granted = await rights(request);
    return runFinance(reply, async () => creditNoteDetail(db, (await updateCreditNote(db, params.data.id, parsed.data, by(request), granted)).id, granted, by(request)));
  });
};
