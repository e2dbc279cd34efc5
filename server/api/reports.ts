/**
 * The report calls under /api/v2 (issue 17): the spec's `GET /reports/daily-receipt` and `GET /reports/daily-closing`
 * and `GET /reports/revenue`, `POST /reports/enrollment-list-by-user-ids` (part 2 §7), and ours for the other report pages. Each answers a ReportResult
 * (src/domain/reports.ts) from one or two SQL statements; a period is at most 366 days. The policy's report
 * roles guard each call (api:/reports/<name>, GET).
 */
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/index.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import { dailyClosingReport, dailyReceiptReport } from "../reports/collections.ts";
import { overpaidReport, paListingReport } from "../reports/billing.ts";
import { depositReport } from "../reports/deposits.ts";
import { studentAttendanceReport } from "../reports/attendance.ts";
import { enrolmentListReport, enrolmentsOfUsers, newEnrolmentListReport } from "../reports/enrolments.ts";
import { revenueReport } from "../reports/revenue.ts";
import { rewardReport } from "../reports/rewards.ts";
import type { ReportFilters } from "../reports/filters.ts";
import { day, uuid, validationError } from "./validation.ts";

const MAX_DAYS = 366;
const query = z
  .object({
    date: day("Please select a date."),
    from: day("Please select the start date."),
    to: day("Please select the end date."),
    companyId: uuid("Unknown company.").optional(),
    branchId: uuid("Unknown branch.").optional(),
  })
  .transform((q, ctx): ReportFilters => {
    const from = q.date ?? q.from ?? todayInSingapore();
    const to = q.date ?? q.to ?? from;
    if (to < from) ctx.addIssue({ code: "custom", path: ["to"], message: "The end date cannot be before the start date." });
    else if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= MAX_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: "A report covers at most one year." });
    return { from, to, companyId: q.companyId ?? null, branchId: q.branchId ?? null };
  });

const REPORTS: Record<string, (db: Queryable, f: ReportFilters) => Promise<ReportResult>> = {
  "daily-receipt": dailyReceiptReport,
  "daily-closing": dailyClosingReport,
  "pa-listing": paListingReport,
  deposit: depositReport,
  overpaid: overpaidReport,
  revenue: revenueReport,
  "student-attendance": studentAttendanceReport,
  "enrollment-list": enrolmentListReport,
  "enrollment-list-new": newEnrolmentListReport,
  reward: rewardReport,
};

const userIdsBody = z.object({ userIds: z.array(uuid("Unknown student.")).min(1, "Please select students.").max(500) });

export const reportRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  for (const [name, run] of Object.entries(REPORTS)) {
    app.get(`/reports/${name}`, async (request, reply) => {
      const parsed = query.safeParse(request.query ?? {});
      if (!parsed.success) return validationError(reply, parsed.error);
      return reply.send({ success: true, data: await run(ctx.db, parsed.data) });
    });
  }
  app.post("/reports/enrollment-list-by-user-ids", async (request, reply) => {
    const parsed = userIdsBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return reply.send({ success: true, data: await enrolmentsOfUsers(ctx.db, parsed.data.userIds) });
  });
};
