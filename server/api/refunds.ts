/**
 * The refund and withdrawal calls of spec part 2 §7 under /api/v2: `POST /refund` ({type: withdrawal}: the
 * withdrawal and its refund), `GET /refund/{id}`, `PATCH /refund/{id}`, `PATCH /refund/{id}/change-refund-status`,
 * `GET /refund/get-receipt-of-class`, `POST /classes/get-class-infor-for-refund`, `GET /classes/classes-not-refund`.
 * Each right of FINANCE.md §5 is an api:/actions/refund/<right> line (withdrawal: api:/actions/withdrawal/create).
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { PolicyService } from "../auth/policy/index.ts";
import { RATINGS, REFUND_MESSAGES, REFUND_METHODS, REFUND_RIGHTS, REFUND_STATUSES, type RefundRight } from "../../src/domain/finance/refund.ts";
import { ACTION_METHOD } from "../finance/paymentAdvices.ts";
import { receiptsOfClass } from "../finance/classBilling.ts";
import { changeRefundStatus, classesNotRefunded, classInformationForRefund, createWithdrawal, grantedRights, refundDetail, updateRefund } from "../finance/refunds.ts";
import { day, money, optionalText as text, requiredDay, updatedAt, uuid, validationError } from "./validation.ts";
import { runFinance } from "./finances.ts";

export const refundRightObject = (right: RefundRight) => `api:/actions/refund/${right}`;
export const withdrawalCreateObject = "api:/actions/withdrawal/create";


const withdrawalBody = z.object({
  type: z.literal("withdrawal", { error: "Please choose the refund type: withdrawal." }),
  studentId: uuid(REFUND_MESSAGES.student),
  classId: uuid(REFUND_MESSAGES.class),
  noticeDate: requiredDay(REFUND_MESSAGES.noticeDate),
  lastLessonDate: requiredDay(REFUND_MESSAGES.lastLessonDate),
  reason: text(2000),
  remarks: text(5000),
});
const rowBody = z.object({ name: z.string({ error: "Name is required." }).trim().min(1, "Name is required.").max(200), amount: money("Amount is required.") });
const classBody = z.object({
  id: uuid(REFUND_MESSAGES.class),
  lastLessonDate: day(REFUND_MESSAGES.lastLessonDate).transform((v) => v ?? undefined),
  oweLessonNo: z.number({ error: "The owed lessons must be a whole number, 0 or more." }).int().min(0).max(1000).optional(),
  deduction: money("Amount is required.").optional(),
  otherPayments: z.array(rowBody).max(20).optional(),
  receiptId: uuid("Please select receipt no.!").nullable().optional(),
});
const updateBody = z.object({
  updatedAt,
  reason: text(2000),
  noticeDate: day(REFUND_MESSAGES.noticeDate).transform((v) => v ?? undefined),
  classes: z.array(classBody).max(20).optional(),
  creditNoteIds: z.array(uuid()).max(50).optional(),
  depositIds: z.array(uuid()).max(50).optional(),
  studentFeedback: z.object({ feedback: z.string().trim().max(5000) }).nullable().optional(),
  rating: z.enum(RATINGS, { error: "Please choose a rating." }).nullable().optional(),
  payeeDetails: z
    .object({ name: z.string().trim().max(200).optional(), bankName: z.string().trim().max(200).optional(), accountNo: z.string().trim().max(100).optional(), contact: z.string().trim().max(200).optional() })
    .nullable()
    .optional(),
  refundMethod: z.enum(REFUND_METHODS, { error: "Please choose a refund method." }).nullable().optional(),
  reasonReject: text(2000),
});
const statusBody = z.object({ status: z.enum(REFUND_STATUSES, { error: REFUND_MESSAGES.moveNotAllowed }), updatedAt, reasonReject: text(2000) });
const idParams = z.object({ id: uuid(REFUND_MESSAGES.notFound) });
const studentClassQuery = z.object({ studentId: uuid(REFUND_MESSAGES.student), classId: uuid(REFUND_MESSAGES.class) });
const classInfoBody = studentClassQuery.extend({ lastLessonDate: requiredDay(REFUND_MESSAGES.lastLessonDate) });

export const refundRoutes: FastifyPluginAsync<{ ctx: ServerContext; policy: PolicyService }> = async (app, { ctx, policy }) => {
  const { db } = ctx;
  const by = (request: FastifyRequest) => request.session?.userId ?? null;
  const roles = (request: FastifyRequest) => request.session?.roles ?? [];
  const rights = (request: FastifyRequest) => grantedRights(REFUND_RIGHTS, (r) => policy.enforce(roles(request), refundRightObject(r), ACTION_METHOD));

  app.post("/refund", async (request, reply) => {
    const parsed = withdrawalBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const canCreate = await policy.enforce(roles(request), withdrawalCreateObject, ACTION_METHOD);
    const { studentId, classId, noticeDate, lastLessonDate, reason, remarks } = parsed.data;
    return runFinance(reply, () => createWithdrawal(db, { studentId, classId, noticeDate, lastLessonDate, reason: reason ?? null, remarks: remarks ?? null }, by(request), canCreate), 201);
  });

  app.get("/refund/get-receipt-of-class", async (request, reply) => {
    const parsed = studentClassQuery.safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => receiptsOfClass(db, parsed.data.studentId, parsed.data.classId));
  });

  app.get("/refund/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const granted = await rights(request);
    return runFinance(reply, () => refundDetail(db, params.data.id, granted, by(request)));
  });

  app.patch("/refund/:id", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = updateBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const granted = await rights(request);
    return runFinance(reply, async () => refundDetail(db, (await updateRefund(db, params.data.id, parsed.data, by(request), granted)).id, granted, by(request)));
  });

  app.patch("/refund/:id/change-refund-status", async (request, reply) => {
    const params = idParams.safeParse(request.params);
    if (!params.success) return validationError(reply, params.error);
    const parsed = statusBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const granted = await rights(request);
    return runFinance(reply, async () => refundDetail(db, (await changeRefundStatus(db, params.data.id, parsed.data, by(request), granted)).id, granted, by(request)));
  });

  app.post("/classes/get-class-infor-for-refund", async (request, reply) => {
    const parsed = classInfoBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => classInformationForRefund(db, parsed.data));
  });

  app.get("/classes/classes-not-refund", async (request, reply) => {
    const parsed = z.object({ studentId: uuid(REFUND_MESSAGES.student) }).safeParse(request.query ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return runFinance(reply, () => classesNotRefunded(db, parsed.data.studentId));
  });
};
