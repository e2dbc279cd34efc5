/**
 * The report calls under /api/v2 (issue 17): the spec's `GET /reports/daily-receipt` and `GET /reports/daily-closing`
 * and `GET /reports/revenue`, `POST /reports/enrollment-list-by-user-ids` (part 2 §7), and ours for the other report pages. Each answers a ReportResult
 * (src/domain/reports.ts) from one or two SQL statements; a period is at most 366 days. The policy's report
 * roles guard each call (api:/reports/<name>, GET). The row-heavy reports answer a page (`page`, `pageSize`) with the
 * whole report's totals (issue 38); `format=csv` answers any report as a CSV file, the paged ones streamed.
 */
import { PassThrough } from "node:stream";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/index.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { CSV_BOM, csvLine } from "../../src/domain/csv.ts";
import { MAX_REPORT_PAGE_SIZE, REPORTS as REPORT_PAGES, reportCsvCells, type ReportResult } from "../../src/domain/reports.ts";
import { dailyClosingReport, dailyReceiptReport } from "../reports/collections.ts";
import { overpaidReport, paListingReport } from "../reports/billing.ts";
import { depositReport } from "../reports/deposits.ts";
import { studentAttendanceReport } from "../reports/attendance.ts";
import { enrolmentListReport, enrolmentsOfUsers, newEnrolmentListReport } from "../reports/enrolments.ts";
import { revenueReport } from "../reports/revenue.ts";
import { rewardReport } from "../reports/rewards.ts";
import type { ReportFilters } from "../reports/filters.ts";
import { reportPage, streamReportCsv, type PagedReport, type Paging } from "../reports/paging.ts";
import { day, uuid, validationError } from "./validation.ts";
import { withoutJit } from "../db/jit.ts";

const MAX_DAYS = 366;
const query = z
  .object({
    date: day("Please select a date."),
    from: day("Please select the start date."),
    to: day("Please select the end date."),
    companyId: uuid("Unknown company.").optional(),
    branchId: uuid("Unknown branch.").optional(),
    page: z.coerce.number({ error: "Invalid page." }).int("Invalid page.").min(1, "Invalid page.").max(1_000_000, "Invalid page.").default(1),
    pageSize: z.coerce
      .number({ error: "Invalid page size." })
      .int("Invalid page size.")
      .min(1, "Invalid page size.")
      .max(MAX_REPORT_PAGE_SIZE, `A page holds at most ${MAX_REPORT_PAGE_SIZE} rows.`)
      .default(50),
    format: z.enum(["json", "csv"], { error: "Unknown format." }).default("json"),
  })
  .transform((q, ctx): ReportFilters & Paging & { format: "json" | "csv" } => {
    const from = q.date ?? q.from ?? todayInSingapore();
    const to = q.date ?? q.to ?? from;
    if (to < from) ctx.addIssue({ code: "custom", path: ["to"], message: "The end date cannot be before the start date." });
    else if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= MAX_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: "A report covers at most one year." });
    return { from, to, companyId: q.companyId ?? null, branchId: q.branchId ?? null, page: q.page, pageSize: q.pageSize, format: q.format };
  });

/** Reports of few rows (a line per day, month or overpaid invoice), answered whole. */
const WHOLE: Record<string, (db: Queryable, f: ReportFilters) => Promise<ReportResult>> = {
  "daily-receipt": dailyReceiptReport,
  "daily-closing": dailyClosingReport,
  deposit: depositReport,
  overpaid: overpaidReport,
  revenue: revenueReport,
  reward: rewardReport,
};

/** The row-heavy reports, paged on the server and streamed as CSV. */
const PAGED: Record<string, PagedReport<never>> = {
  "pa-listing": paListingReport as PagedReport<never>,
  "student-attendance": studentAttendanceReport as PagedReport<never>,
  "enrollment-list": enrolmentListReport as PagedReport<never>,
  "enrollment-list-new": newEnrolmentListReport as PagedReport<never>,
};

/** "pa-listing-2026-11-27.csv": the file the page used to write itself (the report's title and today). */
function csvReply(reply: FastifyReply, name: string): FastifyReply {
  const title = Object.values(REPORT_PAGES).find((r) => r.endpoint === `/reports/${name}`)?.title ?? name;
  const file = `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${todayInSingapore()}.csv`;
  return reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${file}"`);
}

const userIdsBody = z.object({ userIds: z.array(uuid("Unknown student.")).min(1, "Please select students.").max(500) });

export const reportRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  for (const [name, run] of Object.entries(WHOLE)) {
    app.get(`/reports/${name}`, async (request, reply) => {
      const parsed = query.safeParse(request.query ?? {});
      if (!parsed.success) return validationError(reply, parsed.error);
      // these reports read a year of PAs' JSON lines: without JIT, whose compiling cost more than the reading (DECISIONS)
      const data = await ctx.db.transaction(async (tx) => {
        await withoutJit(tx);
        return run(tx, parsed.data);
      });
      if (parsed.data.format === "json") return reply.send({ success: true, data });
      const rows = [...data.rows, ...(data.totals ? [data.totals] : [])];
      return csvReply(reply, name).send(CSV_BOM + csvLine(data.columns.map((c) => c.title)) + rows.map((r) => csvLine(reportCsvCells(data.columns, r))).join(""));
    });
  }
  for (const [name, report] of Object.entries(PAGED)) {
    app.get(`/reports/${name}`, async (request, reply) => {
      const parsed = query.safeParse(request.query ?? {});
      if (!parsed.success) return validationError(reply, parsed.error);
      if (parsed.data.format === "json") return reply.send({ success: true, data: await reportPage(ctx.db, report, parsed.data, parsed.data) });
      const out = new PassThrough();
      void streamReportCsv(ctx.db, report, parsed.data, out);
      return csvReply(reply, name).send(out);
    });
  }
  app.post("/reports/enrollment-list-by-user-ids", async (request, reply) => {
    const parsed = userIdsBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    return reply.send({ success: true, data: await enrolmentsOfUsers(ctx.db, parsed.data.userIds) });
  });
};
